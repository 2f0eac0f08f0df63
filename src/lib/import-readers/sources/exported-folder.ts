/**
 * A folder's export as a zip (Dropbox Paper's, Quip's bulk exporters'): its documents as markdown,
 * HTML or Word documents (.docx, read in the conversion pool), in folders that give the page tree
 * as a `zip` import's do (git-layout/folder-tree.ts: README first, folders without one as pages
 * without body, natural order). A .docx's pictures become files beside it
 * (`Spec.docx-images/image-1.png`), so two documents' pictures never share a name.
 */
import { throwIfAborted } from '../../fetch/fetch-errors.js';
import { folderTree } from '../../git-layout/folder-tree.js';
import { docxToTreeInPool } from '../in-pool.js';
import type { ImportedFile, ImportedPage, ImportTree, SourceContext } from '../tree.js';
import { baseName, extensionOf } from '../zip/archive-path.js';
import { importedFile } from '../zip/files.js';
import { layOut } from '../zip/layout.js';
import { countPages, firstPages } from '../zip/page-limit.js';
import { hasPageExtension, isPagePath, readPageContent, titleFromName } from '../zip/pages.js';
import { readZipEntries } from '../zip/read-entries.js';

const isDocxPath = (path: string) => extensionOf(path) === 'docx' && !/(^|\/)\.gitbook\//.test(path);

export async function readExportedFolder(bytes: Uint8Array, context: SourceContext, isAsset: (path: string) => boolean): Promise<ImportTree> {
  const { limits, signal } = context;
  const entries = await readZipEntries(bytes, {
    limits,
    signal,
    progress: (done, total) => context.progress(done, total, 'Reading the export'),
    wanted: (path) => hasPageExtension(path) || isDocxPath(path) || isAsset(path),
  });
  const { files } = layOut(entries);
  const assets: ImportedFile[] = [];
  for (const [path, content] of files) if (isAsset(path) && !isPagePath(path) && !isDocxPath(path)) assets.push(importedFile(path, content));

  // Word documents first (each in the pool), so that the tree below is built without waiting.
  const documents = new Map<string, { title?: string; markdown: string }>();
  for (const [path, content] of files) {
    if (!isDocxPath(path)) continue;
    throwIfAborted(signal);
    const name = baseName(path);
    const read = await docxToTreeInPool({ bytes: content, name, limits }, signal);
    const images = `${path}-images/`;
    for (const file of read.files) assets.push({ ...file, source: images + file.name });
    const page = read.pages[0];
    documents.set(path, {
      ...(page?.title !== undefined ? { title: page.title } : {}),
      markdown: (page?.markdown ?? '').replaceAll('](docx-images/', `](${encodeURIComponent(name)}-images/`),
    });
  }

  const pageOf = (path: string, children: ImportedPage[], fallbackTitle?: string): ImportedPage => {
    const title = fallbackTitle ?? titleFromName(baseName(path).replace(/\.docx$/i, ''));
    const document = documents.get(path);
    const content = document ? { markdown: document.markdown, title: document.title ?? title } : readPageContent(path, files.get(path)!, title);
    return { source: path, ...(content.title !== undefined ? { title: content.title } : {}), markdown: content.markdown, children };
  };
  const paths = [...files.keys()].filter((path) => isPagePath(path) || documents.has(path));
  const tree = folderTree<ImportedPage>(paths, 'README.md', {
    page: (path, children, folderName) => pageOf(path, children, folderName === undefined ? undefined : titleFromName(folderName)),
    emptyFolder: (name, path, children) => ({ source: path, title: titleFromName(name), markdown: '', children }),
  });
  const pages = tree.first ? [pageOf(tree.first, []), ...tree.pages] : tree.pages;
  const total = countPages(pages) + assets.length;
  context.progress(total, total);
  return { pages: firstPages(pages, limits.maxPages), files: assets, totalResources: total };
}
