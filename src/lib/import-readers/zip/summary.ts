/**
 * The page tree of a SUMMARY.md (read by git-layout/summary.ts, as git sync reads it): groups,
 * nested pages whose bodies are the linked files' markdown. Files it does not list are not pages;
 * an item that names no page (plain text, an anchor, an absolute URL, a file listed twice) gives
 * none and its children move up a level; a listed file that is missing is an empty page.
 */
import { readSummary } from '../../git-layout/summary.js';
import type { GitPageNode } from '../../git-layout/types.js';
import type { ImportedPage } from '../tree.js';
import { baseName } from './archive-path.js';
import { hasPageExtension, lazyPageContent, titleFromName, withBody } from './pages.js';

/** `summaryPath` and the keys of `files` are root-relative; a markdown page's body is read again (`reread`) when it is written. */
export async function summaryTree(summaryPath: string, summary: string, files: Map<string, Uint8Array>, reread: (path: string) => Uint8Array): Promise<ImportedPage[]> {
  const paths = new Map([...files.keys()].map((path) => [path, path]));
  const tree = await readSummary({ summaryPath, text: summary, files: paths, problemPath: summaryPath, isPage: hasPageExtension, plainItemGroups: false });
  let groups = 0;
  const pages = (nodes: GitPageNode[]): ImportedPage[] =>
    nodes.flatMap((node): ImportedPage[] => {
      // Groups have no file: the source only has to be unique within the import.
      if (node.type === 'group') return [{ source: `${summaryPath}#group-${++groups}`, type: 'group', title: node.title ?? '', markdown: '', children: pages(node.children) }];
      if (node.type === 'link' || node.path === null) return pages(node.children);
      // The entry's text is the title; a link without text falls back to the page's own.
      const fallback = node.title ?? titleFromName(baseName(node.path));
      const bytes = files.get(node.path);
      const path = node.path;
      const content = bytes ? lazyPageContent(path, bytes, fallback, reread) : { markdown: '', title: fallback };
      return [withBody({ source: path, title: node.title ?? content.title, children: pages(node.children) }, content)];
    });
  return pages(tree.pages);
}
