/**
 * Line-level pre-pass for `{% %}` tags, which no remark extension reads. Lines are scanned with a
 * stack of open tags; each tag region is cut out of its parent and replaced by a placeholder line
 * (an HTML comment, which CommonMark reads as an HTML block that may interrupt a paragraph). The
 * placeholder keeps the tag's indentation, so a tag inside a list item stays inside that item
 * once remark parses the parent. Each region's body, de-indented, is parsed later on its own, so
 * tags nest (a hint inside a tab, code inside a tab…). Fenced code, `$$` math and front matter
 * are skipped: tags in them are text.
 */
import { randomBytes } from 'node:crypto';
import { ITEM_TAGS, OPTIONAL_BODY_TAGS, PAIRED_TAGS, splitTagLine, type Tag } from './tag-syntax.js';

export type TagRegion = {
  tag: Tag;
  /** Body lines (de-indented, with placeholders for nested regions) joined; '' for void tags. */
  body: string;
  /** The indentation of the tag line relative to its parent body. */
  indent: string;
  /** The closing tag as written; undefined for void tags and tags left open at the end. */
  closing?: string;
};

export type Prepass = { text: string; regions: TagRegion[]; nonce: string };

export const placeholderPattern = (nonce: string) => new RegExp(`<!--quire:${nonce}:(\\d+)-->`, 'g');
const placeholder = (nonce: string, index: number) => `<!--quire:${nonce}:${index}-->`;

/** An open code or math fence; a non-blank line indented less than `column` ends it (its list item ended). */
export type Fence = { char: string; size: number; column: number };
type Frame = { name: string; region: number; lines: string[]; indent: number; fence: Fence | null };

function stripIndent(line: string, count: number): string {
  let i = 0;
  while (i < count && i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return line.slice(i);
}

/** Container markers (`> `, `* `, `1. `) before a line's content. */
const CONTAINER_PREFIX = /^(?:[ \t]*(?:>[ \t]?|(?:[*+-]|\d{1,9}[.)])[ \t]+))*/;

/** Code (```, ~~~) and math ($$) fences, also right after list or quote markers. */
export function openingFence(line: string): Fence | null {
  const prefix = CONTAINER_PREFIX.exec(line)![0];
  const m = /^([ \t]*)(`{3,}|~{3,}|\${2,})(.*)$/.exec(line.slice(prefix.length));
  if (!m || (m[2][0] !== '~' && m[3].includes(m[2][0]))) return null;
  return { char: m[2][0], size: m[2].length, column: prefix.length + m[1].length };
}

export function closesFence(line: string, fence: Fence): boolean {
  const m = /^[ \t]*(`{3,}|~{3,}|\${2,})[ \t]*$/.exec(line.slice(CONTAINER_PREFIX.exec(line)![0].length));
  return !!m && m[1][0] === fence.char && m[1].length >= fence.size;
}

const endsContainer = (line: string, fence: Fence) => line.trim() !== '' && /^[ \t]*/.exec(line)![0].length < fence.column && !line.trimStart().startsWith('>');

/** Whether `{% endname %}` comes before the next `{% name %}` (or the end). */
function closedLater(lines: string[], from: number, name: string): boolean {
  const escaped = name.replace(/-/g, '\\-');
  const closing = new RegExp(`\\{%-?\\s*end${escaped}\\s*-?%\\}`);
  const opening = new RegExp(`\\{%-?\\s*${escaped}\\s`);
  for (let i = from; i < lines.length; i++) {
    if (closing.test(lines[i])) return true;
    if (opening.test(lines[i])) return false;
  }
  return false;
}

/**
 * remark's parser takes super-linear time on very deep nesting (400 nested list levels: seconds;
 * thousands: minutes, or a stack overflow). No page nests that deep, so a line's indentation is
 * capped at 64 characters and the container markers opening it (`>`, `*`, `1.`) at 32: only
 * absurd input changes. (Fenced code is left alone: indentation there is content.)
 */
const MAX_INDENT = 64;
const MAX_MARKERS = 32;
const MARKERS = /^(?:[ \t]*(?:>|(?:[*+-]|\d{1,9}[.)])(?=[ \t])))+/;
function capNesting(line: string): string {
  let out = line;
  const indent = /^[ \t]*/.exec(out)![0].length;
  if (indent > MAX_INDENT) out = out.slice(indent - MAX_INDENT);
  const markers = MARKERS.exec(out)?.[0];
  if (markers && markers.length > MAX_MARKERS * 2) {
    const each = [...markers.matchAll(/[ \t]*(?:>|[*+-]|\d{1,9}[.)])/g)];
    if (each.length > MAX_MARKERS) out = out.slice(0, each[MAX_MARKERS - 1].index! + each[MAX_MARKERS - 1][0].length) + out.slice(markers.length);
  }
  return out;
}

function newNonce(markdown: string): string {
  for (;;) {
    const nonce = randomBytes(6).toString('hex');
    if (!markdown.includes(nonce)) return nonce;
  }
}

export function prepass(markdown: string): Prepass {
  const nonce = newNonce(markdown);
  const regions: TagRegion[] = [];
  const root: Frame = { name: '', region: -1, lines: [], indent: 0, fence: null };
  const frames: Frame[] = [root];
  const queue = markdown.split('\n');
  let at = 0;

  // Front matter is copied as it is (remark reads it at the top level).
  if (/^---[ \t]*$/.test(queue[0] ?? '')) {
    const end = queue.findIndex((l, i) => i > 0 && /^---[ \t]*$/.test(l));
    if (end > 0) {
      root.lines.push(...queue.slice(0, end + 1));
      at = end + 1;
    }
  }

  const close = () => {
    const frame = frames.pop()!;
    regions[frame.region].body = frame.lines.join('\n');
  };

  while (at < queue.length) {
    const top = frames[frames.length - 1];
    if (top.fence && endsContainer(stripIndent(queue[at], top.indent), top.fence)) top.fence = null;
    const line = top.fence ? queue[at++] : capNesting(queue[at++]);
    let rel = stripIndent(line, top.indent);
    if (top.fence) {
      if (closesFence(rel, top.fence)) top.fence = null;
      top.lines.push(rel);
      continue;
    }
    const fence = openingFence(rel);
    if (fence) {
      top.fence = fence;
      top.lines.push(rel);
      continue;
    }
    // `* {% hint %}`: a tag opening a list item goes on its own line, indented as the item's content.
    const item = /^([ \t]*)([*+-]|\d{1,9}[.)])( +)(\{%.*)$/.exec(rel);
    const itemFirst = item ? splitTagLine(item[4])?.[0] : undefined;
    if (item && itemFirst && 'tag' in itemFirst) {
      top.lines.push(item[1] + item[2]);
      rel = item[1] + ' '.repeat(item[2].length + item[3].length) + item[4];
    }
    const pieces = splitTagLine(rel);
    if (!pieces) {
      top.lines.push(rel);
      continue;
    }
    const ws = /^[ \t]*/.exec(rel)![0];
    // A closing tag that closes nothing is text: the line stays whole.
    const opens = (name: string) => name === 'embed' || frames.some((f) => f.name === name);
    const first = pieces[0];
    const last = pieces[pieces.length - 1];
    const leading = 'tag' in first ? first.tag : null;
    if ((leading && leading.closing && !opens(leading.name)) || (!leading && 'tag' in last && !opens(last.tag.name))) {
      top.lines.push(rel);
      continue;
    }
    if (pieces.length > 1) {
      // Re-queue each piece as a line of its own, at the same indentation.
      const prefix = line.slice(0, line.length - stripIndent(line, top.indent).length) + ws;
      queue.splice(at, 0, ...pieces.map((p) => prefix + ('tag' in p ? p.tag.source : p.text)));
      continue;
    }
    const tag = (pieces[0] as { tag: Tag }).tag;
    if (tag.closing) {
      if (tag.name === 'embed') continue;
      let index = frames.length - 1;
      while (index > 0 && frames[index].name !== tag.name) index--;
      if (index === 0) {
        top.lines.push(rel);
        continue;
      }
      while (frames.length > index + 1) close();
      regions[frames[index].region].closing = tag.source;
      close();
      continue;
    }
    let parent = top;
    let indent = ws;
    if (ITEM_TAGS.has(tag.name) && top.name === tag.name) {
      close();
      parent = frames[frames.length - 1];
      indent = /^[ \t]*/.exec(stripIndent(line, parent.indent))![0];
    }
    const index = regions.push({ tag, body: '', indent }) - 1;
    parent.lines.push(indent + placeholder(nonce, index));
    const paired = PAIRED_TAGS.has(tag.name) && (!OPTIONAL_BODY_TAGS.has(tag.name) || closedLater(queue, at, tag.name));
    if (paired) frames.push({ name: tag.name, region: index, lines: [], indent: parent.indent + indent.length, fence: null });
  }
  while (frames.length > 1) close();
  return { text: root.lines.join('\n'), regions, nonce };
}

/** The source text of a region (placeholders inside expanded), for placeholders that land in code. */
export function regionSource(pre: Prepass, index: number, depth = 0): string {
  const region = pre.regions[index];
  if (!region || depth > 50) return '';
  const body = restorePlaceholders(pre, region.body, depth + 1);
  const lines = [region.tag.source, ...(body ? body.split('\n').map((l) => (l ? region.indent + l : l)) : [])];
  if (region.closing) lines.push(region.indent + region.closing);
  return lines.join('\n');
}

export const restorePlaceholders = (pre: Prepass, text: string, depth = 0): string =>
  text.includes(pre.nonce) ? text.replace(placeholderPattern(pre.nonce), (_, i: string) => regionSource(pre, Number(i), depth)) : text;
