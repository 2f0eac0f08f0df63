/**
 * Headings: `heading-1/2/3` are `<h2>`–`<h4>` (the page title is the `<h1>`). Each gets a unique
 * `id` (its custom `data.id`, else the slug of its text, de-duplicated with `-1`, `-2`…) and a
 * self-link after its text. The self-link is hidden from assistive technologies and from the tab
 * order: it only repeats the heading, and the page outline already links every heading.
 */
import { childrenOf, dataOf } from '../../../lib/markdown/nodes.js';
import { slugOf } from '../../../lib/documents/slug.js';
import type { BlockNode } from '../../../lib/documents/types.js';
import { attrs } from '../html.js';
import { renderInlines } from './inlines.js';
import type { RenderState } from './state.js';
import { textOf } from './text-of.js';

const LEVELS: Record<string, 1 | 2 | 3> = { 'heading-1': 1, 'heading-2': 2, 'heading-3': 3 };
/** The model's pattern for custom heading ids. */
const CUSTOM_ID = /^[-a-z0-9.+_]{1,100}$/;

export const isHeading = (type: string) => type in LEVELS;

/** `top`: the heading is not inside a container (tabs, expandable…), so it belongs in the outline. */
export function renderHeading(block: BlockNode, state: RenderState, depth: number, top: boolean): string {
  const level = LEVELS[block.type] ?? 3;
  const data = dataOf(block);
  const title = textOf(childrenOf(block)).replace(/\s+/g, ' ');
  const custom = typeof data.id === 'string' && CUSTOM_ID.test(data.id) ? data.id : undefined;
  const id = state.ids.claim(custom ?? slugOf(title));
  if (top) state.outline.push({ id, title, level });
  const tag = `h${level + 1}`;
  const anchor = `<a${attrs({ class: 'heading-anchor', href: `#${id}`, 'aria-hidden': 'true', tabindex: -1 })}>#</a>`;
  return `<${tag}${attrs({ id, class: 'heading' })}>${renderInlines(childrenOf(block), state, depth + 1)} ${anchor}</${tag}>`;
}
