/**
 * SUMMARY.md → the page tree, with the file and line of every problem: `## Group` headings
 * (optionally `<a href="#slug" id="slug"></a>`), nested list items `* [Title](page.md "Nav label")`,
 * external URLs as link pages, and items without a link grouping their children. A missing file or
 * a file listed twice is an error; the tree is still answered.
 */
import type { Heading, List, ListItem, Nodes, Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { slugOf } from '../documents/slug.js';
import { resolveInArchive } from '../import-readers/zip/archive-path.js';
import { fileSlug, fileTitle, isMarkdownPath } from './names.js';
import type { GitPageNode, LayoutProblem } from './types.js';

const parser = unified().use(remarkParse);

export type SummaryInput = {
  /** Root-relative path of SUMMARY.md (links in it are relative to it). */
  summaryPath: string;
  text: string;
  /** Root-relative path → blob id of every file of the root. */
  files: ReadonlyMap<string, string>;
  /** How problems name SUMMARY.md (project-relative). */
  problemPath: string;
  /** Which linked files can be pages (default: markdown files). */
  isPage?: (path: string) => boolean;
  /** Whether a top-level item without a link makes a group of its children (default) or they move up. */
  plainItemGroups?: boolean;
};

export type SummaryTree = { pages: GitPageNode[]; listed: Set<string>; problems: LayoutProblem[] };

export function readSummary(input: SummaryInput): SummaryTree {
  const tree: SummaryTree = { pages: [], listed: new Set(), problems: [] };
  const root = parser.parse(input.text) as Root;
  let group: GitPageNode | undefined;
  for (const node of root.children) {
    // `# Table of contents` titles the file itself.
    if (node.type === 'heading' && node.depth > 1) {
      const title = plainText(node).trim();
      group = { path: null, oid: null, type: 'group', title, fallbackTitle: title, slug: groupAnchor(node) ?? (slugOf(title) || 'group'), children: [] };
      tree.pages.push(group);
    } else if (node.type === 'list') {
      (group?.children ?? tree.pages).push(...listPages(node, input, tree, group === undefined));
    }
  }
  return tree;
}

function listPages(list: List, input: SummaryInput, tree: SummaryTree, topLevel: boolean): GitPageNode[] {
  return list.children.flatMap((item) => itemPages(item, input, tree, topLevel));
}

function itemPages(item: ListItem, input: SummaryInput, tree: SummaryTree, topLevel: boolean): GitPageNode[] {
  const paragraph = item.children[0]?.type === 'paragraph' ? item.children[0] : undefined;
  const link = paragraph?.children.find((n) => n.type === 'link');
  const line = (link ?? item).position?.start.line;
  const problem = (severity: LayoutProblem['severity'], message: string) =>
    tree.problems.push({ severity, path: input.problemPath, ...(line !== undefined ? { line } : {}), message });
  const children = () => item.children.flatMap((n) => (n.type === 'list' ? listPages(n, input, tree, false) : []));

  if (!link) {
    const title = paragraph ? plainText(paragraph).trim() : '';
    const kids = children();
    // Hand-written repositories title a run of pages with a plain item: a group where groups may be.
    if (topLevel && title && input.plainItemGroups !== false) return [{ path: null, oid: null, type: 'group', title, fallbackTitle: title, slug: slugOf(title) || 'group', children: kids }];
    return kids;
  }
  const title = plainText(link).trim() || undefined;
  const navLabel = link.title?.trim() || undefined;
  const url = link.url.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) {
    const kids = children();
    if (kids.length) problem('warning', `The link page ${JSON.stringify(title ?? url)} cannot have child pages: they move up a level.`);
    const linkTitle = title ?? url;
    return [{ path: null, oid: null, type: 'link', title: linkTitle, ...(navLabel ? { navLabel } : {}), fallbackTitle: linkTitle, slug: slugOf(linkTitle) || 'link', href: url, children: [] }, ...kids];
  }
  const path = url.includes('#') ? undefined : resolveInArchive(input.summaryPath, url);
  if (path === undefined || path === '' || !(input.isPage ?? isMarkdownPath)(path)) {
    problem('warning', `${JSON.stringify(url)} is not a markdown file of the repository: the entry is not a page.`);
    return children();
  }
  if (tree.listed.has(path)) {
    problem('error', `${path} is listed twice; a file can be only one page.`);
    return children();
  }
  tree.listed.add(path);
  const oid = input.files.get(path) ?? null;
  if (oid === null) problem('error', `${path} does not exist.`);
  return [
    {
      path,
      oid,
      type: 'document',
      ...(title ? { title } : {}),
      ...(navLabel ? { navLabel } : {}),
      fallbackTitle: fileTitle(path),
      slug: fileSlug(path, title),
      children: children(),
    },
  ];
}

/** `<a href="#slug" id="slug"></a>` in a group heading keeps the group's slug. */
function groupAnchor(heading: Heading): string | undefined {
  for (const node of heading.children) {
    if (node.type !== 'html') continue;
    const id = /\bid\s*=\s*["']([^"']+)["']/i.exec(node.value)?.[1];
    if (id && slugOf(id) === id) return id;
  }
  return undefined;
}

function plainText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'image') return node.alt ?? '';
  return 'children' in node ? node.children.map((child) => plainText(child as Nodes)).join('') : '';
}
