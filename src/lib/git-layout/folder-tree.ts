/**
 * The page tree of content without SUMMARY.md, from its folders (shared by git sync and the zip
 * import): the readme first; a folder's README (or index) is its page, its other pages and
 * subfolders the children, in natural order of their names. What a page or a folder without a
 * README becomes is the caller's.
 */
import { baseName } from '../import-readers/zip/archive-path.js';
import { isFolderPage } from '../import-readers/zip/page-names.js';

export type FolderTreeBuilder<T> = {
  /** A page file; `folderName`: the folder it is the README of. */
  page(path: string, children: T[], folderName?: string): T;
  /** A folder without README; `path` ends with `/`; `topLevel`: directly in the root. */
  emptyFolder(name: string, path: string, children: T[], topLevel: boolean): T;
};

type Folder = { name: string; path: string; pages: string[]; folders: Map<string, Folder> };

/** Made at its first sort: a collator maps megabytes of Node's ICU data (docs/performance.md, Memory). */
let collator: Intl.Collator | undefined;

/** `pages`: root-relative page files; `readme`: preferred as the root's first page. */
export function folderTree<T>(pages: Iterable<string>, readme: string, build: FolderTreeBuilder<T>): { first?: string; pages: T[] } {
  const root: Folder = { name: '', path: '', pages: [], folders: new Map() };
  for (const path of pages) folderOf(root, path).pages.push(path);
  const first = root.pages.includes(readme) ? readme : folderPage(root);
  const rest = childPages(root, first, build, true);
  return { ...(first ? { first } : {}), pages: rest };
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
function childPages<T>(folder: Folder, own: string | undefined, build: FolderTreeBuilder<T>, topLevel: boolean): T[] {
  const entries = [
    ...folder.pages.filter((path) => path !== own).map((path) => ({ name: baseName(path).replace(/\.[^.]+$/, ''), node: () => build.page(path, []) })),
    ...[...folder.folders.values()].map((sub) => ({ name: sub.name, node: () => folderNode(sub, build, topLevel) })),
  ];
  entries.sort((a, b) => (collator ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' })).compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.map((entry) => entry.node());
}

function folderNode<T>(folder: Folder, build: FolderTreeBuilder<T>, topLevel: boolean): T {
  const own = folderPage(folder);
  const children = childPages(folder, own, build, false);
  return own ? build.page(own, children, folder.name) : build.emptyFolder(folder.name, folder.path, children, topLevel);
}
