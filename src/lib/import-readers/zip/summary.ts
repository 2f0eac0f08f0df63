/**
 * The page tree of a SUMMARY.md: `## Group` headings make top-level groups, nested list items
 * `* [Title](path.md)` make pages (the linked file's markdown is the body) and their nested lists
 * the children. Files it does not list are not pages.
 */
import type { List, ListItem, Nodes, Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { ImportedPage } from '../tree.js';
import { baseName, resolveInArchive } from './archive-path.js';
import { hasPageExtension, readPageContent, titleFromName } from './pages.js';

const parser = unified().use(remarkParse);

/** `summaryPath` and the keys of `files` are root-relative. */
export function summaryTree(summaryPath: string, summary: string, files: Map<string, Uint8Array>): ImportedPage[] {
  const root = parser.parse(summary) as Root;
  const seen = new Set<string>();
  const pages: ImportedPage[] = [];
  let group: ImportedPage | undefined;
  let groups = 0;
  for (const node of root.children) {
    // `# Table of contents` titles the file itself.
    if (node.type === 'heading' && node.depth > 1) {
      // Groups have no file: the source only has to be unique within the import.
      group = { source: `${summaryPath}#group-${++groups}`, type: 'group', title: plainText(node).trim(), markdown: '', children: [] };
      pages.push(group);
    } else if (node.type === 'list') {
      (group?.children ?? pages).push(...listPages(node, summaryPath, files, seen));
    }
  }
  return pages;
}

function listPages(list: List, summaryPath: string, files: Map<string, Uint8Array>, seen: Set<string>): ImportedPage[] {
  return list.children.flatMap((item) => itemPages(item, summaryPath, files, seen));
}

/**
 * The item's page with its children; an item without a usable link (plain text, an anchor, an
 * absolute URL, a file listed twice) gives no page and its children move up a level.
 */
function itemPages(item: ListItem, summaryPath: string, files: Map<string, Uint8Array>, seen: Set<string>): ImportedPage[] {
  const link = item.children[0]?.type === 'paragraph' ? item.children[0].children.find((n) => n.type === 'link') : undefined;
  const path = link && !link.url.includes('#') ? resolveInArchive(summaryPath, link.url) : undefined;
  const page = path && hasPageExtension(path) && !seen.has(path) ? path : undefined;
  if (page) seen.add(page);
  const children = item.children.flatMap((n) => (n.type === 'list' ? listPages(n, summaryPath, files, seen) : []));
  if (!page || !link) return children;
  // The entry's text is the title; a link without text falls back to the page's own.
  const title = plainText(link).trim();
  const fallback = title || titleFromName(baseName(page));
  const bytes = files.get(page);
  const content = bytes ? readPageContent(page, bytes, fallback) : { markdown: '', title: fallback };
  return [{ source: page, title: title || content.title, markdown: content.markdown, children }];
}

function plainText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'image') return node.alt ?? '';
  return 'children' in node ? node.children.map((child) => plainText(child as Nodes)).join('') : '';
}
