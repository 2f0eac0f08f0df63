/**
 * The page tree of an archive without SUMMARY.md: folders give it. The root's README.md (or
 * index.md) is the first page; a folder's README/index is the folder's page and its other pages
 * are the children; a folder without one becomes an empty page named after it.
 */
import type { ImportedPage } from '../tree.js';
import { baseName } from './archive-path.js';
import { isFolderPage, isPagePath, readPageContent, titleFromName, type PageContent } from './pages.js';

type Folder = { name: string; path: string; pages: string[]; folders: Map<string, Folder> };

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** `readme` (root-relative, from `.gitbook.yaml`) is preferred as the root's first page. */
export function folderTree(files: Map<string, Uint8Array>, readme: string): ImportedPage[] {
  const root: Folder = { name: '', path: '', pages: [], folders: new Map() };
  for (const path of files.keys()) if (isPagePath(path)) folderOf(root, path).pages.push(path);
  const first = root.pages.includes(readme) ? readme : folderPage(root);
  const rest = childPages(root, first, files);
  return first ? [filePage(first, files, 'Introduction', []), ...rest] : rest;
}

function folderOf(root: Folder, path: string): Folder {
  let folder = root;
  for (const name of path.split('/').slice(0, -1)) {
    let next = folder.folders.get(name);
    if (!next) folder.folders.set(name, (next = { name, path: `${folder.path}${name}/`, pages: [], folders: new Map() }));
    folder = next;
  }
  return folder;
}

/** README before index, markdown before HTML. */
function folderPage(folder: Folder): string | undefined {
  const rank = (path: string) => (/^readme\./i.test(baseName(path)) ? 0 : 2) + (/\.(md|markdown)$/i.test(path) ? 0 : 1);
  return folder.pages.filter(isFolderPage).sort((a, b) => rank(a) - rank(b))[0];
}

/** The folder's pages and subfolders but `own` (its page), in natural order of their names. */
function childPages(folder: Folder, own: string | undefined, files: Map<string, Uint8Array>): ImportedPage[] {
  const entries = [
    ...folder.pages.filter((path) => path !== own).map((path) => ({ name: baseName(path).replace(/\.[^.]+$/, ''), page: () => filePage(path, files, undefined, []) })),
    ...[...folder.folders.values()].map((sub) => ({ name: sub.name, page: () => folderNode(sub, files) })),
  ];
  entries.sort((a, b) => collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.map((entry) => entry.page());
}

function folderNode(folder: Folder, files: Map<string, Uint8Array>): ImportedPage {
  const own = folderPage(folder);
  const children = childPages(folder, own, files);
  const title = titleFromName(folder.name);
  if (own) return filePage(own, files, title, children);
  // No README: an empty page, its source the folder (a link to `folder/` resolves to it).
  return { source: folder.path, title, markdown: '', children };
}

function filePage(path: string, files: Map<string, Uint8Array>, fallbackTitle: string | undefined, children: ImportedPage[]): ImportedPage {
  const content: PageContent = readPageContent(path, files.get(path)!, fallbackTitle ?? titleFromName(baseName(path)));
  return { source: path, ...(content.title !== undefined ? { title: content.title } : {}), markdown: content.markdown, children };
}
