/**
 * The text of a page the HTML parser could not take (nesting so deep that the parser's tree
 * conversion overflows the stack): tags dropped, script and style bodies skipped, entities
 * decoded. A linear scan, so hostile input costs no more than its length.
 */
import { fromHtml } from 'hast-util-from-html';
import { textOf } from './hast-walk.js';

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript', 'template']);

/** Entities decoded by the HTML parser itself: text without `<` parses to flat text nodes. */
const decode = (text: string) => textOf(fromHtml(text.replace(/</g, '&lt;'), { fragment: true }));

/** Where `</name` (any case) starts, or -1. */
function closingTag(html: string, name: string, from: number): number {
  for (let at = html.indexOf('</', from); at >= 0; at = html.indexOf('</', at + 2)) {
    if (html.slice(at + 2, at + 2 + name.length).toLowerCase() === name) return at;
  }
  return -1;
}

export function textOfHtml(html: string): { title?: string; text: string } {
  const out: string[] = [];
  let title: string | undefined;
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open < 0) {
      out.push(html.slice(at));
      break;
    }
    out.push(html.slice(at, open));
    const close = html.indexOf('>', open);
    if (close < 0) break;
    const name = /^<([a-zA-Z][\w-]*)/.exec(html.slice(open, Math.min(close + 1, open + 40)))?.[1]?.toLowerCase();
    at = close + 1;
    if (name && RAW_TEXT.has(name)) {
      const end = closingTag(html, name, at);
      if (name === 'title' && title === undefined) title = html.slice(at, end < 0 ? html.length : end);
      at = end < 0 ? html.length : end;
    }
    // Block-level tags separate paragraphs.
    if (name && /^(?:p|div|h[1-6]|li|tr|br|section|article|pre|blockquote|table|ul|ol)$/.test(name)) out.push('\n\n');
  }
  const cleanTitle = title === undefined ? undefined : decode(title).replace(/\s+/g, ' ').trim().slice(0, 500) || undefined;
  return { title: cleanTitle, text: decode(out.join('')) };
}
