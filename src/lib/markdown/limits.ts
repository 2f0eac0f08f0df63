/**
 * Limits on what one page of markdown may hold, checked by one linear scan before anything is
 * parsed. remark's parser and the converters are super-linear on some shapes no real page has:
 * nested brackets (`[[[…x…]]]` thousands deep: a 96 KB page took ~50 s), long runs of emphasis
 * openers, huge GFM tables (every row is padded to the header's columns: 3,000 × 300 cells
 * exhausted the heap) and tens of thousands of links. The scan is deliberately coarse (it skips
 * fenced code, and code spans within a line, and otherwise over-counts); whatever it misses is
 * still bounded by the conversion pool's time and memory budget (src/lib/threads/pool.ts).
 */
import { closesFence, openingFence, type Fence } from './prepass.js';

/** Nesting of brackets (links, images) or emphasis openers within one paragraph. */
export const MAX_NESTING_DEPTH = 64;
/**
 * Emphasis markers in runs that mix `*` and `_` (`*_*_`), within one paragraph: the parser's
 * emphasis matching is quadratic in them (20 KB of `*_*_x_*_*` in one paragraph: 4 s), while
 * real text has a few (`**_bold italic_**`).
 */
export const MAX_MIXED_MARKERS = 1_000;
/** Cells of the page's GFM tables, all tables together (columns × rows, header included). */
export const MAX_TABLE_CELLS = 20_000;
/** Links, images and bare URLs of one page. */
export const MAX_LINKS = 5_000;
/**
 * A page's document as JSON (converted from markdown, or sent as a JSON document). What is left on
 * the event loop grows with it: a 10 MB document blocked it ~100 ms when stored from markdown,
 * ~200 ms when sent as JSON (parsing the request) and ~150 ms when read back (parsing the jsonb);
 * 8 MB keeps each under 200 ms (scripts/bench-document-store.ts). Was 16 MB.
 */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;

export type MarkdownLimit = 'nesting depth' | 'table cells' | 'links' | 'document size' | 'conversion time' | 'conversion memory';

/** A page past one of the limits: which one, and a message that names it. */
export class MarkdownLimitError extends Error {
  constructor(
    readonly limit: MarkdownLimit,
    message: string,
  ) {
    super(message);
    this.name = 'MarkdownLimitError';
  }
}

const isSpace = (c: string | undefined) => c === undefined || c === ' ' || c === '\t' || c === '\n';
const isPunct = (c: string | undefined) => c !== undefined && /[\p{P}\p{S}]/u.test(c);
const DELIMITERS = new Set(['*', '_', '~']);
const URL_START = /(?:https?:\/\/|www\.|mailto:)/g;

/** A GFM delimiter row (`| --- | :-: |`): its column count, or 0. */
function delimiterColumns(line: string): number {
  const row = line.replace(/^[ \t>]*/, '').trim();
  if (!row.includes('|') || !row.includes('-') || /[^|\-: \t]/.test(row)) return 0;
  return row.replace(/^\|/, '').replace(/\|$/, '').split('|').length;
}

type Paragraph = { brackets: number; openers: number; mixed: number };

/** Scans one line of a paragraph: its deepest nesting, and its links. */
function scanLine(line: string, state: Paragraph): { depth: number; links: number } {
  let depth = 0;
  let links = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      i++;
    } else if (c === '`') {
      // A code span: skip to the closing run of the same length on this line, if there is one.
      let run = 1;
      while (line[i + run] === '`') run++;
      const fence = '`'.repeat(run);
      const close = line.indexOf(fence, i + run);
      i = close < 0 ? i + run - 1 : close + run - 1;
    } else if (c === '[') {
      depth = Math.max(depth, ++state.brackets);
    } else if (c === ']') {
      state.brackets = Math.max(0, state.brackets - 1);
      if (line[i + 1] === '(' || line[i + 1] === '[') links++;
    } else if (DELIMITERS.has(c)) {
      let end = i;
      while (DELIMITERS.has(line[end + 1])) end++;
      const before = line[i - 1];
      const after = line[end + 1];
      const left = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
      const right = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
      const size = end - i + 1;
      if (size > 1 && new Set(line.slice(i, end + 1)).size > 1) state.mixed += size;
      if (left && !right) depth = Math.max(depth, (state.openers += size));
      else if (right && !left) state.openers = Math.max(0, state.openers - size);
      i = end;
    }
  }
  for (const match of line.matchAll(URL_START)) if (line[match.index - 1] !== '(') links++;
  return { depth, links };
}

/** The first limit the page is past, as an error naming it; null when within every limit. */
export function markdownLimitBreach(markdown: string): MarkdownLimitError | null {
  const lines = markdown.split('\n');
  let fence: Fence | null = null;
  let paragraph: Paragraph = { brackets: 0, openers: 0, mixed: 0 };
  let depth = 0;
  let mixed = 0;
  let links = 0;
  let cells = 0;
  /** Lines before this index belong to a table already counted. */
  let tableEnd = 0;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at];
    if (fence) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    if ((fence = openingFence(line))) continue;
    if (line.trim() === '') {
      paragraph = { brackets: 0, openers: 0, mixed: 0 };
      continue;
    }
    const columns = at >= tableEnd && at > 0 && lines[at - 1].trim() !== '' ? delimiterColumns(line) : 0;
    if (columns) {
      tableEnd = at + 1;
      while (tableEnd < lines.length && lines[tableEnd].trim() !== '') tableEnd++;
      cells += columns * (tableEnd - at);
    }
    const scanned = scanLine(line, paragraph);
    depth = Math.max(depth, scanned.depth);
    mixed = Math.max(mixed, paragraph.mixed);
    links += scanned.links;
  }
  if (depth > MAX_NESTING_DEPTH) return new MarkdownLimitError('nesting depth', `Markdown nests brackets or emphasis ${depth} deep; the limit is ${MAX_NESTING_DEPTH} (nesting depth)`);
  if (mixed > MAX_MIXED_MARKERS) return new MarkdownLimitError('nesting depth', `Markdown nests emphasis with ${mixed} mixed markers (\`*_*_…\`) in one paragraph; the limit is ${MAX_MIXED_MARKERS} (nesting depth)`);
  if (cells > MAX_TABLE_CELLS) return new MarkdownLimitError('table cells', `Markdown tables have ${cells} cells; the limit is ${MAX_TABLE_CELLS} table cells per page`);
  if (links > MAX_LINKS) return new MarkdownLimitError('links', `Markdown has ${links} links; the limit is ${MAX_LINKS} links per page`);
  return null;
}

/** Refuses a page's document larger than MAX_DOCUMENT_BYTES as JSON (its size, measured by the caller). */
export function documentSizeBreach(bytes: number): MarkdownLimitError | null {
  if (bytes <= MAX_DOCUMENT_BYTES) return null;
  return new MarkdownLimitError('document size', `The page's document is ${(bytes / 1024 / 1024).toFixed(1)} MB as JSON; the limit is ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB (document size)`);
}
