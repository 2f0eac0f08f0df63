/**
 * The `table` block (void): columns are `data.definition` (shown in `data.view.columns` order),
 * rows are `data.records` (by `orderIndex`), and a text cell's value is the NAME of a fragment of
 * the block holding the cell's content. Other column types hold their value directly (numbers,
 * checkboxes, files, users, select options, ratings, references, images). Card views are shown
 * as tables too.
 */
import { blockChildren, dataOf, fragmentsOf, inlineChildren, isRecord } from '../../../lib/markdown/nodes.js';
import type { BlockNode, FragmentNode } from '../../../lib/documents/types.js';
import { attrs, classes, element, escapeHtml } from '../html.js';
import { imgTags } from './image-tags.js';
import { renderInlines } from './inlines.js';
import { refLabel, refUrl } from './refs.js';
import type { RenderBlocks, RenderState } from './state.js';

type Column = { id: string; title: string; type: string; align?: string; definition: Record<string, unknown> };
type Cells = { fragments: Map<string, FragmentNode>; state: RenderState; depth: number; renderBlocks: RenderBlocks };

const ALIGN = new Set(['left', 'center', 'right']);

function columnsOf(data: Record<string, unknown>): Column[] {
  const definition = isRecord(data.definition) ? data.definition : {};
  const view = isRecord(data.view) ? data.view : {};
  const listed = Array.isArray(view.columns) ? view.columns.filter((id): id is string => typeof id === 'string' && isRecord(definition[id])) : [];
  const ids = listed.length ? listed : Object.keys(definition).filter((id) => isRecord(definition[id]));
  return ids.map((id) => {
    const d = definition[id] as Record<string, unknown>;
    const align = typeof d.textAlignment === 'string' && ALIGN.has(d.textAlignment) && d.textAlignment !== 'left' ? d.textAlignment : undefined;
    return { id, title: typeof d.title === 'string' ? d.title : '', type: typeof d.type === 'string' ? d.type : 'text', align, definition: d };
  });
}

function rowsOf(data: Record<string, unknown>): Record<string, unknown>[] {
  const records = isRecord(data.records) ? Object.entries(data.records).filter((e): e is [string, Record<string, unknown>] => isRecord(e[1])) : [];
  const order = (r: Record<string, unknown>) => String(r.orderIndex ?? '');
  records.sort(([ia, a], [ib, b]) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : ia < ib ? -1 : ia > ib ? 1 : 0));
  return records.map(([, r]) => (isRecord(r.values) ? r.values : {}));
}

/** A text cell: its fragment's blocks (one paragraph is written without `<p>`). */
function textCell(value: string, cells: Cells): string {
  const fragment = cells.fragments.get(value);
  // A cell holding its text directly (not a fragment name) is malformed but readable.
  if (!fragment) return escapeHtml(value);
  const blocks = blockChildren(fragment);
  if (blocks.length === 1 && blocks[0].type === 'paragraph') return renderInlines(inlineChildren(blocks[0]), cells.state, cells.depth + 1);
  return cells.renderBlocks(blocks, cells.state, cells.depth + 1);
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : []);

function link(ref: unknown, cells: Cells): string {
  const { context } = cells.state;
  const href = refUrl(ref, context);
  const label = escapeHtml(refLabel(ref, context) ?? href ?? '');
  return href === undefined ? element('span', { class: 'link-broken' }, label) : element('a', { href }, label);
}

function cellHtml(column: Column, value: unknown, cells: Cells): string {
  const { context } = cells.state;
  switch (column.type) {
    case 'checkbox':
      return `<input${attrs({ type: 'checkbox', disabled: true, checked: value === true, 'aria-label': column.title || undefined })}>`;
    case 'number':
      return typeof value === 'number' || typeof value === 'string' ? escapeHtml(String(value)) : '';
    case 'files':
      return strings(value)
        .map((file) => link({ kind: 'file', file }, cells))
        .join(', ');
    case 'users':
      return escapeHtml(strings(value).map((user) => context.refTitle?.({ kind: 'user', user }) ?? user).join(', '));
    case 'select': {
      const options = Array.isArray(column.definition.options) ? column.definition.options.filter(isRecord) : [];
      const label = (v: string) => options.find((o) => o.value === v)?.label;
      return strings(value)
        .map((v) => element('span', { class: 'tag' }, escapeHtml(typeof label(v) === 'string' ? (label(v) as string) : v)))
        .join(' ');
    }
    case 'rating': {
      const max = typeof column.definition.max === 'number' && column.definition.max > 0 ? Math.min(Math.round(column.definition.max), 10) : 5;
      const n = typeof value === 'number' ? Math.max(0, Math.min(max, Math.round(value))) : 0;
      return element('span', { class: 'rating', role: 'img', 'aria-label': `${n}/${max}` }, '★'.repeat(n) + '☆'.repeat(max - n));
    }
    case 'content-ref':
      return isRecord(value) ? link(value, cells) : '';
    case 'image': {
      const data = isRecord(value) && isRecord(value.ref) ? value : { ref: value };
      return imgTags(data, context, { lazy: true }) ?? '';
    }
    default:
      if (typeof value === 'string') return textCell(value, cells);
      if (typeof value === 'number' || typeof value === 'boolean') return escapeHtml(String(value));
      if (isRecord(value)) return link(value, cells);
      return '';
  }
}

export function renderTable(block: BlockNode, state: RenderState, depth: number, renderBlocks: RenderBlocks): string {
  const data = dataOf(block);
  const columns = columnsOf(data);
  if (!columns.length) return '';
  const fragments = new Map<string, FragmentNode>();
  for (const f of fragmentsOf(block)) if (!fragments.has(f.fragment)) fragments.set(f.fragment, f);
  const cells: Cells = { fragments, state, depth, renderBlocks };
  const view = isRecord(data.view) ? data.view : {};
  const alignClass = (c: Column) => classes(c.align && `align-${c.align}`);
  const head =
    view.hideHeader === true
      ? ''
      : element('thead', {}, element('tr', {}, columns.map((c) => element('th', { scope: 'col', class: alignClass(c) }, escapeHtml(c.title))).join('')));
  const body = element(
    'tbody',
    {},
    rowsOf(data)
      .map((values) => element('tr', {}, columns.map((c) => element('td', { class: alignClass(c) }, cellHtml(c, values[c.id], cells))).join('')))
      .join(''),
  );
  // Focusable so that keyboard users can scroll a wide table.
  return element('div', { class: 'table-wrapper', tabindex: 0 }, element('table', {}, head + body));
}
