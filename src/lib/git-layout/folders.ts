/**
 * The page tree of a repository without SUMMARY.md, from its folders: the readme first; a folder's
 * README is its page, the folder's other files and subfolders its children; a top-level folder
 * without README is a group, a deeper one a page without a file of its own titled from its name.
 * Natural order of names, as the zip import.
 */
import { slugOf } from '../documents/slug.js';
import { titleFromName } from '../import-readers/zip/pages.js';
import { fileSlug, fileTitle, isReadmePath } from './names.js';
import type { GitPageNode } from './types.js';

type Folder = { name: string; pages: string[]; folders: Map<string, Folder> };

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** `pages`: root-relative markdown paths that are pages; `files`: path → blob id. */
export function folderPages(pages: readonly string[], files: ReadonlyMap<string, string>, readme: string): GitPageNode[] {
  const root: Folder = { name: '', pages: [], folders: new Map() };
  for (const path of pages) folderOf(root, path).pages.push(path);
  const first = root.pages.includes(readme) ? readme : readmeOf(root);
  const rest = childPages(root, first, files, true);
  return first ? [filePage(first, files, []), ...rest] : rest;
}

function folderOf(root: Folder, path: string): Folder {
  let folder = root;
  for (const name of path.split('/').slice(0, -1)) {
    let next = folder.folders.get(name);
    if (!next) folder.folders.set(name, (next = { name, pages: [], folders: new Map() }));
    folder = next;
  }
  return folder;
}

/** README before index. */
const readmeOf = (folder: Folder) =>
  folder.pages.filter(isReadmePath).sort((a, b) => Number(/\/?index\.[^/]+$/i.test(a)) - Number(/\/?index\.[^/]+$/i.test(b)))[0];

function childPages(folder: Folder, own: string | undefined, files: ReadonlyMap<string, string>, topLevel: boolean): GitPageNode[] {
  const entries = [
    ...folder.pages.filter((path) => path !== own).map((path) => ({ name: path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, ''), page: () => filePage(path, files, []) })),
    ...[...folder.folders.values()].map((sub) => ({ name: sub.name, page: () => folderNode(sub, files, topLevel) })),
  ];
  entries.sort((a, b) => collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.map((entry) => entry.page());
}

function folderNode(folder: Folder, files: ReadonlyMap<string, string>, topLevel: boolean): GitPageNode {
  const own = readmeOf(folder);
  const children = childPages(folder, own, files, false);
  if (own) return filePage(own, files, children);
  const title = titleFromName(folder.name);
  const slug = slugOf(folder.name) || 'page';
  if (topLevel) return { path: null, oid: null, type: 'group', title, fallbackTitle: title, slug, children };
  return { path: null, oid: null, type: 'document', title, fallbackTitle: title, slug, children };
}

const filePage = (path: string, files: ReadonlyMap<string, string>, children: GitPageNode[]): GitPageNode => ({
  path,
  oid: files.get(path) ?? null,
  type: 'document',
  fallbackTitle: fileTitle(path),
  slug: fileSlug(path),
  children,
});
