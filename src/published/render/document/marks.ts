/**
 * Texts: each leaf's marks become elements around its escaped text. Marks nest in one fixed
 * order (colour outermost, code innermost) whatever order the document lists them in, and
 * neighbouring leaves share the elements of the marks they have in common:
 * `bold ` + `it` (bold, italic) gives `<strong>bold <em>it</em></strong>`.
 */
import { isRecord, leavesOf, marksOf } from '../../../lib/markdown/nodes.js';
import type { Mark } from '../../../lib/documents/types.js';
import { attrs, classes, escapeHtml } from '../html.js';

const TAGS: [type: string, tag: string][] = [
  ['bold', 'strong'],
  ['italic', 'em'],
  ['strikethrough', 's'],
  ['superscript', 'sup'],
  ['subscript', 'sub'],
  ['keyboard', 'kbd'],
  ['code', 'code'],
];

/** `DocumentTextColor` values; `$primary`… are the site's semantic colours. */
const COLORS = new Set(['green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'violet', 'cyan', '$primary', '$info', '$success', '$warning', '$danger', '$tint']);

const colorClass = (prefix: string, value: unknown) => (typeof value === 'string' && COLORS.has(value) ? `${prefix}-${value.replace('$', '')}` : undefined);

/** An element a mark opens: `open`/`close` tags, equal `open` meaning the same formatting. */
type Wrapper = { open: string; close: string };

function wrappers(marks: Mark[]): Wrapper[] {
  const out: Wrapper[] = [];
  const color = marks.find((m) => m.type === 'color');
  if (color && isRecord(color.data)) {
    const cls = classes(colorClass('color-text', color.data.text), colorClass('color-bg', color.data.background));
    if (cls) out.push({ open: `<span${attrs({ class: cls })}>`, close: '</span>' });
  }
  const types = new Set(marks.map((m) => m.type));
  for (const [type, tag] of TAGS) if (types.has(type)) out.push({ open: `<${tag}>`, close: `</${tag}>` });
  return out;
}

/** Escaped text; a newline (a hard break) becomes `<br>` outside preformatted text. */
export const textHtml = (text: string, preformatted = false): string => (preformatted ? escapeHtml(text) : escapeHtml(text).replace(/\n/g, '<br>'));

/** A text node: its leaves in order, marks opened and closed as they change. */
export function textNodeHtml(node: unknown, preformatted = false): string {
  let html = '';
  let open: Wrapper[] = [];
  for (const leaf of leavesOf(node)) {
    if (leaf.text === '') continue;
    const wanted = wrappers(marksOf(leaf));
    let keep = 0;
    while (keep < open.length && keep < wanted.length && open[keep].open === wanted[keep].open) keep++;
    for (let i = open.length - 1; i >= keep; i--) html += open[i].close;
    for (let i = keep; i < wanted.length; i++) html += wanted[i].open;
    open = wanted;
    html += textHtml(leaf.text, preformatted);
  }
  for (let i = open.length - 1; i >= 0; i--) html += open[i].close;
  return html;
}
