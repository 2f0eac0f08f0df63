/**
 * mdast flow content → the model's blocks. Besides the CommonMark/GFM blocks this reads the
 * dialect's HTML blocks: `<details>`/`<summary>`/`</details>` (often separate HTML blocks with
 * markdown between them, hence a stack across siblings), `<figure>` images, and the pre-pass's
 * placeholders, which become the blocks of their `{% %}` tag. Other HTML is kept as text.
 */
import type { BlockNode } from '../documents/types.js';
import { htmlToInlines, imageData, mdText, MAX_DEPTH, phrasingToInlines, type ParseContext } from './from-inlines.js';
import { CONTAINERS, nonEmpty, tagBlocks } from './from-tags.js';
import { parseHtmlTag } from './html.js';
import { parseLength } from './inline-builder.js';
import { block, fragment, paragraph, textNode, voidBlock, type InlineChild } from './nodes.js';
import { isEmptyInlines, normalizeInlines } from './normalize.js';
import { restorePlaceholders, type Prepass } from './prepass.js';
import { parseBodyMdast, stringifyMdast, type MdNode } from './remark.js';
import { tableFromMdast } from './tables.js';

function collectDefinitions(root: MdNode): Map<string, string> {
  const definitions = new Map<string, string>();
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    // The first definition of a label wins: visit in document order.
    if (node.type === 'definition' && node.identifier !== undefined && !definitions.has(node.identifier)) definitions.set(node.identifier, node.url ?? '');
    if (node.children) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return definitions;
}

export const contextFor = (root: MdNode, pre: Prepass, depth: number, itemType?: string): ParseContext => ({
  pre,
  depth,
  definitions: collectDefinitions(root),
  itemType,
});

/** Markdown of a tag's body or of a chunk inside HTML → blocks. */
export function markdownBodyToBlocks(text: string, pre: Prepass, depth: number, itemType?: string): BlockNode[] {
  if (depth > MAX_DEPTH) return text.trim() ? [paragraph([textNode(restorePlaceholders(pre, text).trim())])] : [];
  const root = parseBodyMdast(text);
  return flowToBlocks(root.children ?? [], contextFor(root, pre, depth, itemType));
}

const deeper = (ctx: ParseContext): ParseContext => ({ ...ctx, depth: ctx.depth + 1, itemType: undefined });

/** By depth: `#` (past the title) and `##` → heading-1, `###` → heading-2, `####` and deeper → heading-3. */
const HEADINGS = ['heading-1', 'heading-1', 'heading-2', 'heading-3'];

function headingBlock(node: MdNode, ctx: ParseContext): BlockNode {
  const children = [...(node.children ?? [])];
  const data: Record<string, unknown> = {};
  // `## Title <a href="#anchor" id="anchor"></a>` carries the heading's custom anchor.
  for (let i = 0; i < children.length; i++) {
    const tag = children[i].type === 'html' ? parseHtmlTag(children[i].value ?? '') : null;
    if (tag?.name === 'a' && !tag.closing && tag.attrs.id) {
      data.id = tag.attrs.id;
      const closes = children[i + 1]?.type === 'html' && parseHtmlTag(children[i + 1].value ?? '')?.closing;
      children.splice(i, closes ? 2 : 1);
      const before = children[i - 1];
      if (before?.type === 'text') children[i - 1] = { ...before, value: (before.value ?? '').replace(/\s+$/, '') };
      break;
    }
  }
  return block(HEADINGS[Math.min(Math.max((node.depth ?? 1) - 1, 0), 3)], data, phrasingToInlines(children, ctx));
}

function listBlock(node: MdNode, ctx: ParseContext): BlockNode {
  const items = (node.children ?? []).filter((c) => c.type === 'listItem');
  const tasks = !node.ordered && items.some((i) => typeof i.checked === 'boolean');
  const type = node.ordered ? 'list-ordered' : tasks ? 'list-tasks' : 'list-unordered';
  const data = node.ordered && typeof node.start === 'number' && node.start !== 1 ? { start: node.start } : {};
  const inner = deeper(ctx);
  return block(
    type,
    data,
    items.map((item) => {
      const checked = tasks ? { checked: item.checked === true } : typeof item.checked === 'boolean' ? { checked: item.checked } : {};
      return block('list-item', checked, nonEmpty(flowToBlocks(item.children ?? [], inner)));
    }),
  );
}

export const codeBlock = (value: string, data: Record<string, unknown>): BlockNode =>
  block('code', data, value.split('\n').map((line) => block('code-line', {}, [textNode(line)])));

const imageBlock = (data: Record<string, unknown>): BlockNode => voidBlock('image', data, []);

/** A paragraph made of images only (and spaces) is an `images` block. */
function imagesOnly(nodes: MdNode[], ctx: ParseContext): BlockNode | null {
  const images = nodes.filter((n) => n.type !== 'text' || (n.value ?? '').trim() !== '');
  if (!images.length) return null;
  const data: Record<string, unknown>[] = [];
  for (const n of images) {
    const url = n.type === 'image' ? n.url : n.type === 'imageReference' ? ctx.definitions.get(n.identifier ?? '') : undefined;
    if (url === undefined) return null;
    data.push(imageData(url, n.alt));
  }
  return block('images', {}, data.map(imageBlock));
}

/** A paragraph, split where a placeholder interrupted it (a tag indented as a continuation line). */
function paragraphBlocks(node: MdNode, ctx: ParseContext): BlockNode[] {
  const out: BlockNode[] = [];
  let segment: MdNode[] = [];
  const flush = () => {
    const images = imagesOnly(segment, ctx);
    if (images) out.push(images);
    else {
      const inlines = phrasingToInlines(segment, ctx);
      // Nothing left (only a comment, say): no paragraph, since markdown could not write an empty one.
      if (!isEmptyInlines(inlines)) out.push(paragraph(inlines));
    }
    segment = [];
  };
  for (const child of node.children ?? []) {
    const match = child.type === 'html' ? new RegExp(`^<!--quire:${ctx.pre.nonce}:(\\d+)-->$`).exec((child.value ?? '').trim()) : null;
    if (!match) {
      segment.push(child);
      continue;
    }
    if (segment.length) flush();
    out.push(...tagBlocks(Number(match[1]), ctx, markdownBodyToBlocks));
  }
  if (segment.length) flush();
  return out;
}

const IMG = /<img\b(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/gi;

function imgData(source: string): Record<string, unknown> | null {
  const tag = parseHtmlTag(source);
  if (!tag || tag.attrs.src === undefined) return null;
  const data = imageData(tag.attrs.src, tag.attrs.alt);
  const width = parseLength(tag.attrs.width);
  const height = parseLength(tag.attrs.height);
  if (width !== undefined) data.width = width;
  if (height !== undefined) data.height = height;
  return data;
}

/** `<figure><img …><figcaption><p>…</p></figcaption></figure>` → an image block. */
function figureImage(html: string): BlockNode | null {
  const img = html.match(IMG)?.[0];
  const data = img ? imgData(img) : null;
  if (!data) return null;
  const caption = /<figcaption\b[^>]*>([\s\S]*?)<\/figcaption\s*>/i.exec(html)?.[1] ?? '';
  const paragraphs = caption
    .split(/<\/?p\b[^>]*>/i)
    .map((part) => htmlToInlines(part))
    .filter((inlines) => !isEmptyInlines(inlines))
    .map((inlines) => paragraph(inlines));
  return voidBlock('image', data, paragraphs.length ? [fragment('caption', paragraphs)] : []);
}

/** HTML that is nothing but wrappers the model has no use for (`<div align="center">`, `</p>`). */
const onlyWrappers = (text: string) => /^\s*(<\/?(div|p|center|span|picture|br)\b[^>]*>\s*)*$/i.test(text);

/**
 * HTML the dialect does not know: images if it is only `<img>` tags, else its text, kept verbatim
 * (line breaks included). That text is read the way it will be re-read once written (escaped, as
 * a paragraph), so that a second import gives the same document: GFM turns `www.x.com` in text
 * into a link, for instance, but not inside an HTML block.
 */
function unknownHtml(html: string, ctx: ParseContext): BlockNode[] {
  const images = html.match(IMG) ?? [];
  if (images.length && onlyWrappers(html.replace(IMG, ''))) {
    const data = images.map(imgData).filter((d): d is Record<string, unknown> => !!d);
    if (data.length) return [block('images', {}, data.map(imageBlock))];
  }
  const lines = html.replace(/\n+$/, '').split('\n');
  if (!lines.join('').trim()) return [];
  const children = lines.flatMap((line, i): MdNode[] => (i ? [{ type: 'break' }, { type: 'text', value: line }] : [{ type: 'text', value: line }]));
  return markdownBodyToBlocks(stringifyMdast([{ type: 'paragraph', children }]), ctx.pre, ctx.depth + 1);
}

type DetailsFrame = { open: boolean; title: InlineChild[] | null; body: BlockNode[] };

function expandable(frame: DetailsFrame): BlockNode {
  return voidBlock('expandable', frame.open ? { defaultExpanded: true } : {}, [
    fragment('expandable-title', [paragraph(frame.title ?? undefined)], 'expandable-title'),
    fragment('expandable-body', nonEmpty(frame.body), 'expandable-body'),
  ]);
}

export function flowToBlocks(nodes: MdNode[], ctx: ParseContext): BlockNode[] {
  const out: BlockNode[] = [];
  const details: DetailsFrame[] = [];
  const emit = (...blocks: BlockNode[]) => (details.length ? details[details.length - 1].body : out).push(...blocks);
  const closeDetails = () => emit(expandable(details.pop()!));

  const html = (value: string) => {
    const tokens = new RegExp(
      `<details\\b([^>]*)>|</details\\s*>|<summary\\b[^>]*>([\\s\\S]*?)</summary\\s*>|(<figure\\b[^>]*>[\\s\\S]*?</figure\\s*>)|<!--quire:${ctx.pre.nonce}:(\\d+)-->|<!--[\\s\\S]*?-->`,
      'gi',
    );
    const matches = [...value.matchAll(tokens)];
    if (!matches.length) return emit(...unknownHtml(value, ctx));
    let images: BlockNode[] = [];
    const flushImages = () => {
      if (images.length) emit(block('images', {}, images));
      images = [];
    };
    const text = (chunk: string) => {
      if (onlyWrappers(chunk)) return;
      flushImages();
      emit(...markdownBodyToBlocks(chunk, ctx.pre, ctx.depth + 1));
    };
    let at = 0;
    for (const m of matches) {
      text(value.slice(at, m.index));
      at = m.index + m[0].length;
      const [whole, detailsAttrs, summary, figure, placeholder] = m;
      if (figure !== undefined) {
        const image = figureImage(figure);
        if (image) images.push(image);
        continue;
      }
      if (whole.startsWith('<!--') && placeholder === undefined) continue;
      flushImages();
      if (placeholder !== undefined) emit(...tagBlocks(Number(placeholder), ctx, markdownBodyToBlocks));
      else if (detailsAttrs !== undefined) details.push({ open: /\bopen\b/i.test(detailsAttrs), title: null, body: [] });
      else if (summary !== undefined) {
        const title = htmlToInlines(summary);
        const top = details[details.length - 1];
        if (top && top.title === null && !top.body.length) top.title = title;
        else emit(paragraph(title));
      } else if (details.length) closeDetails();
    }
    text(value.slice(at));
    flushImages();
  };

  for (const node of nodes) {
    if (node.type === 'html') html(node.value ?? '');
    else emit(...flowNode(node, ctx));
  }
  while (details.length) closeDetails();
  return wrapStrayItems(out, ctx.itemType);
}

/**
 * `{% tab %}` outside `{% tabs %}` (and steps, columns): consecutive items get their container.
 * `keep`: the item type of the container whose body this is (its items are not stray).
 */
function wrapStrayItems(blocks: BlockNode[], keep: string | undefined): BlockNode[] {
  const containerOf = new Map(Object.values(CONTAINERS).filter((c) => c.item !== keep).map((c) => [c.item, c.block]));
  const out: BlockNode[] = [];
  const made = new Set<BlockNode>();
  for (const b of blocks) {
    const container = containerOf.get(b.type);
    const last = out[out.length - 1];
    if (!container) out.push(b);
    else if (last && made.has(last) && last.type === container) last.nodes!.push(b);
    else {
      const wrapper = block(container, {}, [b]);
      made.add(wrapper);
      out.push(wrapper);
    }
  }
  return out;
}

function flowNode(node: MdNode, ctx: ParseContext): BlockNode[] {
  const children = node.children ?? [];
  if (ctx.depth > MAX_DEPTH && children.length) return [paragraph([textNode(mdText(node))])];
  switch (node.type) {
    case 'paragraph':
      return paragraphBlocks(node, ctx);
    case 'heading':
      return [headingBlock(node, ctx)];
    case 'thematicBreak':
      return [voidBlock('divider', {})];
    case 'blockquote':
      return [block('blockquote', {}, nonEmpty(flowToBlocks(children, deeper(ctx))))];
    case 'list':
      return [listBlock(node, ctx)];
    case 'code':
      return [codeBlock(restorePlaceholders(ctx.pre, node.value ?? ''), node.lang ? { syntax: node.lang } : {})];
    case 'math':
      return [voidBlock('math', { formula: restorePlaceholders(ctx.pre, node.value ?? '') })];
    case 'table':
      return [tableFromMdast(node, (cell) => phrasingToInlines(cell.children ?? [], ctx))];
    case 'definition':
    case 'yaml':
    case 'toml':
      return [];
    case 'footnoteDefinition': {
      // The model has no footnotes: the definition stays as text, `[^1]: …`.
      const blocks = flowToBlocks(children, deeper(ctx));
      const label = textNode(`[^${node.label ?? node.identifier ?? ''}]: `);
      if (blocks[0]?.type === 'paragraph') blocks[0].nodes!.unshift(label);
      else blocks.unshift(paragraph([label]));
      blocks[0].nodes = normalizeInlines((blocks[0].nodes ?? []) as InlineChild[]);
      return blocks;
    }
    default: {
      const text = mdText(node);
      return text ? [paragraph([textNode(text)])] : [];
    }
  }
}
