/**
 * One page of a Confluence space export → what the import needs of it. Confluence writes each
 * page as `Title_<pageId>.html` (or `<pageId>.html`): breadcrumbs (`ol#breadcrumbs`, the space
 * first, the parent last), the title (`<title>Space : Page</title>`), the body
 * (`#main-content.wiki-content`) and an "Attachments:" section (`h2#attachments`, then a link per
 * attachment: `attachments/<pageId>/<attachmentId>.<ext>`, its text the file's real name).
 *
 * The body goes through the common HTML conversion (html/*.ts: bounds, tables, code languages,
 * mdast cleanup) after Confluence's macros are rewritten (macros.ts). Every link and image
 * address becomes a placeholder (`<prefix><n>`, `targets[n]` the address as written), for the
 * caller to resolve against the whole export (links.ts): the names of exported files and pages,
 * and page IDs, are only known there. Runs in the conversion pool (threads/tasks.ts).
 */
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { select, selectAll } from 'hast-util-select';
import { toMdast } from 'hast-util-to-mdast';
import type { Root as MdastRoot } from 'mdast';
import { stringifyMdast, type MdNode } from '../../../markdown/remark.js';
import { decodeHtml } from '../../html/charset.js';
import { removeNonContent } from '../../html/content.js';
import { TO_MDAST_OPTIONS, markCodeLanguages } from '../../html/handlers.js';
import { bound, eachElement, textOf } from '../../html/hast-walk.js';
import { SCRIPT_SCHEMES } from '../../html/links.js';
import { cleanMdast } from '../../html/mdast-cleanup.js';
import { boundTables } from '../../html/tables.js';
import { MAX_HTML_CHARS } from '../../html/to-markdown.js';
import { BLOCK_TAG, quireBlock, rewriteMacros } from './macros.js';

export type ConfluencePageRead = {
  /** The page's title without the space's name before it. */
  title?: string;
  /** The body (no title heading), its link targets as placeholders. */
  markdown: string;
  /** Addresses as written, by placeholder number. */
  targets: string[];
  /** The breadcrumbs' addresses, the space's home first, the parent last (`index.html` left out). */
  ancestors: string[];
  /** The "Attachments:" section: each attachment's address and real name. */
  attachments: { href: string; name: string }[];
  /** Headings' Confluence anchors (`Runbook-Paging`) and texts, for links to them. */
  headings: [id: string, text: string][];
};

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `Space : Page` → `Page` (the space's name as the breadcrumbs give it, else up to the first ` : `). */
function pageTitle(tree: Root, space: string | undefined): string | undefined {
  const heading = select('#title-text', tree) ?? select('title', tree);
  const written = heading ? clean(textOf(heading)) : '';
  if (!written) return undefined;
  if (space && written.startsWith(`${space} : `)) return written.slice(space.length + 3).trim() || undefined;
  const colon = written.indexOf(' : ');
  return colon >= 0 ? written.slice(colon + 3).trim() || undefined : written;
}

function attachmentsOf(tree: Root): ConfluencePageRead['attachments'] {
  const heading = select('h2#attachments', tree);
  if (!heading) return [];
  let section: Element | undefined;
  eachElement(tree, (element, ancestors) => {
    if (element === heading) section = [...ancestors].reverse().find((a) => Array.isArray(a.properties.className) && a.properties.className.includes('pageSection'));
  });
  const links = section ? selectAll('a[href]', section) : [];
  return links.map((a) => ({ href: String(a.properties.href), name: clean(textOf(a)) })).filter((a) => a.href.startsWith('attachments/'));
}

/** Links and images → placeholders; script links are left for the cleanup to unwrap. */
function placeholders(content: Element | Root, prefix: string): string[] {
  const targets: string[] = [];
  const mark = (element: Element, property: 'href' | 'src') => {
    const value = element.properties[property];
    if (typeof value !== 'string' || !value.trim() || value.trim().startsWith('#') || SCRIPT_SCHEMES.test(value)) return;
    element.properties[property] = `${prefix}${targets.length}`;
    targets.push(value.trim());
  };
  eachElement(content, (element) => {
    if (element.tagName === 'a') mark(element, 'href');
    else if (element.tagName === 'img') {
      // An image whose address is not the export's own (a cloud URL) still names its attachment.
      const { dataLinkedResourceId: id, dataLinkedResourceContainerId: page } = element.properties;
      const src = String(element.properties.src ?? '');
      if (id && page && !src.startsWith('attachments/')) element.properties.src = `attachments/${String(page)}/${String(id)}`;
      mark(element, 'src');
    }
  });
  return targets;
}

/** Marked dialect lines (macros.ts) → raw markdown, once the cleanup (which drops HTML) is done. */
function dialectToHtml(node: MdNode): void {
  if (node.type === 'dialect') node.type = 'html';
  node.children?.forEach(dialectToHtml);
}

export function readConfluencePage(input: { bytes: Uint8Array; prefix: string }): ConfluencePageRead {
  const html = decodeHtml(input.bytes).slice(0, MAX_HTML_CHARS);
  let tree: Root;
  try {
    tree = fromHtml(html);
    bound(tree);
  } catch {
    // Nesting the parser cannot take: the page keeps its place in the tree, without its body.
    return { markdown: '', targets: [], ancestors: [], attachments: [], headings: [] };
  }
  const crumbs = selectAll('#breadcrumbs a[href]', tree).map((a) => ({ href: String(a.properties.href), text: clean(textOf(a)) }));
  const space = crumbs.find((c) => /^index\.html?$/i.test(c.href))?.text;
  const title = pageTitle(tree, space);
  const attachments = attachmentsOf(tree);
  const content: Element | Root = select('#main-content', tree) ?? select('body', tree) ?? tree;
  const headings = selectAll('h1[id], h2[id], h3[id], h4[id], h5[id], h6[id]', content).map((h) => [String(h.properties.id), clean(textOf(h))] as [string, string]);
  rewriteMacros(content);
  removeNonContent(tree);
  boundTables(content);
  markCodeLanguages(content);
  const targets = placeholders(content, input.prefix);
  const root: Root = content.type === 'root' ? content : { type: 'root', children: content.children };
  const mdast = toMdast(root, { ...TO_MDAST_OPTIONS, handlers: { ...TO_MDAST_OPTIONS.handlers, [BLOCK_TAG]: quireBlock } }) as MdastRoot;
  cleanMdast(mdast);
  dialectToHtml(mdast as unknown as MdNode);
  return {
    ...(title ? { title } : {}),
    markdown: stringifyMdast(mdast.children as unknown as MdNode[]),
    targets,
    ancestors: crumbs.map((c) => c.href).filter((href) => !/^index\.html?$/i.test(href)),
    attachments,
    headings,
  };
}
