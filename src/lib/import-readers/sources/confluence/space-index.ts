/**
 * A Confluence space export's `index.html` → its page tree. Confluence lists the pages under
 * "Available Pages:" as nested lists: each `<li>` holds a link to the page (`Title_<id>.html`,
 * its text the title) and, for its children, one or more `<ul>`s of `<li>`s. The first list of
 * links to pages is taken (the space's details table comes before it). Runs in the conversion
 * pool; the walk is iterative, and nesting the parser cannot take leaves no tree (the pages are
 * then placed by their breadcrumbs).
 */
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { textOf } from '../../html/hast-walk.js';
import { decodeHtml } from '../../html/charset.js';
import { MAX_HTML_CHARS } from '../../html/to-markdown.js';

export type IndexEntry = { href: string; title: string; children: IndexEntry[] };

const elements = (parent: Element | Root): Element[] => (parent.children as { type: string }[]).filter((c): c is Element => c.type === 'element');
const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The list's `<li>`s → entries, depth first without recursion. */
function entriesOf(list: Element): IndexEntry[] {
  const top: IndexEntry[] = [];
  const stack: { list: Element; into: IndexEntry[] }[] = [{ list, into: top }];
  while (stack.length) {
    const { list: current, into } = stack.pop()!;
    for (const item of elements(current)) {
      if (item.tagName !== 'li') continue;
      const link = elements(item).find((e) => e.tagName === 'a' && typeof e.properties.href === 'string');
      const entry: IndexEntry = { href: link ? String(link.properties.href) : '', title: link ? clean(textOf(link)) : '', children: [] };
      into.push(entry);
      // Lists are pushed in reverse so that they pop in document order, each appending to its entry.
      const lists = elements(item).filter((e) => e.tagName === 'ul' || e.tagName === 'ol');
      for (let i = lists.length - 1; i >= 0; i--) stack.push({ list: lists[i], into: entry.children });
    }
  }
  return top;
}

/** The first `ul` (not inside another) whose items link to `.html` pages. */
function pageList(tree: Root): Element | undefined {
  const queue: (Element | Root)[] = [tree];
  for (let i = 0; i < queue.length; i++) {
    for (const child of elements(queue[i])) {
      if (child.tagName === 'ul' && elements(child).some((li) => li.tagName === 'li' && elements(li).some((a) => a.tagName === 'a' && /\.html?(#|$)/i.test(String(a.properties.href ?? ''))))) return child;
      if (child.tagName !== 'ul') queue.push(child);
    }
  }
  return undefined;
}

export function readSpaceIndex(input: { bytes: Uint8Array }): IndexEntry[] {
  try {
    const tree = fromHtml(decodeHtml(input.bytes).slice(0, MAX_HTML_CHARS));
    const list = pageList(tree);
    return list ? entriesOf(list) : [];
  } catch {
    return [];
  }
}
