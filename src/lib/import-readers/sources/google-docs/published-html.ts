/**
 * A Google Docs page published to the web (or its HTML export) → a page. Google's markup needs
 * help before the common HTML conversion (html/to-markdown.ts):
 *
 * - the document is `#contents`; the banner and footer around it are Google's;
 * - bold, italics, strike-through and monospace are classes (`.c3{font-weight:700}`) of the
 *   document's stylesheet: they become `<strong>`, `<em>`, `<del>` and `<code>`;
 * - links go through a redirect (`https://www.google.com/url?q=<target>&sa=D…`): the target is kept;
 * - the Title paragraph (`p.title`) is the page's title;
 * - nested lists are flat sibling lists whose class names their level (`lst-kix_…-1`): they are
 *   nested again.
 *
 * Runs in the conversion pool (threads/tasks.ts `googleDocsHtml`), on a document already bounded
 * like any imported page (hast-walk.ts).
 */
import type { Element, ElementContent, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { select, selectAll } from 'hast-util-select';
import { toHtml } from 'hast-util-to-html';
import { decodeHtml } from '../../html/charset.js';
import { bound, eachElement, textOf } from '../../html/hast-walk.js';
import { htmlToMarkdown, MAX_HTML_CHARS, type HtmlMarkdown } from '../../html/to-markdown.js';

type Styles = { strong: Set<string>; em: Set<string>; del: Set<string>; code: Set<string> };

const MONOSPACE = /font-family\s*:[^;}]*(courier|consolas|mono|menlo)/i;

/** Class rules of the document's stylesheet (`.c3{font-weight:700}`) by the style they give. */
function classStyles(tree: Root): Styles {
  const styles: Styles = { strong: new Set(), em: new Set(), del: new Set(), code: new Set() };
  for (const style of selectAll('style', tree)) {
    const css = textOf(style).slice(0, 500_000);
    for (const [, selectors, body] of css.matchAll(/([^{}]{1,500})\{([^{}]{0,2000})\}/g)) {
      const names = [...selectors.matchAll(/^\s*\.([\w-]+)\s*$/gm)].map((m) => m[1]);
      if (!names.length) continue;
      const add = (set: Set<string>) => names.forEach((name) => set.add(name));
      if (/font-weight\s*:\s*(700|800|900|bold)/i.test(body)) add(styles.strong);
      if (/font-style\s*:\s*italic/i.test(body)) add(styles.em);
      if (/text-decoration\s*:[^;}]*line-through/i.test(body)) add(styles.del);
      if (MONOSPACE.test(body)) add(styles.code);
    }
  }
  return styles;
}

const classesOf = (element: Element) => (Array.isArray(element.properties.className) ? element.properties.className.map(String) : []);

function applyStyles(content: Element | Root, styles: Styles): void {
  eachElement(content, (element) => {
    if (element.tagName !== 'span') return;
    const classes = classesOf(element);
    let children: ElementContent[] = element.children;
    for (const tag of ['code', 'del', 'em', 'strong'] as const) {
      if (classes.some((name) => styles[tag].has(name))) children = [{ type: 'element', tagName: tag, properties: {}, children }];
    }
    element.children = children;
  });
}

/** `https://www.google.com/url?q=<target>&…` → `<target>`. */
export function unwrapRedirect(href: string): string {
  try {
    const url = new URL(href);
    if (/^(www\.)?google\.[a-z.]+$/.test(url.hostname) && url.pathname === '/url') return url.searchParams.get('q') ?? href;
  } catch {
    // Not absolute: as written.
  }
  return href;
}

/** Flat `ul.lst-kix_x-1` after `ul.lst-kix_x-0` → nested in its last item; a list that goes on after it → the same list. */
function nestLists(content: Element | Root): void {
  const levelOf = (node: ElementContent) =>
    node.type === 'element' && (node.tagName === 'ul' || node.tagName === 'ol') ? Number(/^lst-kix_[\w]+-(\d+)$/.exec(classesOf(node).find((c) => c.startsWith('lst-kix_')) ?? '')?.[1] ?? NaN) : NaN;
  const parents: (Element | Root)[] = [content];
  eachElement(content, (element) => parents.push(element));
  for (const parent of parents) {
    const kept: typeof parent.children = [];
    // The open list of each level, in the run of consecutive lists.
    let open: Element[] = [];
    for (const child of parent.children) {
      const level = levelOf(child as ElementContent);
      if (Number.isNaN(level)) {
        open = [];
        kept.push(child as never);
        continue;
      }
      const list = child as Element;
      open.length = Math.min(open.length, level + 1);
      const same = open[level];
      if (same && same.tagName === list.tagName) {
        // The list goes on after a nested one: one list, as in the document.
        same.children.push(...list.children);
        continue;
      }
      open.length = Math.min(open.length, level);
      const host = open.at(-1);
      const item = host?.children.filter((c): c is Element => c.type === 'element' && c.tagName === 'li').at(-1);
      if (item && open.length === level) item.children.push(list);
      else kept.push(list as never);
      open.push(list);
    }
    parent.children = kept as never;
  }
}

export function googleDocsHtml(input: { bytes: Uint8Array; charset?: string }): HtmlMarkdown {
  const html = decodeHtml(input.bytes, input.charset).slice(0, MAX_HTML_CHARS);
  let tree: Root;
  try {
    tree = fromHtml(html);
    bound(tree);
  } catch {
    return htmlToMarkdown(html);
  }
  const styles = classStyles(tree);
  const content: Element | Root = select('#contents', tree) ?? select('body', tree) ?? tree;
  const titleElement = select('p.title', content) ?? select('#title', tree) ?? select('title', tree);
  const title = titleElement ? textOf(titleElement).replace(/\s+/g, ' ').trim() : '';
  if (titleElement && titleElement.tagName === 'p') titleElement.children = [];
  for (const style of selectAll('style', content)) style.children = [];
  applyStyles(content, styles);
  for (const link of selectAll('a[href]', content)) link.properties.href = unwrapRedirect(String(link.properties.href));
  nestLists(content);
  const body = toHtml(content.type === 'root' ? content : { type: 'root', children: [content] });
  return htmlToMarkdown(`<html><head><title></title></head><body><main>${title ? `<h1>${escapeHtml(title)}</h1>` : ''}${body}</main></body></html>`);
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
