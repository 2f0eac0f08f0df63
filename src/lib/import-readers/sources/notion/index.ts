/**
 * `source: "notion"`: a Notion workspace (or page) export, "Markdown & CSV", as the zip Notion
 * gives (archive.ts), turned into a page tree (tree.ts). The archive may be as large as the whole
 * import (`maxTotalBytes`), not only one response: a workspace's export is the import.
 */
import { throwIfAborted } from '../../../fetch/fetch-errors.js';
import type { ImportSource } from '../../tree.js';
import { countPages, firstPages } from '../../zip/page-limit.js';
import { ZIP_TYPES } from '../zip.js';
import { readNotionArchive } from './archive.js';
import { notionTree } from './tree.js';

export const notionSource: ImportSource = async (url, context) => {
  const { limits, signal } = context;
  const response = await context.fetch(url, { accept: ZIP_TYPES, maxBytes: limits.maxTotalBytes });
  const files = await readNotionArchive(response.bytes, { limits, signal, progress: (done, total) => context.progress(done, total, 'Reading the export') });
  throwIfAborted(signal);
  const { pages, files: imported } = notionTree(files);
  const total = countPages(pages) + imported.length;
  context.progress(total, total);
  return { pages: firstPages(pages, limits.maxPages), files: imported, totalResources: total };
};
