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

/**
 * Reads SUMMARY.md a top-level block at a time (a heading, or a top-level item with its nested
 * list), yielding to the event loop between blocks: markdown parsing costs ~0.2 ms an entry, and a
 * repository's SUMMARY.md may list tens of thousands.
 */
export async function readSummary(input: SummaryInput): Promise<SummaryTree> {
  const tree: SummaryTree = { pages: [], listed: new Set(), problems: [] };
  let group: GitPageNode | undefined;
  let lastYield = Date.now();
  for (const block of topLevelBlocks(input.text)) {
    if (Date.now() - lastYield > 20) {
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = Date.now();
    }
    const root = parser.parse(block.text) as Root;
    const at: Located = { ...input, lineOffset: block.line - 1 };
    for (const node of root.children) {
      // `# Table of contents` titles the file itself.
      if (node.type === 'heading' && node.depth > 1) {
        const title = plainText(node).trim();
        const slug = groupAnchor(node) ?? (slugOf(title) || 'group');
        group = { path: null, oid: null, type: 'group', ...(title ? { title } : {}), fallbackTitle: title || 'Group', slug, children: [] };
        tree.pages.push(group);
      } else if (node.type === 'list') {
        (group?.children ?? tree.pages).push(...listPages(node, at, tree, group === undefined));
      }
    }
  }
  return tree;
}

type Located = SummaryInput & { lineOffset: number };

/**
 * The text cut before every unindented heading or list marker (outside fenced code and HTML
 * comments): each block parses alone to what it is within the whole. `line`: its first line's number.
 */
function* topLevelBlocks(text: string): Generator<{ text: string; line: number }> {
  const lines = text.split('\n');
  let start = 0;
  let fence: string | undefined;
  let comment = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const startsBlock = !fence && !comment && i > start && /^(#{1,6}(\s|$)|[*+-]\s|\d{1,9}[.)]\s)/.test(line);
    if (startsBlock) {
      yield { text: lines.slice(start, i).join('\n'), line: start + 1 };
      start = i;
    }
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) fence = fence ? undefined : marker;
    if (!fence) {
      const open = line.lastIndexOf('<!--');
      const close = line.lastIndexOf('-->');
      if (open >= 0 && open > close - 2) comment = true;
      else if (close >= 0) comment = false;
    }
  }
  if (start < lines.length) yield { text: lines.slice(start).join('\n'), line: start + 1 };
}

function listPages(list: List, input: Located, tree: SummaryTree, topLevel: boolean): GitPageNode[] {
  return list.children.flatMap((item) => itemPages(item, input, tree, topLevel));
}

function itemPages(item: ListItem, input: Located, tree: SummaryTree, topLevel: boolean): GitPageNode[] {
  const paragraph = item.children[0]?.type === 'paragraph' ? item.children[0] : undefined;
  const link = paragraph?.children.find((n) => n.type === 'link');
  const start = (link ?? item).position?.start.line;
  const line = start === undefined ? undefined : start + input.lineOffset;
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
