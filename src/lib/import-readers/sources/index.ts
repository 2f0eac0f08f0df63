/** The import sources this server reads, by the API's `source` value, and those it does not. */
import type { ImportSource } from '../tree.js';
import { docxSource } from './docx.js';
import { dropboxPaperSource } from './dropbox-paper/index.js';
import { googleDocsSource } from './google-docs/index.js';
import { notionSource } from './notion/index.js';
import { quipSource } from './quip/index.js';
import { htmlSource } from './html.js';
import { markdownSource } from './markdown.js';
import { websiteSource } from './website.js';
import { zipSource } from './zip.js';

export const IMPORT_SOURCES = {
  website: websiteSource,
  docx: docxSource,
  markdown: markdownSource,
  html: htmlSource,
  zip: zipSource,
  notion: notionSource,
  'dropbox-paper': dropboxPaperSource,
  quip: quipSource,
  'google-docs': googleDocsSource,
} satisfies Record<string, ImportSource>;

export type ImportSourceName = keyof typeof IMPORT_SOURCES;

/**
 * Sources whose pages form a tree: imported into a page, they replace its children too (so does
 * any import that read more than one page, e.g. a folder's export).
 */
export const TREE_SOURCES: readonly ImportSourceName[] = ['zip', 'website', 'notion'];

/** Third-party products the public API names as sources; importing from them needs their APIs and accounts. */
export const THIRD_PARTY_SOURCES = ['confluence', 'github-wiki'] as const;
