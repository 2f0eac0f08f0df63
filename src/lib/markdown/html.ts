/**
 * Just enough HTML for the dialect's HTML parts (`<figure>`, `<details>`, `<mark>`, `<sup>`…):
 * one tag at a time, its attributes, and entity decoding/encoding. Not a general HTML parser.
 */

export type HtmlTag = { name: string; closing: boolean; selfClosing: boolean; attrs: Record<string, string> };

const TAG = /^<(\/)?([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/)?>$/;
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** One complete tag (`<mark style="…">`, `</sup>`, `<br/>`), or null when the text is not exactly one tag. */
export function parseHtmlTag(text: string): HtmlTag | null {
  const match = TAG.exec(text.trim());
  if (!match) return null;
  const attrs: Record<string, string> = {};
  for (const a of match[3].matchAll(ATTR)) attrs[a[1].toLowerCase()] = decodeEntities(a[2] ?? a[3] ?? a[4] ?? '');
  return { name: match[2].toLowerCase(), closing: !!match[1], selfClosing: !!match[4], attrs };
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] !== '#') return NAMED[body] ?? whole;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

export const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const escapeAttribute = (text: string): string => escapeHtml(text).replace(/"/g, '&quot;');

/** `color:red;background-color:$info` → the two declarations the dialect uses. */
export function parseStyle(style: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of style.split(';')) {
    const i = part.indexOf(':');
    if (i > 0) out[part.slice(0, i).trim().toLowerCase()] = part.slice(i + 1).trim();
  }
  return out;
}

/** Tokens of an HTML fragment: tags (and comments) as they are, text between them. */
export function tokenizeHtml(html: string): { tag?: string; text?: string }[] {
  const tokens: { tag?: string; text?: string }[] = [];
  const re = /<!--[\s\S]*?-->|<\/?[a-zA-Z][a-zA-Z0-9-]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/g;
  let last = 0;
  for (const m of html.matchAll(re)) {
    if (m.index > last) tokens.push({ text: html.slice(last, m.index) });
    tokens.push({ tag: m[0] });
    last = m.index + m[0].length;
  }
  if (last < html.length) tokens.push({ text: html.slice(last) });
  return tokens;
}
