/**
 * The page tree of an archive without SUMMARY.md, from its folders (git-layout/folder-tree.ts): the
 * root's README.md (or index.md) is the first page, titled `Introduction` when it has no heading;
 * a folder without README becomes an empty page named after it, its source the folder (a link to
 * `folder/` resolves to it).
 */
import { folderTree } from '../../git-layout/folder-tree.js';
import type { ImportedPage } from '../tree.js';
import { baseName } from './archive-path.js';
import { isPagePath, readPageContent, titleFromName } from './pages.js';

/** `readme` (root-relative, from `.gitbook.yaml`) is preferred as the root's first page. */
export function folderPages(files: Map<string, Uint8Array>, readme: string): ImportedPage[] {
  const filePage = (path: string, children: ImportedPage[], fallbackTitle?: string): ImportedPage => {
    const content = readPageContent(path, files.get(path)!, fallbackTitle ?? titleFromName(baseName(path)));
    return { source: path, ...(content.title !== undefined ? { title: content.title } : {}), markdown: content.markdown, children };
  };
  const tree = folderTree<ImportedPage>([...files.keys()].filter(isPagePath), readme, {
    page: (path, children, folderName) => filePage(path, children, folderName === undefined ? undefined : titleFromName(folderName)),
    emptyFolder: (name, path, children) => ({ source: path, title: titleFromName(name), markdown: '', children }),
  });
  return tree.first ? [filePage(tree.first, [], 'Introduction'), ...tree.pages] : tree.pages;
}
