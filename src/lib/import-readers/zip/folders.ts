/**
 * The page tree of an archive without SUMMARY.md, from its folders (git-layout/folder-tree.ts): the
 * root's README.md (or index.md) is the first page, titled `Introduction` when it has no heading;
 * a folder without README becomes an empty page named after it, its source the folder (a link to
 * `folder/` resolves to it).
 */
import { folderTree } from '../../git-layout/folder-tree.js';
import type { ImportedPage } from '../tree.js';
import { baseName } from './archive-path.js';
import { isPagePath, lazyPageContent, titleFromName, withBody } from './pages.js';

/**
 * `readme` (root-relative, from `.gitbook.yaml`) is preferred as the root's first page; a markdown
 * page's body is read again (`reread`) when it is written.
 */
export function folderPages(files: Map<string, Uint8Array>, readme: string, reread: (path: string) => Uint8Array): ImportedPage[] {
  const filePage = (path: string, children: ImportedPage[], fallbackTitle?: string): ImportedPage => {
    const content = lazyPageContent(path, files.get(path)!, fallbackTitle ?? titleFromName(baseName(path)), reread);
    return withBody({ source: path, ...(content.title !== undefined ? { title: content.title } : {}), children }, content);
  };
  const tree = folderTree<ImportedPage>([...files.keys()].filter(isPagePath), readme, {
    page: (path, children, folderName) => filePage(path, children, folderName === undefined ? undefined : titleFromName(folderName)),
    emptyFolder: (name, path, children) => ({ source: path, title: titleFromName(name), markdown: '', children }),
  });
  return tree.first ? [filePage(tree.first, [], 'Introduction'), ...tree.pages] : tree.pages;
}
