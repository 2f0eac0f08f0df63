/**
 * Lists: `list-unordered` → `<ul>`, `list-ordered` → `<ol start>`, `list-tasks` → a `<ul>` whose
 * items start with a disabled checkbox (the published page shows state, it cannot change it).
 */
import { blockChildren, childrenOf, dataOf } from '../../../lib/markdown/nodes.js';
import type { BlockNode } from '../../../lib/documents/types.js';
import { attrs, element } from '../html.js';
import { renderInlines } from './inlines.js';
import type { RenderBlocks, RenderState } from './state.js';

/** An item's content: blocks, or (malformed) inline content directly under the item. */
function itemBody(item: BlockNode, state: RenderState, depth: number, renderBlocks: RenderBlocks): string {
  const blocks = blockChildren(item);
  return blocks.length ? renderBlocks(blocks, state, depth + 1) : renderInlines(childrenOf(item), state, depth + 1);
}

export function renderList(block: BlockNode, state: RenderState, depth: number, renderBlocks: RenderBlocks): string {
  const items = blockChildren(block).filter((b) => b.type === 'list-item');
  if (block.type === 'list-tasks') {
    const html = items.map((item) => {
      // The item's text names its checkbox.
      const bodyId = state.ids.claim(`task_${++state.serial}`);
      const box = `<input${attrs({ type: 'checkbox', disabled: true, checked: dataOf(item).checked === true, 'aria-labelledby': bodyId })}>`;
      return element('li', { class: 'task-item' }, box + element('div', { class: 'task-body', id: bodyId }, itemBody(item, state, depth, renderBlocks)));
    });
    return element('ul', { class: 'task-list' }, html.join(''));
  }
  const lis = items.map((item) => element('li', {}, itemBody(item, state, depth, renderBlocks))).join('');
  if (block.type === 'list-ordered') {
    const start = dataOf(block).start;
    return element('ol', { start: typeof start === 'number' && Number.isInteger(start) && start !== 1 ? start : undefined }, lis);
  }
  return element('ul', {}, lis);
}
