/**
 * Inline content → mdast phrasing (for the markdown writer) or → HTML (for captions and summaries,
 * which the dialect writes as HTML). Marks live on leaves but markdown nests spans, so runs of
 * leaves sharing a mark are wrapped once, the longest run first. `code` is always innermost
 * (inline code cannot hold other markup); superscript, subscript, keyboard and colour are HTML tags.
 */
import type { Mark } from '../documents/types.js';
import { escapeAttribute, escapeHtml } from './html.js';
import { childrenOf, dataOf, isRecord, leavesOf, marksOf, stringField } from './nodes.js';
import { canonicalMarks, markId } from './normalize.js';
import { refToUrl, userMentionLink, type WriteOptions } from './refs.js';
import type { MdNode } from './remark.js';

/** Where the phrasing goes: a line break is a hard break in a paragraph, `<br>` in a table cell, a space in a heading. */
export type InlineMode = 'flow' | 'cell' | 'heading';

/**
 * A leaf's text, or an inline. A link's run carries the marks common to all its text, so that
 * `*see [this](x)*` is written around the link rather than twice, outside and inside it.
 */
type Run = { text: string; marks: Mark[] } | { node: (active: Set<string>) => MdNode; marks: Mark[] };

const SPAN: Record<string, string> = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' };
const TAGS: Record<string, string> = { superscript: 'sup', subscript: 'sub', keyboard: 'kbd' };

/** Colour values go inside a `style` attribute: keep them to safe characters. */
const colorValue = (value: unknown) => (typeof value === 'string' ? value.replace(/[^\w$#().,%-]/g, '') : '');

function colorStyle(m: Mark): string | null {
  const data = isRecord(m.data) ? m.data : {};
  const text = colorValue(data.text);
  const background = colorValue(data.background);
  const parts = [];
  if (text && text !== 'default') parts.push(`color:${text};`);
  if (background && background !== 'default') parts.push(`background-color:${background};`);
  return parts.length ? parts.join('') : null;
}

/** The HTML tag pair for a mark written as HTML, or null. */
function htmlPair(m: Mark): [string, string] | null {
  if (TAGS[m.type]) return [`<${TAGS[m.type]}>`, `</${TAGS[m.type]}>`];
  if (m.type === 'color') {
    const style = colorStyle(m);
    return style ? [`<mark style="${style}">`, '</mark>'] : null;
  }
  return null;
}

const isWrapper = (m: Mark) => !!SPAN[m.type] || !!htmlPair(m);

/** `1f600` or `1f1eb-1f1f7` → the emoji itself. */
export function emojiText(code: unknown): string {
  if (typeof code !== 'string') return '';
  const points = code.split('-').map((p) => parseInt(p, 16));
  return points.every((p) => Number.isInteger(p) && p > 0 && p <= 0x10ffff) ? String.fromCodePoint(...points) : code;
}

/** A mention as a link: a user's as `[@id](mention:id)` (read back as a mention), any other as a link to its target. */
function mentionLink(ref: unknown, options: WriteOptions): { url: string; text: string } {
  const user = userMentionLink(ref);
  if (user) return user;
  const url = refToUrl(ref, options);
  return { url, text: url };
}

/** The wrapper marks every non-empty leaf under a node has (none if it has no text). */
function commonMarks(node: unknown): Mark[] {
  const leaves: Mark[][] = [];
  const stack = [node];
  while (stack.length && leaves.length < 1000) {
    const n = stack.pop();
    if (!isRecord(n)) continue;
    if (n.object === 'text') for (const l of leavesOf(n)) if (l.text) leaves.push(marksOf(l));
    for (const child of childrenOf(n)) stack.push(child);
  }
  if (!leaves.length) return [];
  return canonicalMarks(leaves[0]).filter((m) => isWrapper(m) && leaves.every((marks) => marks.some((x) => markId(x) === markId(m))));
}

const fixed = (node: MdNode) => ({ node: () => node, marks: [] });

function collect(nodes: unknown[], runs: Run[], options: WriteOptions, mode: InlineMode, depth: number): void {
  if (depth > 100) return;
  for (const node of nodes) {
    if (!isRecord(node)) continue;
    if (node.object === 'text') {
      for (const l of leavesOf(node)) if (l.text) runs.push({ text: l.text, marks: canonicalMarks(marksOf(l)) });
      continue;
    }
    if (node.object !== 'inline') continue;
    const data = dataOf(node);
    switch (node.type) {
      case 'link': {
        const url = refToUrl(data.ref, options);
        const children = childrenOf(node);
        runs.push({
          node: (active) => ({ type: 'link', url, title: null, children: inlinesToPhrasing(children, options, mode, depth + 1, active) }),
          marks: commonMarks(node),
        });
        break;
      }
      case 'mention': {
        const { url, text } = mentionLink(data.ref, options);
        runs.push(fixed({ type: 'link', url, title: null, children: [{ type: 'text', value: text }] }));
        break;
      }
      case 'inline-image': {
        const url = refToUrl(data.ref, options);
        const alt = stringField(data, 'alt') ?? '';
        const size = stringField(data, 'size');
        // `![alt](src)` has no room for the size: `<img … data-size="line">` has.
        runs.push(
          fixed(
            size
              ? { type: 'html', value: `<img src="${escapeAttribute(url)}" alt="${escapeAttribute(alt)}" data-size="${escapeAttribute(size)}">` }
              : { type: 'image', url, alt, title: null },
          ),
        );
        break;
      }
      case 'inline-math':
        runs.push(fixed({ type: 'inlineMath', value: stringField(data, 'formula') ?? '' }));
        break;
      case 'emoji':
        runs.push({ text: emojiText(data.code), marks: [] });
        break;
      default:
        // Unknown inlines: their text, if any.
        collect(childrenOf(node), runs, options, mode, depth + 1);
    }
  }
}

function lineBreak(mode: InlineMode): MdNode {
  if (mode === 'cell') return { type: 'html', value: '<br>' };
  if (mode === 'heading') return { type: 'text', value: ' ' };
  return { type: 'break' };
}

function leafNodes(run: { text: string; marks: Mark[] }, mode: InlineMode): MdNode[] {
  const code = run.marks.some((m) => m.type === 'code');
  const out: MdNode[] = [];
  run.text.split('\n').forEach((part, i) => {
    if (i > 0) out.push(lineBreak(mode));
    if (part) out.push(code ? { type: 'inlineCode', value: part } : { type: 'text', value: part });
  });
  return out;
}

/**
 * Bold or italic spaces look like plain ones, but `** a **` is not bold in markdown: spaces (and
 * line breaks) at the edges of strong and emphasis are written outside them (`&#x20;` otherwise).
 */
function edgeSpaces(inner: MdNode[]): [MdNode[], MdNode[], MdNode[]] {
  const before: MdNode[] = [];
  const after: MdNode[] = [];
  while (inner[0]?.type === 'break') before.push(inner.shift()!);
  while (inner[inner.length - 1]?.type === 'break') after.unshift(inner.pop()!);
  const first = inner[0];
  if (first?.type === 'text') {
    const lead = /^\s*/.exec(first.value ?? '')![0];
    if (lead) {
      before.push({ type: 'text', value: lead });
      inner = [{ ...first, value: first.value!.slice(lead.length) }, ...inner.slice(1)];
    }
  }
  const last = inner[inner.length - 1];
  if (last?.type === 'text') {
    const trail = /\s*$/.exec(last.value ?? '')![0];
    if (trail) {
      after.unshift({ type: 'text', value: trail });
      inner = [...inner.slice(0, -1), { ...last, value: last.value!.slice(0, last.value!.length - trail.length) }];
    }
  }
  return [before, inner.filter((n) => n.type !== 'text' || n.value !== ''), after];
}

function wrap(m: Mark, inner: MdNode[]): MdNode[] {
  if (m.type === 'bold' || m.type === 'italic') {
    const [before, content, after] = edgeSpaces(inner);
    return content.length ? [...before, { type: SPAN[m.type], children: content }, ...after] : [...before, ...after];
  }
  if (SPAN[m.type]) return [{ type: SPAN[m.type], children: inner }];
  const pair = htmlPair(m)!;
  return [{ type: 'html', value: pair[0] }, ...inner, { type: 'html', value: pair[1] }];
}

function build(runs: Run[], from: number, to: number, active: Set<string>, mode: InlineMode): MdNode[] {
  const out: MdNode[] = [];
  let i = from;
  while (i < to) {
    const run = runs[i];
    const pending = run.marks.filter((m) => isWrapper(m) && !active.has(markId(m)));
    if (!pending.length) {
      if ('node' in run) out.push(run.node(active));
      else out.push(...leafNodes(run, mode));
      i++;
      continue;
    }
    const extent = (m: Mark) => {
      let j = i;
      while (j < to && runs[j].marks.some((x) => markId(x) === markId(m))) j++;
      return j;
    };
    let best = pending[0];
    let end = extent(best);
    for (const m of pending.slice(1)) {
      const e = extent(m);
      if (e > end) [best, end] = [m, e];
    }
    out.push(...wrap(best, build(runs, i, end, new Set([...active, markId(best)]), mode)));
    i = end;
  }
  return out;
}

/** `active`: marks already applied around this content (a link's, see `Run`). */
export function inlinesToPhrasing(nodes: unknown[], options: WriteOptions, mode: InlineMode, depth = 0, active = new Set<string>()): MdNode[] {
  const runs: Run[] = [];
  collect(nodes, runs, options, mode, depth);
  if (mode === 'flow' && depth === 0) trimBreaks(runs);
  const phrasing = build(runs, 0, runs.length, active, mode);
  if (depth === 0) flagIntraword(phrasing, '', '');
  return phrasing;
}

const WORD = /[\p{L}\p{N}]/u;
const edge = (node: MdNode | undefined, last: boolean): string => (node?.type === 'text' ? (last ? (node.value ?? '').slice(-1) : (node.value ?? '').charAt(0)) : '');

/**
 * Marks emphasis that touches a letter or digit, directly or through the strong around it
 * (`foo**_bar_**baz`): `_` cannot delimit there, so the writer uses `*` (see remark.ts).
 */
function flagIntraword(nodes: MdNode[], before: string, after: string): void {
  nodes.forEach((node, i) => {
    const previous = i > 0 ? edge(nodes[i - 1], true) : before;
    const next = i < nodes.length - 1 ? edge(nodes[i + 1], false) : after;
    if (node.type === 'emphasis' && (WORD.test(previous) || WORD.test(next))) node.data = { ...node.data, intraword: true };
    if (!node.children) return;
    const attention = node.type === 'emphasis' || node.type === 'strong' || node.type === 'delete';
    flagIntraword(node.children, attention ? previous : '', attention ? next : '');
  });
}

/** A hard break cannot start or end a paragraph in markdown (`a\` at the end is a backslash): drop those. */
function trimBreaks(runs: Run[]): void {
  while (runs.length && 'text' in runs[runs.length - 1]) {
    const last = runs[runs.length - 1] as { text: string; marks: Mark[] };
    last.text = last.text.replace(/\n+$/, '');
    if (last.text) break;
    runs.pop();
  }
  while (runs.length && 'text' in runs[0]) {
    const first = runs[0] as { text: string; marks: Mark[] };
    first.text = first.text.replace(/^\n+/, '');
    if (first.text) break;
    runs.shift();
  }
}

const HTML_SPAN: Record<string, string> = { bold: 'strong', italic: 'em', strikethrough: 's', code: 'code', ...TAGS };

/** Inline content as HTML (one line): `<strong>`, `<a href>`, `<img>`, `<br>`… */
export function inlinesToHtml(nodes: unknown[], options: WriteOptions, depth = 0): string {
  let html = '';
  if (depth > 100) return html;
  for (const node of nodes) {
    if (!isRecord(node)) continue;
    if (node.object === 'text') {
      for (const l of leavesOf(node)) {
        let text = escapeHtml(l.text).replace(/\n/g, '<br>');
        for (const m of [...canonicalMarks(marksOf(l))].reverse()) {
          const pair = HTML_SPAN[m.type] ? [`<${HTML_SPAN[m.type]}>`, `</${HTML_SPAN[m.type]}>`] : htmlPair(m);
          if (pair) text = pair[0] + text + pair[1];
        }
        html += text;
      }
      continue;
    }
    const data = dataOf(node);
    if (node.type === 'link' || node.type === 'mention') {
      const { url, text } = node.type === 'link' ? { url: refToUrl(data.ref, options), text: '' } : mentionLink(data.ref, options);
      const inner = node.type === 'link' ? inlinesToHtml(childrenOf(node), options, depth + 1) : escapeHtml(text);
      html += `<a href="${escapeAttribute(url)}">${inner}</a>`;
    } else if (node.type === 'inline-image') {
      const size = stringField(data, 'size');
      html += `<img src="${escapeAttribute(refToUrl(data.ref, options))}" alt="${escapeAttribute(stringField(data, 'alt') ?? '')}"${size ? ` data-size="${escapeAttribute(size)}"` : ''}>`;
    } else if (node.type === 'inline-math') {
      html += escapeHtml(`$$${stringField(data, 'formula') ?? ''}$$`);
    } else if (node.type === 'emoji') {
      html += escapeHtml(emojiText(data.code));
    } else {
      html += inlinesToHtml(childrenOf(node), options, depth + 1);
    }
  }
  return html;
}
