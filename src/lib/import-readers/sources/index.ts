/** The import sources this server reads, by the API's `source` value, and those it does not. */
import type { ImportLimits, ImportSource } from '../tree.js';
import type { ImportSourceName } from './names.js';
import { confluenceSource } from './confluence/index.js';
import { docxSource } from './docx.js';
import { dropboxPaperSource } from './dropbox-paper/index.js';
import { githubWikiSource } from './github-wiki/index.js';
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
  confluence: confluenceSource,
  'github-wiki': githubWikiSource,
} satisfies Record<ImportSourceName, ImportSource>;

export type { ImportSourceName } from './names.js';

/**
 * Limits of the sources that bring a whole workspace in one export, over DEFAULT_IMPORT_LIMITS: a
 * team's few thousand pages, their folders and files (the archive stays in memory: bytes as for
 * any import), with the time to write them.
 */
const WORKSPACE_LIMITS: Partial<ImportLimits> = { maxPages: 5_000, maxZipEntries: 30_000, totalTimeMs: 600_000 };

/**
 * A zip of markdown is a whole documentation (a repository's export): up to 10,000 pages, read
 * and written in batches (imports/write-pages.ts), so memory does not grow with the page count.
 */
const BULK_LIMITS: Partial<ImportLimits> = { maxPages: 10_000, maxZipEntries: 30_000, totalTimeMs: 600_000 };

export const SOURCE_LIMITS: Partial<Record<ImportSourceName, Partial<ImportLimits>>> = { zip: BULK_LIMITS, notion: WORKSPACE_LIMITS, confluence: WORKSPACE_LIMITS, 'github-wiki': WORKSPACE_LIMITS };

/**
 * Sources whose pages form a tree: imported into a page, they replace its children too (so does
 * any import that read more than one page, e.g. a folder's export).
 */
export const TREE_SOURCES: readonly ImportSourceName[] = ['zip', 'website', 'notion', 'confluence', 'github-wiki'];
