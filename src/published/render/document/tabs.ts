/**
 * Tabs, the ARIA tabs pattern with progressive enhancement. The HTML holds the whole structure
 * (a `tablist` of `tab` buttons, one `tabpanel` per item, linked both ways by ids), but the
 * tablist starts `hidden` and every panel is shown in order under a visible title: without
 * JavaScript a reader sees all the content. The page script (page/script.ts) then shows the
 * tablist, hides the titles and the unselected panels, and handles clicks and arrow keys.
 */
import { blockChildren, dataOf } from '../../../lib/markdown/nodes.js';
import type { BlockNode } from '../../../lib/documents/types.js';
import { attrs, element, escapeHtml } from '../html.js';
import type { RenderBlocks, RenderState } from './state.js';

export function renderTabs(block: BlockNode, state: RenderState, depth: number, renderBlocks: RenderBlocks): string {
  const items = blockChildren(block).filter((b) => b.type === 'tabs-item');
  if (!items.length) return '';
  const group = ++state.serial;
  const tabs: string[] = [];
  const panels: string[] = [];
  items.forEach((item, i) => {
    const data = dataOf(item);
    const title = (typeof data.title === 'string' && data.title.trim()) || `${i + 1}`;
    const tabId = state.ids.claim(`tabs_${group}_tab_${i + 1}`);
    const panelId = state.ids.claim(`tabs_${group}_panel_${i + 1}`);
    const selected = i === 0;
    tabs.push(
      `<button${attrs({ type: 'button', role: 'tab', id: tabId, 'aria-controls': panelId, 'aria-selected': String(selected), tabindex: selected ? 0 : -1 })}>${escapeHtml(title)}</button>`,
    );
    panels.push(
      element(
        'div',
        { class: 'tabpanel', role: 'tabpanel', id: panelId, 'aria-labelledby': tabId, tabindex: 0 },
        element('p', { class: 'tabpanel-title' }, escapeHtml(title)) + renderBlocks(blockChildren(item), state, depth + 1),
      ),
    );
  });
  return element('div', { class: 'tabs', 'data-tabs': true }, element('div', { class: 'tablist', role: 'tablist', hidden: true }, tabs.join('')) + panels.join(''));
}
