/**
 * JSON documents → a PDF, with pdfkit, streamed: pages are drawn as they arrive from an (async)
 * iterable, so a caller can load bodies in batches while the first bytes are already on the wire.
 * Every content page starts a new PDF page: its title as a heading, its description, its body.
 *
 * Fonts are pdfkit's built-in Helvetica and Courier (nothing to download, nothing to embed). They
 * cover WinAnsi (Latin-1 and a few typographic signs) only: other characters are printed as "?"
 * (a few common ones, arrows and comparison signs, are spelled out), emoji are left out.
 *
 * What is drawn for each block: paragraphs with bold/italic/code/strikethrough marks and links;
 * headings 1–3; lists (bulleted, numbered, tasks, nested); code blocks in Courier on a grey
 * background; hints as a box in the colour of their style with its name; quotes with a bar;
 * tables as a grid of the cells' text; images as a placeholder with their alt text and caption
 * (remote images are never fetched); expandables (title, then body); tabs (each tab's title, then
 * its body); math as its formula; dividers as a rule; files, embeds, content references and
 * reusable contents as a one-line placeholder; any other block as its text.
 */
import { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { BlockNode, JSONDocument } from '../documents/types.js';
import {
  blockChildren,
  childrenOf,
  dataOf,
  fragmentNamed,
  inlineChildren,
  isRecord,
  leavesOf,
  marksOf,
  plainText,
  stringField,
  typeOf,
  type InlineChild,
} from '../markdown/nodes.js';
import { refToUrl } from '../markdown/refs.js';

/** One content page to print. */
export type PdfPage = {
  title: string;
  /** document: title and body; group: a section title; link: title and where it points. */
  kind: 'document' | 'group' | 'link';
  description?: string;
  document?: JSONDocument | null;
  /** Link pages: their target, as a URL or words. */
  target?: string;
};

export type RenderOptions = {
  /** The PDF's title (document information). */
  title: string;
  /** Deflate the content streams (default true); tests turn it off to read the text. */
  compress?: boolean;
  /** Stop drawing (the reader went away). */
  signal?: AbortSignal;
};

type PDF = PDFKit.PDFDocument;

const MARGIN = 56;
const BODY_SIZE = 11;
const CODE_SIZE = 9;
const HEADING_SIZES = { 'heading-1': 18, 'heading-2': 15, 'heading-3': 13 } as const;
const TEXT_COLOR = '#1f2328';
const MUTED_COLOR = '#59636e';
const LINK_COLOR = '#0b57d0';
const HINT_COLORS: Record<string, string> = { info: '#0b57d0', warning: '#b26a00', danger: '#c62828', success: '#2e7d32' };
const INDENT = 18;
/** Deeper nesting than this (malformed or hostile documents) is printed as plain text. */
const MAX_DEPTH = 40;

// ---- text that the standard fonts can print ----

/** Unicode characters WinAnsi has outside Latin-1 (pdfkit maps them to their codes). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const SPELLED: Record<string, string> = { '→': '->', '←': '<-', '⇒': '=>', '⇐': '<=', '↔': '<->', '≤': '<=', '≥': '>=', '≠': '!=', '−': '-', '✓': 'v', '✔': 'v', '✗': 'x', '✘': 'x' };
const SPACES = /[\u2000-\u200a\u202f\u205f\u3000]/;
const INVISIBLE = /[\u200b-\u200d\u2060\ufe00-\ufe0f\u00ad]/;
const EMOJI = /\p{Extended_Pictographic}|[\u{1f1e6}-\u{1f1ff}\u{1f3fb}-\u{1f3ff}]/u;

/** `text` in the characters Helvetica and Courier have (WinAnsi): others become "?". */
export function printable(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code === 10) out += '\n';
    else if (code === 9) out += '    ';
    else if ((code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff && code !== 0xad) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (SPELLED[ch]) out += SPELLED[ch];
    else if (SPACES.test(ch)) out += ' ';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0) || INVISIBLE.test(ch) || EMOJI.test(ch)) continue;
    else out += '?';
  }
  return out;
}

// ---- inline content as runs of one style ----

type Run = { text: string; bold?: boolean; italic?: boolean; code?: boolean; strike?: boolean; link?: string };
type Style = Omit<Run, 'text'>;

function runsOf(nodes: readonly InlineChild[], style: Style = {}, depth = 0): Run[] {
  const runs: Run[] = [];
  if (depth > MAX_DEPTH) return runs;
  for (const node of nodes) {
    if (node.object === 'text') {
      for (const leaf of leavesOf(node)) {
        const marks = new Set(marksOf(leaf).map((m) => m.type));
        runs.push({
          ...style,
          text: leaf.text,
          bold: style.bold || marks.has('bold'),
          italic: style.italic || marks.has('italic'),
          code: style.code || marks.has('code') || marks.has('keyboard'),
          strike: style.strike || marks.has('strikethrough'),
        });
      }
      continue;
    }
    const data = dataOf(node);
    const children = inlineChildren(node);
    switch (typeOf(node)) {
      case 'link': {
        const ref = isRecord(data.ref) ? data.ref : undefined;
        const url = ref?.kind === 'url' && typeof ref.url === 'string' && /^(https?|mailto):/i.test(ref.url) ? ref.url : undefined;
        const inner = runsOf(children, { ...style, link: url ?? style.link }, depth + 1);
        runs.push(...(inner.length ? inner : [{ ...style, text: url ?? refToUrl(ref), link: url }]));
        break;
      }
      case 'inline-math':
        runs.push({ ...style, code: true, text: stringField(data, 'formula') ?? plainText(node) });
        break;
      case 'inline-image':
        runs.push({ ...style, italic: true, text: `[image${stringField(data, 'alt') ? `: ${stringField(data, 'alt')}` : ''}]` });
        break;
      case 'emoji':
        break; // outside WinAnsi: nothing the standard fonts can draw
      default:
        runs.push(...(children.length ? runsOf(children, style, depth + 1) : [{ ...style, text: plainText(node) }]));
    }
  }
  return runs;
}

const fontOf = (run: Style, mono = false) => {
  const family = run.code || mono ? 'Courier' : 'Helvetica';
  if (run.bold && run.italic) return `${family}-BoldOblique`;
  if (run.bold) return `${family}-Bold`;
  if (run.italic) return `${family}-Oblique`;
  return family;
};

// ---- the writer ----

type Box = { x: number; width: number; depth: number; color: string; italic?: boolean };

/** Narrower boxes are not indented further (deep nesting keeps a readable column). */
const MIN_WIDTH = 160;

/** `box` moved right by `left` and narrowed by `left + right`, unless that leaves it too narrow. */
const indented = (box: Box, left: number, right = 0): Box => (box.width - left - right < MIN_WIDTH ? box : { ...box, x: box.x + left, width: box.width - left - right });

class Writer {
  constructor(readonly doc: PDF) {}

  get bottom() {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  get top() {
    return this.doc.page.margins.top;
  }

  /** A new PDF page unless `height` more points fit on this one. */
  room(height: number) {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  /** Runs of text as one paragraph at `box`. */
  runs(runs: Run[], box: Box, size = BODY_SIZE, opts: { mono?: boolean; color?: string; gap?: number } = {}) {
    const doc = this.doc;
    const parts = runs.map((r) => ({ ...r, text: printable(r.text) })).filter((r) => r.text !== '');
    if (!parts.length) {
      doc.y += size * 0.6;
      return;
    }
    this.room(size * 1.4);
    parts.forEach((run, i) => {
      doc
        .font(fontOf({ ...run, italic: run.italic || box.italic }, opts.mono))
        .fontSize(run.code && !opts.mono ? size - 1 : size)
        .fillColor(run.link ? LINK_COLOR : (opts.color ?? box.color));
      const options: PDFKit.Mixins.TextOptions = { width: box.width, continued: i < parts.length - 1, underline: !!run.link, strike: !!run.strike, link: run.link ?? null, lineGap: 2 };
      if (i === 0) doc.text(run.text, box.x, doc.y, options);
      else doc.text(run.text, options);
    });
    doc.y += opts.gap ?? size * 0.5;
  }

  plain(text: string, box: Box, size = BODY_SIZE, opts: { font?: string; color?: string; gap?: number } = {}) {
    const value = printable(text);
    if (!value) return;
    this.room(size * 1.4);
    this.doc.font(opts.font ?? (box.italic ? 'Helvetica-Oblique' : 'Helvetica')).fontSize(size).fillColor(opts.color ?? box.color);
    this.doc.text(value, box.x, this.doc.y, { width: box.width, lineGap: 2 });
    this.doc.y += opts.gap ?? size * 0.5;
  }

  rule(box: Box, color = '#d0d7de') {
    this.room(12);
    const y = this.doc.y + 4;
    this.doc.save().moveTo(box.x, y).lineTo(box.x + box.width, y).lineWidth(0.75).strokeColor(color).stroke().restore();
    this.doc.y = y + 8;
  }

  /**
   * Draws `body` inside `box` shifted by `inset`, then a frame around what it drew (a full box
   * when it stayed on one PDF page, otherwise a bar beside its last part).
   */
  framed(box: Box, inset: number, color: string, kind: 'box' | 'bar', body: (inner: Box) => void) {
    const doc = this.doc;
    this.room(BODY_SIZE * 2);
    const startPage = doc.page;
    const startY = doc.y;
    doc.y += kind === 'box' ? 6 : 0;
    body(indented(box, inset, kind === 'box' ? inset : 0));
    const endY = doc.y + (kind === 'box' ? 0 : -4);
    const fromY = doc.page === startPage ? startY : this.top;
    doc.save().lineWidth(kind === 'box' ? 1 : 2.5).strokeColor(color);
    if (kind === 'box' && doc.page === startPage) doc.roundedRect(box.x, fromY, box.width, endY - fromY, 3).stroke();
    else doc.moveTo(box.x + 1, fromY).lineTo(box.x + 1, endY).stroke();
    doc.restore();
    doc.y = endY + 8;
  }

  blocks(blocks: readonly BlockNode[], box: Box) {
    for (const block of blocks) this.block(block, box);
  }

  block(block: BlockNode, box: Box) {
    const data = dataOf(block);
    const type = typeOf(block);
    if (box.depth > MAX_DEPTH) return this.plain(plainText(block), box);
    const inner = { ...box, depth: box.depth + 1 };
    switch (type) {
      case 'paragraph':
        return this.runs(runsOf(inlineChildren(block)), box);
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const size = HEADING_SIZES[type];
        this.doc.y += size * 0.4;
        this.room(size * 3);
        return this.runs(runsOf(inlineChildren(block), { bold: true }), box, size, { gap: size * 0.3 });
      }
      case 'list-unordered':
      case 'list-ordered':
      case 'list-tasks':
        return this.list(block, type, box);
      case 'list-item':
        return this.list({ ...block, nodes: [block] }, 'list-unordered', box);
      case 'code':
        return this.code(block, box);
      case 'hint': {
        const style = stringField(data, 'style') ?? 'info';
        const color = HINT_COLORS[style] ?? HINT_COLORS.info;
        return this.framed(box, 10, color, 'box', (b) => {
          this.plain(style.charAt(0).toUpperCase() + style.slice(1), b, BODY_SIZE - 1, { font: 'Helvetica-Bold', color, gap: 3 });
          this.blocks(blockChildren(block), { ...b, depth: inner.depth });
        });
      }
      case 'blockquote':
        return this.framed(box, 12, '#afb8c1', 'bar', (b) => this.blocks(blockChildren(block), { ...b, depth: inner.depth, color: MUTED_COLOR }));
      case 'images': {
        for (const image of blockChildren(block)) this.image(image, box);
        return;
      }
      case 'image':
        return this.image(block, box);
      case 'table':
        return this.table(block, box);
      case 'expandable': {
        const title = fragmentNamed(block, 'expandable-title');
        const body = fragmentNamed(block, 'expandable-body');
        const titleRuns = (title?.nodes ?? []).flatMap((n) => runsOf(inlineChildren(n), { bold: true }));
        this.runs([{ text: '› ', bold: true }, ...(titleRuns.length ? titleRuns : [{ text: 'Details', bold: true }])], box, BODY_SIZE, { gap: 3 });
        return this.framed(box, 12, '#d0d7de', 'bar', (b) => this.blocks(body?.nodes ?? [], { ...b, depth: inner.depth }));
      }
      case 'tabs': {
        for (const tab of blockChildren(block)) {
          this.plain(stringField(dataOf(tab), 'title') || 'Tab', box, BODY_SIZE, { font: 'Helvetica-Bold', gap: 3 });
          this.framed(box, 12, '#d0d7de', 'bar', (b) => this.blocks(blockChildren(tab), { ...b, depth: inner.depth }));
        }
        return;
      }
      case 'math':
        return this.plain(stringField(data, 'formula') ?? plainText(block), indented(box, INDENT), BODY_SIZE, { font: 'Courier' });
      case 'divider':
        return this.rule(box);
      case 'file':
        return this.placeholder('File', plainText(block) || refToUrl(data.ref), box);
      case 'embed':
        return this.placeholder('Embed', stringField(data, 'url') ?? '', box);
      case 'content-ref':
        return this.placeholder('See', plainText(block) || refToUrl(data.ref), box);
      case 'reusable-content':
        return this.placeholder('Reusable content', plainText(block), box);
      case 'swagger':
      case 'openapi-operation':
      case 'openapi':
        return this.placeholder('API operation', [stringField(data, 'method'), stringField(data, 'path')].filter(Boolean).join(' ') || plainText(block), box);
      default: {
        const children = childrenOf(block);
        if (children.length && children.every((c) => c.object === 'block')) return this.blocks(blockChildren(block), box);
        return this.plain(plainText(block), box);
      }
    }
  }

  placeholder(label: string, text: string, box: Box) {
    this.runs([{ text: `[${label}${text ? `: ${text}` : ''}]`, italic: true }], box, BODY_SIZE - 1, { color: MUTED_COLOR });
  }

  image(image: BlockNode, box: Box) {
    const data = dataOf(image);
    const alt = stringField(data, 'alt');
    const caption = plainText({ nodes: fragmentNamed(image, 'caption')?.nodes ?? [] });
    this.framed(box, 8, '#d0d7de', 'box', (b) => {
      this.plain(`[Image${alt ? `: ${alt}` : ''}]`, b, BODY_SIZE - 1, { font: 'Helvetica-Oblique', color: MUTED_COLOR, gap: 3 });
      if (caption) this.plain(caption, b, BODY_SIZE - 1, { color: MUTED_COLOR, gap: 3 });
    });
  }

  list(block: BlockNode, type: 'list-unordered' | 'list-ordered' | 'list-tasks', box: Box) {
    const doc = this.doc;
    const start = Number(dataOf(block).start);
    let n = Number.isInteger(start) ? start : 1;
    for (const item of blockChildren(block)) {
      const checked = dataOf(item).checked === true;
      const marker = type === 'list-ordered' ? `${n++}.` : type === 'list-tasks' ? (checked ? '[x]' : '[ ]') : box.depth % 2 ? '–' : '•';
      doc.font(type === 'list-tasks' ? 'Courier' : 'Helvetica').fontSize(BODY_SIZE);
      const width = type === 'list-unordered' ? INDENT : Math.max(INDENT, doc.widthOfString(marker) + 6);
      this.room(BODY_SIZE * 1.4);
      const y = doc.y;
      doc.fillColor(box.color).text(marker, box.x, y, { lineBreak: false });
      doc.y = y;
      const inner = { ...indented(box, width), depth: box.depth + 1 };
      const children = blockChildren(item);
      if (children.length) this.blocks(children, inner);
      else this.runs(runsOf(inlineChildren(item)), inner);
      if (doc.y < y + BODY_SIZE) doc.y = y + BODY_SIZE * 1.4;
    }
    doc.y += 2;
  }

  code(block: BlockNode, box: Box) {
    const doc = this.doc;
    const data = dataOf(block);
    const title = stringField(data, 'title');
    const lines = blockChildren(block).length ? blockChildren(block).map((line) => plainText(line)) : plainText(block).split('\n');
    const text = printable(lines.join('\n')).replace(/\n+$/, '') || ' ';
    if (title) this.plain(title, box, CODE_SIZE + 1, { font: 'Helvetica-Bold', color: MUTED_COLOR, gap: 2 });
    const pad = 6;
    const width = box.width - 2 * pad;
    doc.font('Courier').fontSize(CODE_SIZE);
    const height = doc.heightOfString(text, { width, lineGap: 1 });
    this.room(Math.min(height, this.bottom - this.top) + 2 * pad);
    const y = doc.y;
    // The grey background only when the block fits the page: pdfkit cannot draw it behind text it has not laid out yet.
    if (y + height + 2 * pad <= this.bottom) doc.save().rect(box.x, y, box.width, height + 2 * pad).fill('#f3f4f6').restore();
    doc.font('Courier').fontSize(CODE_SIZE).fillColor(TEXT_COLOR).text(text, box.x + pad, y + pad, { width, lineGap: 1 });
    doc.y += pad + 6;
  }

  table(block: BlockNode, box: Box) {
    const doc = this.doc;
    const data = dataOf(block);
    const definition = isRecord(data.definition) ? data.definition : {};
    const view = isRecord(data.view) ? data.view : {};
    const listed = Array.isArray(view.columns) ? view.columns.filter((id): id is string => typeof id === 'string' && isRecord(definition[id])) : [];
    const columns = (listed.length ? listed : Object.keys(definition).filter((id) => isRecord(definition[id]))).slice(0, 12);
    if (!columns.length) return this.plain(plainText(block), box);
    const records = (isRecord(data.records) ? Object.entries(data.records) : [])
      .filter((e): e is [string, Record<string, unknown>] => isRecord(e[1]))
      .sort(([ia, a], [ib, b]) => {
        const oa = String(a.orderIndex ?? '');
        const ob = String(b.orderIndex ?? '');
        return oa < ob ? -1 : oa > ob ? 1 : ia < ib ? -1 : ia > ib ? 1 : 0;
      });
    const cellText = (value: unknown): string => {
      if (typeof value === 'string') {
        const cell = fragmentNamed(block, value);
        return cell ? plainText({ nodes: cell.nodes }) : value;
      }
      if (typeof value === 'number') return String(value);
      if (typeof value === 'boolean') return value ? '[x]' : '[ ]';
      if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(', ');
      if (isRecord(value)) return refToUrl(isRecord(value.ref) ? value.ref : value);
      return '';
    };
    const rows: { cells: string[]; header: boolean }[] = [];
    if (view.hideHeader !== true) rows.push({ header: true, cells: columns.map((id) => String((definition[id] as Record<string, unknown>).title ?? '')) });
    for (const [, record] of records) {
      const values = isRecord(record.values) ? record.values : {};
      rows.push({ header: false, cells: columns.map((id) => cellText(values[id])) });
    }
    const colWidth = box.width / columns.length;
    const pad = 4;
    const size = BODY_SIZE - 1.5;
    for (const row of rows) {
      const texts = row.cells.map((c) => printable(c));
      doc.font(row.header ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
      const natural = Math.max(size, ...texts.map((t) => (t ? doc.heightOfString(t, { width: colWidth - 2 * pad }) : 0)));
      const maxHeight = this.bottom - this.top - 2 * pad;
      const height = Math.min(natural, maxHeight) + 2 * pad;
      this.room(height);
      const y = doc.y;
      doc.save().lineWidth(0.5).strokeColor('#afb8c1');
      if (row.header) doc.rect(box.x, y, box.width, height).fill('#f3f4f6');
      doc.restore();
      texts.forEach((text, i) => {
        const x = box.x + i * colWidth;
        doc.save().lineWidth(0.5).rect(x, y, colWidth, height).stroke('#afb8c1').restore();
        if (text) {
          doc
            .font(row.header ? 'Helvetica-Bold' : 'Helvetica')
            .fontSize(size)
            .fillColor(box.color)
            .text(text, x + pad, y + pad, { width: colWidth - 2 * pad, height: height - 2 * pad, ellipsis: true, lineGap: 0 });
        }
      });
      doc.y = y + height;
    }
    doc.y += 8;
  }

  /** One content page, from the top of a new PDF page. */
  page(page: PdfPage) {
    const doc = this.doc;
    doc.addPage();
    const box: Box = { x: MARGIN, width: doc.page.width - 2 * MARGIN, depth: 0, color: TEXT_COLOR };
    const titleSize = page.kind === 'group' ? 26 : 22;
    this.plain(page.title || 'Untitled', box, titleSize, { font: 'Helvetica-Bold', gap: 4 });
    if (page.description) this.plain(page.description, box, BODY_SIZE + 1, { color: MUTED_COLOR, gap: 4 });
    if (page.kind === 'link') this.placeholder('Link', page.target ?? '', box);
    if (page.kind !== 'document') return;
    this.rule(box);
    this.blocks(Array.isArray(page.document?.nodes) ? page.document.nodes.filter((n): n is BlockNode => isRecord(n) && n.object === 'block') : [], box);
  }
}

/**
 * The PDF of `pages`, as a stream: drawing starts at once and goes on as `pages` yields. An error
 * from `pages` (or from drawing) destroys the stream with it. A PDF with no page gets one blank page.
 */
export function renderPdf(pages: Iterable<PdfPage> | AsyncIterable<PdfPage>, options: RenderOptions): Readable {
  const doc = new PDFDocument({
    autoFirstPage: false,
    compress: options.compress ?? true,
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: { Title: printable(options.title), Creator: 'quire', Producer: 'quire (pdfkit)' },
    displayTitle: true,
  } as PDFKit.PDFDocumentOptions);
  const stream = doc as unknown as Readable;
  const writer = new Writer(doc);
  void (async () => {
    let count = 0;
    for await (const page of pages) {
      if (stream.destroyed || options.signal?.aborted) return;
      writer.page(page);
      count++;
      // Lets the bytes drawn so far leave before the next page is drawn.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!count) doc.addPage();
    doc.end();
  })().catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
  return stream;
}
