/**
 * A zip archive in the platform's markdown dialect (or plain markdown, or HTML) → an ImportTree:
 * SUMMARY.md gives the page tree when there is one, the folders otherwise.
 */
import type { ImportedFile, ImportLimits, ImportTree } from '../tree.js';
import { baseName } from './archive-path.js';
import { importedFile, isAssetPath } from './files.js';
import { folderPages } from './folders.js';
import { GITBOOK_YAML } from '../../git-layout/config.js';
import { layOut } from './layout.js';
import { countPages, firstPages } from './page-limit.js';
import { decodeText, hasPageExtension, isPagePath } from './pages.js';
import { readZipEntries } from './read-entries.js';
import { summaryTree } from './summary.js';

export type ReadZipOptions = {
  limits: ImportLimits;
  signal?: AbortSignal;
  progress?: (done: number, total?: number) => void;
};

export async function readZipTree(bytes: Uint8Array, options: ReadZipOptions): Promise<ImportTree> {
  const entries = await readZipEntries(bytes, {
    ...options,
    // Only what can become a page, a file or the configuration is inflated.
    wanted: (path) => hasPageExtension(path) || isAssetPath(path) || baseName(path) === GITBOOK_YAML,
  });
  const { files, config, reread } = layOut(entries);
  const summary = files.get(config.summary);
  // A SUMMARY.md that lists nothing (empty, or prose) does not hide the folders' pages.
  const listed = summary ? await summaryTree(config.summary, decodeText(summary), files, reread) : [];
  const pages = listed.length > 0 ? listed : folderPages(files, config.readme, reread);
  const assets: ImportedFile[] = [];
  for (const [path, content] of files) if (isAssetPath(path) && !isPagePath(path)) assets.push(importedFile(path, content));
  return { pages: firstPages(pages, options.limits.maxPages), files: assets, totalResources: countPages(pages) + assets.length };
}
