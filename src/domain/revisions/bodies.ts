/** A page with its path and body, as link extraction reads it (content-links/extract.ts). */
import type { JSONDocument } from '../documents/types.js';
import type { PageType } from './entries.js';

export type PageWithBody = {
  id: string;
  parentId: string | null;
  path: string;
  type: PageType;
  title: string;
  document: JSONDocument | null;
  /** Link pages: their target (a ContentRef). */
  target: unknown;
};
