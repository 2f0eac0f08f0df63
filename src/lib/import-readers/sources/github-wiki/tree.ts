/**
 * A wiki's files → the import's page tree. `Home` is the first page; `_Sidebar` (when present)
 * gives the tree and its order, the pages it does not list follow by title; without it the pages
 * are a flat list by title, as GitHub lists them. `_Footer` and `_Header` are no pages (they are
 * shown around every page). Titles are the page names (`Getting-Started` → `Getting Started`);
 * folders only hold files, as on GitHub, where a page's URL is its name wherever it sits.
 */
import type { ImportedFile, ImportedPage } from '../../tree.js';
import { contentTypeOf } from '../../zip/files.js';
import { startsWithHeading } from '../../zip/pages.js';
import { encodePath } from '../notion/names.js';
import { CODE_LANGUAGE, formatOf, nameKey, pageName, titleOfName, type WikiFormat } from './formats.js';
import { convertWikiLinks, outsideCode, rewriteMarkdownLinks, type WikiTargets } from './links.js';
import { readSidebar, type SidebarNode } from './sidebar.js';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const decode = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Gollum's special pages: `_Sidebar`, `_Footer`, `_Header` (any format). */
const special = (path: string) => /^_(sidebar|footer|header)$/i.test(pageName(baseName(path)));

/** Which entries of the repository the import reads: pages, the sidebar, and files of a known type. */
export function isWanted(path: string): boolean {
  if (formatOf(path)) return !special(path) || /^_sidebar$/i.test(pageName(baseName(path)));
  return contentTypeOf(path) !== 'application/octet-stream';
}

/** Converts what is not markdown (AsciiDoc, Org: markup.ts); undefined for a format kept as written. */
export type Converter = (format: WikiFormat, text: string, path: string) => Promise<string | undefined>;

export type WikiTree = { pages: ImportedPage[]; files: ImportedFile[]; warnings: string[] };

const FORMAT_NAMES: Record<WikiFormat, string> = {
  markdown: 'Markdown',
  asciidoc: 'AsciiDoc',
  rst: 'reStructuredText',
  textile: 'Textile',
  mediawiki: 'MediaWiki',
  org: 'Org mode',
  creole: 'Creole',
  rdoc: 'RDoc',
  pod: 'POD',
};

function codeBlock(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}\n`;
}

const same = (a: string, b: string) => a.replace(/[\s\-_*`]+/g, ' ').trim().toLowerCase() === b.replace(/[\s\-_*`]+/g, ' ').trim().toLowerCase();

/**
 * A wiki page is titled by its name, and a `# Heading` it starts with is part of its body (the
 * import would take it as the title): the name goes first, unless the heading says the same.
 */
function titledByName(markdown: string, title: string): string {
  if (!startsWithHeading(markdown)) return markdown;
  const heading = /^\s*#[ \t]+(.*?)[ \t#]*$/m.exec(markdown)?.[1];
  if (heading !== undefined && same(heading, title)) return markdown;
  return `# ${title.replace(/[\\`*_[\]<>#]/g, '\\$&')}\n\n${markdown}`;
}

export async function wikiTree(files: Map<string, Uint8Array>, webBases: string[], convert: Converter): Promise<WikiTree> {
  const pagePaths = [...files.keys()].filter((path) => formatOf(path) && !special(path)).sort((a, b) => a.split('/').length - b.split('/').length || collator.compare(a, b));
  const sidebarPath = [...files.keys()].filter((path) => formatOf(path) === 'markdown' && /^_sidebar$/i.test(pageName(baseName(path)))).sort((a, b) => a.length - b.length)[0];
  const targets: WikiTargets = { pagesByName: new Map(), paths: new Set(), webBases };
  for (const path of pagePaths) {
    const key = nameKey(pageName(baseName(path)));
    if (!targets.pagesByName.has(key)) targets.pagesByName.set(key, path);
    targets.paths.add(path);
  }
  const imported: ImportedFile[] = [];
  for (const [path, bytes] of files) {
    if (formatOf(path)) continue;
    targets.paths.add(path);
    imported.push({ source: encodePath(path), name: baseName(path), contentType: contentTypeOf(path), bytes });
  }

  const warnings: string[] = [];
  const pages = new Map<string, ImportedPage>();
  for (const path of pagePaths) {
    const format = formatOf(path)!;
    const text = decode(files.get(path)!);
    // Gollum's wiki links are read in every format but Org, whose own links are written `[[…]]`.
    let markdown = format === 'markdown' ? outsideCode(text, (prose) => convertWikiLinks(prose, path, targets, 'markdown')) : undefined;
    if (markdown === undefined) markdown = await convert(format, format === 'asciidoc' ? convertWikiLinks(text, path, targets, 'asciidoc') : text, path);
    if (markdown === undefined) {
      warnings.push(`${path}: ${FORMAT_NAMES[format]} has no converter here; the page keeps its text as a code block.`);
      markdown = codeBlock(text, CODE_LANGUAGE[format]);
    } else markdown = outsideCode(markdown, (prose) => rewriteMarkdownLinks(prose, path, targets));
    const title = titleOfName(pageName(baseName(path)));
    pages.set(path, { source: encodePath(path), title, markdown: titledByName(markdown, title), children: [] });
  }

  const used = new Set<string>();
  const top: ImportedPage[] = [];
  const home = targets.pagesByName.get('home');
  if (home) {
    used.add(home);
    top.push(pages.get(home)!);
  }
  let groups = 0;
  const place = (nodes: SidebarNode[]): ImportedPage[] =>
    nodes.flatMap((node): ImportedPage[] => {
      if (node.kind === 'group') return [{ source: `${encodePath(sidebarPath!)}#group-${++groups}`, type: 'group', title: node.title, markdown: '', children: place(node.children) }];
      // A page listed again (or under itself) is placed once, where it was first listed.
      if (node.path === undefined || used.has(node.path) || !pages.has(node.path)) return place(node.children);
      used.add(node.path);
      const page = pages.get(node.path)!;
      page.children = place(node.children);
      return [page];
    });
  if (sidebarPath) {
    // A group may only hold pages: a group inside a page's children is flattened into it.
    const placed = place(readSidebar(decode(files.get(sidebarPath)!), targets));
    top.push(...placed);
  }
  const rest = pagePaths.filter((path) => !used.has(path)).sort((a, b) => collator.compare(pages.get(a)!.title!, pages.get(b)!.title!) || collator.compare(a, b));
  top.push(...rest.map((path) => pages.get(path)!));
  return { pages: top, files: imported, warnings };
}
