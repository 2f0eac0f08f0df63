/** Content entries as the domain reads them: pages, files and reusable contents of a revision. */
import type { ContentEntry } from '../../../generated/prisma/client.js';

export type EntityKind = 'page' | 'file' | 'reusable-content';
export type PageType = 'document' | 'group' | 'link';

export type Entry = Omit<ContentEntry, 'id'> & { kind: EntityKind };

export type PageEntry = Entry & { kind: 'page'; type: PageType };

/** Page attributes kept in `data` (everything but the columns the tree and merges read). */
export type PageData = {
  description?: string;
  emoji?: string;
  icon?: string;
  linkTitle?: string;
  hidden?: boolean;
  layout?: Record<string, unknown>;
  cover?: Record<string, unknown>;
  /** Link pages: where they point (a ContentRef). */
  target?: Record<string, unknown>;
};

/** File attributes kept in `data`. */
export type FileData = {
  contentType: string;
  size: number;
  /** Where the bytes are, for the storage (see files/storage.ts). */
  storageKey: string;
  dimensions?: { width: number; height: number };
};

export const pageData = (entry: Entry) => entry.data as PageData;
export const fileData = (entry: Entry) => entry.data as FileData;
