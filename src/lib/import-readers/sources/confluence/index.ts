/**
 * `source: "confluence"`: a Confluence space export (Space tools → Export space → HTML), the zip
 * Confluence gives: a folder named by the space's key holding `index.html`, the pages and their
 * attachments (tree.ts). Only the pages and attachments are inflated; every entry counts against
 * the import's limits and unsafe names (`..`, absolute paths, symlinks) refuse the whole export
 * (zip/read-entries.ts). The archive may be as large as the whole import (`maxTotalBytes`).
 */
import { throwIfAborted } from '../../../fetch/fetch-errors.js';
import type { ImportSource } from '../../tree.js';
import { countPages, firstPages } from '../../zip/page-limit.js';
import { readZipEntries } from '../../zip/read-entries.js';
import { ZIP_TYPES } from '../zip.js';
import { confluenceTree, isAttachmentPath, type ExportFiles } from './tree.js';

/**
 * The export's root: the folder of its shallowest `index.html` (the space's key), else of its
 * shallowest page. Entries outside it are left out, and paths are made relative to it.
 */
function rootOf(paths: string[]): string {
  const shallowest = (pattern: RegExp) => paths.filter((path) => pattern.test(path)).sort((a, b) => a.split('/').length - b.split('/').length)[0];
  const first = shallowest(/(^|\/)index\.html?$/i) ?? shallowest(/\.html?$/i);
  return first ? first.slice(0, first.lastIndexOf('/') + 1) : '';
}

export const confluenceSource: ImportSource = async (url, context) => {
  const { limits, signal } = context;
  const response = await context.fetch(url, { accept: ZIP_TYPES, maxBytes: limits.maxTotalBytes });
  // A first pass lists the names without inflating anything, to find the export's root.
  const listed = await readZipEntries(response.bytes, { limits, signal, wanted: () => false });
  const root = rootOf(listed.map((entry) => entry.path));
  const wanted = (path: string) => path.startsWith(root) && (/^[^/]+\.html?$/i.test(path.slice(root.length)) || isAttachmentPath(path.slice(root.length)));
  const entries = await readZipEntries(response.bytes, { limits, signal, wanted, progress: (done, total) => context.progress(done, total, 'Reading the export') });
  const files: ExportFiles = new Map();
  for (const entry of entries) if (entry.bytes) files.set(entry.path.slice(root.length), entry.bytes);
  throwIfAborted(signal);
  const { pages, files: imported } = await confluenceTree(files, context);
  const total = countPages(pages) + imported.length;
  context.progress(total, total);
  return { pages: firstPages(pages, limits.maxPages), files: imported, totalResources: total };
};
