/**
 * The page tree of a repository without SUMMARY.md (folder-tree.ts): a top-level folder without
 * README is a group, a deeper one a page without a file of its own titled from its name.
 */
import { slugOf } from '../documents/slug.js';
import { titleFromName } from '../import-readers/zip/page-names.js';
import { folderTree } from './folder-tree.js';
import { fileSlug, fileTitle } from './names.js';
import type { GitPageNode } from './types.js';

/** `pages`: root-relative markdown paths that are pages; `files`: path → blob id. */
export function folderPages(pages: readonly string[], files: ReadonlyMap<string, string>, readme: string): GitPageNode[] {
  const page = (path: string, children: GitPageNode[]): GitPageNode => ({ path, oid: files.get(path) ?? null, type: 'document', fallbackTitle: fileTitle(path), slug: fileSlug(path), children });
  const tree = folderTree(pages, readme, {
    page,
    emptyFolder(name, _path, children, topLevel): GitPageNode {
      const title = titleFromName(name);
      return { path: null, oid: null, type: topLevel ? 'group' : 'document', title, fallbackTitle: title, slug: slugOf(name) || 'page', children };
    },
  });
  return tree.first ? [page(tree.first, []), ...tree.pages] : tree.pages;
}
