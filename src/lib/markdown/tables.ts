/**
 * GFM tables ↔ the model's `table` block. The block is void: columns are `data.definition`
 * (ordered by `data.view.columns`), rows are `data.records` (ordered by `orderIndex`), and a text
 * cell's value is the NAME of a fragment that holds the cell's content. Column titles are plain
 * strings, so formatting in header cells is lost. Ids are positional (`c1`, `r1`, `r1c1`) so the
 * same markdown always reads as the same document.
 */
import { generateNKeysBetween } from 'fractional-indexing';
import type { BlockNode, FragmentNode } from '../documents/types.js';
import { blockChildren, dataOf, fragment, fragmentsOf, inlineChildren, isRecord, paragraph, plainText, textNode, voidBlock, type InlineChild } from './nodes.js';
import { refToUrl, type WriteOptions } from './refs.js';
import type { MdNode } from './remark.js';

const ALIGNMENTS = new Set(['left', 'center', 'right']);

export function tableFromMdast(node: MdNode, cellInlines: (cell: MdNode) => InlineChild[]): BlockNode {
  const rows = (node.children ?? []).filter((r) => r.type === 'tableRow');
  const header = rows[0]?.children ?? [];
  const columns = header.map((_, i) => `c${i + 1}`);
  const titles = header.map((cell) => plainText({ object: 'block', nodes: cellInlines(cell) }));
  const definition: Record<string, unknown> = {};
  columns.forEach((id, i) => {
    const align = node.align?.[i];
    definition[id] = { id, title: titles[i], type: 'text', textAlignment: align && ALIGNMENTS.has(align) ? align : 'left' };
  });
  const body = rows.slice(1);
  const order = generateNKeysBetween(null, null, body.length);
  const records: Record<string, unknown> = {};
  const fragments = [];
  for (const [r, row] of body.entries()) {
    const id = `r${r + 1}`;
    const values: Record<string, string> = {};
    for (const [c, column] of columns.entries()) {
      const cell = row.children?.[c];
      const name = `${id}${column}`;
      values[column] = name;
      fragments.push(fragment(name, [paragraph(cell ? cellInlines(cell) : undefined)]));
    }
    records[id] = { orderIndex: order[r], values };
  }
  const hideHeader = columns.length > 0 && titles.every((t) => t === '');
  return voidBlock('table', { view: { type: 'grid', columns, hideHeader }, records, definition }, fragments);
}

const byOrder = ([ida, a]: [string, Record<string, unknown>], [idb, b]: [string, Record<string, unknown>]) => {
  const oa = String(a.orderIndex ?? '');
  const ob = String(b.orderIndex ?? '');
  return oa < ob ? -1 : oa > ob ? 1 : ida < idb ? -1 : ida > idb ? 1 : 0;
};

/** Inline content of one cell; several blocks join with line breaks (written `<br>`). */
function cellContent(cells: Map<string, FragmentNode>, value: unknown, options: WriteOptions): InlineChild[] {
  if (typeof value === 'string') {
    const cell = cells.get(value);
    // A cell holding its text directly (not a fragment name) is malformed but readable.
    if (!cell) return [textNode(value)];
    const parts: InlineChild[] = [];
    for (const child of blockChildren({ nodes: cell.nodes })) {
      if (parts.length) parts.push(textNode('\n'));
      const inlines = inlineChildren(child);
      parts.push(...(inlines.length ? inlines : [textNode(plainText(child))]));
    }
    return parts;
  }
  if (typeof value === 'number') return [textNode(String(value))];
  if (typeof value === 'boolean') return [textNode(value ? '[x]' : '[ ]')];
  if (Array.isArray(value)) return [textNode(value.filter((v) => typeof v === 'string').join(', '))];
  if (isRecord(value)) {
    const ref = isRecord(value.ref) ? value.ref : value;
    const url = refToUrl(ref, options);
    return [{ object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [textNode(url)] }];
  }
  return [];
}

/** The GFM table for a table block, or null when it has no column. */
export function tableToMdast(block: BlockNode, cellPhrasing: (inlines: InlineChild[]) => MdNode[], options: WriteOptions): MdNode | null {
  const data = dataOf(block);
  const definition = isRecord(data.definition) ? data.definition : {};
  const view = isRecord(data.view) ? data.view : {};
  const listed = Array.isArray(view.columns) ? view.columns.filter((id): id is string => typeof id === 'string' && isRecord(definition[id])) : [];
  const columns = listed.length ? listed : Object.keys(definition).filter((id) => isRecord(definition[id]));
  if (!columns.length) return null;
  const column = (id: string) => definition[id] as Record<string, unknown>;
  const records = (isRecord(data.records) ? Object.entries(data.records) : []).filter((e): e is [string, Record<string, unknown>] => isRecord(e[1])).sort(byOrder);
  const cell = (children: MdNode[]): MdNode => ({ type: 'tableCell', children });
  const header: MdNode = {
    type: 'tableRow',
    children: columns.map((id) => cell(view.hideHeader === true ? [] : [{ type: 'text', value: String(column(id).title ?? '').replace(/\s*\n\s*/g, ' ') }])),
  };
  const cells = new Map<string, FragmentNode>();
  for (const f of fragmentsOf(block)) if (!cells.has(f.fragment)) cells.set(f.fragment, f);
  const rows: MdNode[] = records.map(([, record]) => {
    const values = isRecord(record.values) ? record.values : {};
    return { type: 'tableRow', children: columns.map((id) => cell(cellPhrasing(cellContent(cells, values[id], options)))) };
  });
  const align = columns.map((id) => (column(id).textAlignment === 'center' || column(id).textAlignment === 'right' ? (column(id).textAlignment as string) : null));
  return { type: 'table', align, children: [header, ...rows] };
}
