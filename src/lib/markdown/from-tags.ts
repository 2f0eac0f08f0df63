/**
 * A `{% %}` tag region (cut out by the pre-pass) → blocks. Bodies are markdown parsed on their
 * own, so tags nest. Attribute strings are typed back (`lineNumbers="true"` → true).
 */
import type { BlockNode } from '../documents/types.js';
import type { ParseContext } from './from-inlines.js';
import { block, paragraph, voidBlock } from './nodes.js';
import { urlToRef } from './refs.js';

const HINT_STYLES = new Set(['info', 'warning', 'danger', 'success']);

/** Container tags whose items are blocks of their own: `{% tabs %}` holds `{% tab %}`s… */
export const CONTAINERS: Record<string, { block: string; item: string; itemTag: string }> = {
  tabs: { block: 'tabs', item: 'tabs-item', itemTag: 'tab' },
  stepper: { block: 'stepper', item: 'stepper-step', itemTag: 'step' },
  columns: { block: 'columns', item: 'column', itemTag: 'column' },
};
const ITEM_BLOCKS: Record<string, string> = { tab: 'tabs-item', step: 'stepper-step', column: 'column' };

const bool = (value: string | undefined) => (value === 'true' ? true : value === 'false' ? false : undefined);

/** Data with the undefined fields left out. */
function defined(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
}

export const nonEmpty = (blocks: BlockNode[]): BlockNode[] => (blocks.length ? blocks : [paragraph()]);

/** Data of a code block read from `{% code %}` attributes. */
function codeAttributes(attrs: Record<string, string>): Record<string, unknown> {
  const lines = Number(attrs.collapsedLineCount);
  return defined({
    title: attrs.title || undefined,
    overflow: attrs.overflow === 'wrap' || attrs.overflow === 'scroll' ? attrs.overflow : undefined,
    lineNumbers: bool(attrs.lineNumbers),
    fullWidth: bool(attrs.fullWidth),
    expandable: bool(attrs.expandable),
    collapsedLineCount: Number.isInteger(lines) && lines >= 1 ? lines : undefined,
  });
}

/** A tag's body is markdown read by the block reader that called (passed in: the two recurse into each other). */
export type BodyReader = (text: string, pre: ParseContext['pre'], depth: number, itemType?: string) => BlockNode[];

export function tagBlocks(index: number, ctx: ParseContext, markdownBodyToBlocks: BodyReader): BlockNode[] {
  const region = ctx.pre.regions[index];
  if (!region) return [];
  const { name, attrs, args } = region.tag;
  const body = (itemType?: string) => markdownBodyToBlocks(region.body, ctx.pre, ctx.depth + 1, itemType);
  switch (name) {
    case 'hint':
      return [block('hint', defined({ style: HINT_STYLES.has(attrs.style) ? attrs.style : 'info', icon: attrs.icon || undefined }), nonEmpty(body()))];
    case 'tabs':
    case 'stepper':
    case 'columns': {
      const { block: type, item } = CONTAINERS[name];
      const items: BlockNode[] = [];
      for (const child of body(item)) {
        // Content between items (not inside one) joins the item before it.
        if (child.type === item) items.push(child);
        else if (items.length) items[items.length - 1].nodes!.push(child);
        else items.push(block(item, item === 'tabs-item' ? { title: '' } : {}, [child]));
      }
      return [block(type, {}, items)];
    }
    case 'tab':
      return [block('tabs-item', { title: attrs.title ?? '' }, nonEmpty(body()))];
    case 'step':
    case 'column':
      return [block(ITEM_BLOCKS[name], {}, nonEmpty(body()))];
    case 'code': {
      const blocks = body();
      const code = blocks.find((b) => b.type === 'code');
      if (code) code.data = { ...code.data, ...codeAttributes(attrs) };
      return blocks;
    }
    case 'embed':
      return attrs.url ? [voidBlock('embed', defined({ url: attrs.url, fullWidth: bool(attrs.fullWidth) }))] : [];
    case 'file':
      // The model's file block has no caption: the body is not kept.
      return attrs.src ? [voidBlock('file', { ref: urlToRef(attrs.src) })] : [];
    case 'content-ref':
      return attrs.url ? [voidBlock('content-ref', { ref: urlToRef(attrs.url) })] : [];
    case 'include': {
      const path = args[0] ?? attrs.src;
      return path ? [voidBlock('reusable-content', { ref: { kind: 'url', url: path } })] : [];
    }
    default:
      return [];
  }
}
