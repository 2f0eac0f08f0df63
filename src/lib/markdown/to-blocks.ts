/**
 * Blocks → mdast flow content, written by remark. Dialect blocks (`{% %}` tags, `<details>`,
 * `<figure>`) become raw `html` nodes whose bodies are written by a nested call, so remark still
 * indents them inside list items. Unknown block types never throw: their child blocks are
 * written, or their inline content as a paragraph; voids without content are skipped.
 */
import type { BlockNode } from '../documents/types.js';
import { escapeAttribute } from './html.js';
import { blockChildren, dataOf, fragmentNamed, fragmentsOf, inlineChildren, isRecord, plainText, stringField } from './nodes.js';
import { refToUrl, type WriteOptions } from './refs.js';
import { stringifyMdast, type MdNode } from './remark.js';
import { tableToMdast } from './tables.js';
import { writeTag } from './tag-syntax.js';
import { inlinesToHtml, inlinesToPhrasing } from './to-inlines.js';

const MAX_DEPTH = 40;

type Context = WriteOptions & { depth: number };

const html = (value: string): MdNode => ({ type: 'html', value });

/** A tag around a body: `{% name … %}`, the body's lines, `{% endname %}`. */
const tagged = (open: string, body: string, name: string) => html([open, ...(body ? [body] : []), `{% end${name} %}`].join('\n'));

export function blocksToMarkdown(blocks: unknown[], ctx: Context): string {
  return stringifyMdast(blocksToMdast(blocks, ctx));
}

export function blocksToMdast(blocks: unknown[], ctx: Context): MdNode[] {
  const out: MdNode[] = [];
  for (const b of blocks) if (isRecord(b) && b.object === 'block') out.push(...blockToMdast(b as BlockNode, ctx));
  return out;
}

const ITEM_TAGS: Record<string, { tag: string; container: string }> = {
  'tabs-item': { tag: 'tab', container: 'tabs' },
  'stepper-step': { tag: 'step', container: 'stepper' },
  column: { tag: 'column', container: 'columns' },
};

function itemTag(item: BlockNode, ctx: Context): string {
  const { tag } = ITEM_TAGS[item.type];
  const attrs: [string, unknown][] = item.type === 'tabs-item' ? [['title', stringField(dataOf(item), 'title')]] : [];
  return tagged(writeTag(tag, attrs), blocksToMarkdown(blockChildren(item), ctx), tag).value!;
}

function codeNode(block: BlockNode): MdNode {
  const lines = blockChildren(block);
  const value = lines.length ? lines.map((line) => plainText(line)).join('\n') : plainText(block);
  return { type: 'code', lang: stringField(dataOf(block), 'syntax') || null, meta: null, value };
}

function code(block: BlockNode): MdNode[] {
  const data = dataOf(block);
  const attrs: [string, unknown][] = [
    ['title', stringField(data, 'title')],
    ['overflow', stringField(data, 'overflow')],
    ['lineNumbers', typeof data.lineNumbers === 'boolean' ? data.lineNumbers : undefined],
    ['fullWidth', typeof data.fullWidth === 'boolean' ? data.fullWidth : undefined],
    ['expandable', typeof data.expandable === 'boolean' ? data.expandable : undefined],
    ['collapsedLineCount', typeof data.collapsedLineCount === 'number' ? data.collapsedLineCount : undefined],
  ];
  const node = codeNode(block);
  if (!attrs.some(([, v]) => v !== undefined && v !== '')) return [node];
  return [tagged(writeTag('code', attrs), stringifyMdast([node]), 'code')];
}

function lengthAttribute(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (isRecord(value) && typeof value.value === 'number' && typeof value.unit === 'string') return `${value.value}${value.unit === 'px' ? '' : value.unit}`;
  return undefined;
}

function figure(image: BlockNode, ctx: Context): string {
  const data = dataOf(image);
  let img = `<img src="${escapeAttribute(refToUrl(data.ref, ctx))}" alt="${escapeAttribute(stringField(data, 'alt') ?? '')}"`;
  for (const side of ['width', 'height']) {
    const value = lengthAttribute(data[side]);
    if (value) img += ` ${side}="${escapeAttribute(value)}"`;
  }
  const caption = blockChildren({ nodes: fragmentNamed(image, 'caption')?.nodes ?? [] })
    .map((p) => inlinesToHtml(inlineChildren(p), ctx))
    .filter((p) => p !== '')
    .map((p) => `<p>${p}</p>`)
    .join('');
  return `<figure>${img}><figcaption>${caption}</figcaption></figure>`;
}

/** Images with nothing but a source and alt text are written `![alt](src)`, others as figures. */
function images(list: BlockNode[], ctx: Context): MdNode[] {
  if (!list.length) return [];
  const simple = (image: BlockNode) => {
    const data = dataOf(image);
    const caption = fragmentNamed(image, 'caption');
    return data.width === undefined && data.height === undefined && !(caption && plainText({ nodes: caption.nodes }) !== '');
  };
  if (list.every(simple)) {
    const children: MdNode[] = [];
    for (const image of list) {
      if (children.length) children.push({ type: 'text', value: ' ' });
      const data = dataOf(image);
      children.push({ type: 'image', url: refToUrl(data.ref, ctx), alt: stringField(data, 'alt') ?? '', title: null });
    }
    return [{ type: 'paragraph', children }];
  }
  return [html(list.map((image) => figure(image, ctx)).join('\n'))];
}

function list(block: BlockNode, ctx: Context, inner: Context): MdNode[] {
  const tasks = block.type === 'list-tasks';
  const items = blockChildren(block).map((item) => {
    const children = item.type === 'list-item' ? blocksToMdast(blockChildren(item), inner) : blocksToMdast([item], inner);
    const checked = dataOf(item).checked;
    // Tight unless an item holds more than a paragraph and its sub-list.
    const spread = children.length > 1 && !(children.length === 2 && children[0].type === 'paragraph' && children[1].type === 'list');
    return { type: 'listItem', spread, checked: tasks ? checked === true : typeof checked === 'boolean' ? checked : null, children } as MdNode;
  });
  if (!items.length) return [];
  const start = dataOf(block).start;
  return [
    {
      type: 'list',
      ordered: block.type === 'list-ordered',
      start: typeof start === 'number' && Number.isInteger(start) && start >= 0 ? start : 1,
      spread: items.some((i) => i.spread),
      children: items,
    },
  ];
}

function expandable(block: BlockNode, ctx: Context, inner: Context): MdNode[] {
  const title = blockChildren({ nodes: fragmentNamed(block, 'expandable-title')?.nodes ?? [] })
    .map((p) => inlinesToHtml(inlineChildren(p), ctx))
    .join(' ');
  const body = blocksToMarkdown(fragmentNamed(block, 'expandable-body')?.nodes ?? [], inner);
  const open = dataOf(block).defaultExpanded === true ? ' open' : '';
  return [html([`<details${open}>`, `<summary>${title}</summary>`, ...(body ? [body] : []), '</details>'].join('\n\n'))];
}

/** Whatever can be read from a block the writer does not know. */
function unknown(block: BlockNode, ctx: Context): MdNode[] {
  const children = blockChildren(block);
  if (children.length) return blocksToMdast(children, ctx);
  const inlines = inlineChildren(block);
  if (inlines.length) return paragraph(inlines, ctx);
  return fragmentsOf(block).flatMap((f) => (Array.isArray(f.nodes) ? blocksToMdast(f.nodes, ctx) : []));
}

function paragraph(inlines: unknown[], ctx: Context): MdNode[] {
  const children = inlinesToPhrasing(inlines, ctx, 'flow');
  return children.length ? [{ type: 'paragraph', children }] : [];
}

export function blockToMdast(block: BlockNode, ctx: Context): MdNode[] {
  const inner: Context = { ...ctx, depth: ctx.depth + 1 };
  if (ctx.depth > MAX_DEPTH) {
    const text = plainText(block);
    return text ? [{ type: 'paragraph', children: [{ type: 'text', value: text }] }] : [];
  }
  const data = dataOf(block);
  switch (block.type) {
    case 'paragraph':
      return paragraph(inlineChildren(block), ctx);
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const children = inlinesToPhrasing(inlineChildren(block), ctx, 'heading');
      const id = stringField(data, 'id');
      if (id) children.push({ type: 'text', value: ' ' }, html(`<a href="#${escapeAttribute(id)}" id="${escapeAttribute(id)}"></a>`));
      return [{ type: 'heading', depth: Number(block.type.slice(-1)) + 1, children }];
    }
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'blockquote':
      return [{ type: 'blockquote', children: blocksToMdast(blockChildren(block), inner) }];
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks':
      return list(block, ctx, inner);
    case 'list-item':
      return list({ ...block, type: 'list-unordered', nodes: [block] }, ctx, inner);
    case 'code':
      return code(block);
    case 'code-line':
      return paragraph(inlineChildren(block), ctx);
    case 'math':
      return [{ type: 'math', meta: null, value: stringField(data, 'formula') ?? '' }];
    case 'hint': {
      const style = stringField(data, 'style') ?? 'info';
      return [tagged(writeTag('hint', [['style', style], ['icon', stringField(data, 'icon')]]), blocksToMarkdown(blockChildren(block), inner), 'hint')];
    }
    case 'tabs':
    case 'stepper':
    case 'columns': {
      const itemType = Object.keys(ITEM_TAGS).find((t) => ITEM_TAGS[t].container === block.type)!;
      const items = blockChildren(block).map((child) => (child.type === itemType ? child : { ...child, type: itemType, nodes: [child] }));
      const body = items.map((item) => itemTag(item, inner)).join('\n\n');
      return [tagged(writeTag(block.type), body, block.type)];
    }
    case 'tabs-item':
    case 'stepper-step':
    case 'column':
      return [html(itemTag(block, inner))];
    case 'images':
      return images(
        blockChildren(block).filter((b) => b.type === 'image'),
        ctx,
      );
    case 'image':
      return images([block], ctx);
    case 'file':
      return [tagged(writeTag('file', [['src', refToUrl(data.ref, ctx)]]), '', 'file')];
    case 'embed':
      return [html(writeTag('embed', [['url', stringField(data, 'url')], ['fullWidth', typeof data.fullWidth === 'boolean' ? data.fullWidth : undefined]]))];
    case 'content-ref': {
      const url = refToUrl(data.ref, ctx);
      const link = stringifyMdast([{ type: 'paragraph', children: [{ type: 'link', url, title: null, children: [{ type: 'text', value: url }] }] }]);
      return [tagged(writeTag('content-ref', [['url', url]]), link, 'content-ref')];
    }
    case 'reusable-content':
      return [html(writeTag('include', [], [refToUrl(data.ref, ctx)]))];
    case 'expandable':
      return expandable(block, ctx, inner);
    case 'table': {
      const table = tableToMdast(block, (inlines) => inlinesToPhrasing(inlines, ctx, 'cell'), ctx);
      return table ? [table] : [];
    }
    default:
      return unknown(block, inner);
  }
}
