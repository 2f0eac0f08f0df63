/**
 * The `{% name attr="value" %}` tags of the dialect: which names are known, how one tag reads and
 * is written, and how a source line splits around tags. Attribute values escape `"` as `&quot;`.
 */

/** Tags with a body and a closing `{% endname %}`. */
export const PAIRED_TAGS = new Set(['hint', 'tabs', 'tab', 'code', 'file', 'content-ref', 'stepper', 'step', 'columns', 'column']);
/** Tags without a body. `embed` may be followed by a caption and `{% endembed %}`: that closing tag is dropped. */
export const VOID_TAGS = new Set(['embed', 'include']);
/** Paired tags whose body is only a caption or a link: without a closing tag they are void. */
export const OPTIONAL_BODY_TAGS = new Set(['file', 'content-ref']);
/** Tags whose next sibling closes them implicitly (a missing `{% endtab %}`). */
export const ITEM_TAGS = new Set(['tab', 'step', 'column']);

export type Tag = { name: string; closing: boolean; attrs: Record<string, string>; args: string[]; source: string };

// `\{%` is an escaped brace, not a tag (the writer escapes `{%` in text that way).
const TAG = /(?<!\\)\{%-?\s*([A-Za-z][\w-]*)((?:"[^"\n]*"|'[^'\n]*'|[^%"'\n]|%(?!\}))*?)\s*-?%\}/g;
const ATTR = /([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))|"([^"]*)"|'([^']*)'/g;

const decode = (value: string) => value.replace(/&quot;/g, '"');

function readTag(match: RegExpMatchArray): Tag | null {
  const raw = match[1];
  const closing = raw.startsWith('end') && (PAIRED_TAGS.has(raw.slice(3)) || raw === 'endembed');
  const name = closing ? raw.slice(3) : raw;
  if (!closing && !PAIRED_TAGS.has(name) && !VOID_TAGS.has(name)) return null;
  const attrs: Record<string, string> = {};
  const args: string[] = [];
  for (const a of match[2].matchAll(ATTR)) {
    if (a[1] !== undefined) attrs[a[1]] = decode(a[2] ?? a[3] ?? a[4] ?? '');
    else args.push(decode(a[5] ?? a[6] ?? ''));
  }
  return { name, closing, attrs, args, source: match[0] };
}

export type LinePiece = { tag: Tag } | { text: string };

/**
 * A line split around its known tags, or null when the line is ordinary text. A line counts as
 * tagged when it starts with a known tag or ends with a known closing tag, so both
 * `{% file src="a" %}caption{% endfile %}` and `caption{% endfile %}` split.
 */
export function splitTagLine(line: string): LinePiece[] | null {
  if (!line.includes('{%')) return null;
  const matches: { m: RegExpMatchArray; tag: Tag }[] = [];
  for (const m of line.matchAll(TAG)) {
    const tag = readTag(m);
    if (tag) matches.push({ m, tag });
  }
  if (!matches.length) return null;
  const first = matches[0];
  const last = matches[matches.length - 1];
  const startsWithTag = line.slice(0, first.m.index).trim() === '';
  const endsWithClosing = last.tag.closing && line.slice(last.m.index! + last.m[0].length).trim() === '';
  if (!startsWithTag && !endsWithClosing) return null;
  const pieces: LinePiece[] = [];
  let at = 0;
  for (const { m, tag } of matches) {
    const text = line.slice(at, m.index).trim();
    if (text) pieces.push({ text });
    pieces.push({ tag });
    at = m.index! + m[0].length;
  }
  const rest = line.slice(at).trim();
  if (rest) pieces.push({ text: rest });
  return pieces;
}

const attributeValue = (value: unknown) => String(value).replace(/"/g, '&quot;');

/** `{% name a="1" b="x" %}`; undefined/null attributes are left out. */
export function writeTag(name: string, attrs: [string, unknown][] = [], args: string[] = []): string {
  const parts = [name, ...args.map((a) => `"${attributeValue(a)}"`)];
  for (const [key, value] of attrs) if (value !== undefined && value !== null && value !== '') parts.push(`${key}="${attributeValue(value)}"`);
  return `{% ${parts.join(' ')} %}`;
}
