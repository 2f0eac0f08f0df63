/**
 * A Notion database's CSV → a table page's markdown. The first column is the database's title
 * property: a row whose page was exported links to it. Tables are bounded like converted HTML
 * ones (html/tables.ts): columns past MAX_COLUMNS and rows past MAX_TABLE_CELLS are left out, and
 * the page says how many rows were.
 */
import { parse } from 'csv-parse/sync';
import { stringifyMdast, type MdNode } from '../../../markdown/remark.js';
import { MAX_TABLE_CELLS } from '../../html/tables.js';

const MAX_COLUMNS = 100;

/**
 * The records of a CSV text (csv-parse: RFC 4180, a byte-order mark dropped, ragged rows kept);
 * parsing stops once `maxRecords` are read. A text it cannot read gives no records.
 */
export function parseCsv(text: string, maxRecords?: number): string[][] {
  try {
    return parse(text, { bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, to: maxRecords });
  } catch {
    return [];
  }
}

/** Text with the `[title](/path)` links `relations` wrote, as nodes. */
function inline(value: string): MdNode[] {
  const nodes: MdNode[] = [];
  let at = 0;
  for (const match of value.matchAll(/\[((?:\\.|[^\]\\])*)\]\((\/[^\s)]*)\)/g)) {
    if (match.index > at) nodes.push(text(value.slice(at, match.index), false));
    nodes.push({ type: 'link', url: match[2], children: [text(match[1].replace(/\\(.)/g, '$1'))] });
    at = match.index + match[0].length;
  }
  if (at < value.length) nodes.push(text(value.slice(at), false));
  return nodes;
}

const text = (value: string, trim = true): MdNode => ({ type: 'text', value: trim ? value.replace(/\s*\r?\n\s*/g, ' ').trim() : value.replace(/\s*\r?\n\s*/g, ' ') });

/**
 * `title` as a heading, then the table; `rowLink(title)` names the page of a row (its first
 * cell), when exported.
 */
export function csvToMarkdown(title: string, csv: string, rowLink: (name: string) => string | undefined, relations?: (cell: string) => string): string {
  const [header = [], ...rows] = parseCsv(csv);
  const width = Math.min(MAX_COLUMNS, Math.max(1, header.length, ...rows.slice(0, 1000).map((r) => r.length)));
  const keep = Math.max(1, Math.floor(MAX_TABLE_CELLS / width) - 1);
  const shown = rows.slice(0, keep);
  const cell = (value: string, column: number): MdNode => {
    const link = column === 0 && value.trim() ? rowLink(value.trim()) : undefined;
    if (link) return { type: 'tableCell', children: [{ type: 'link', url: link, children: [text(value)] }] };
    return { type: 'tableCell', children: value.trim() ? inline(relations ? relations(value) : value) : [] };
  };
  const row = (values: string[]): MdNode => ({ type: 'tableRow', children: Array.from({ length: width }, (_, i) => cell(values[i] ?? '', i)) });
  const nodes: MdNode[] = [{ type: 'heading', depth: 1, children: [{ type: 'text', value: title }] }];
  if (header.length) nodes.push({ type: 'table', align: Array.from({ length: width }, () => null), children: [row(header), ...shown.map(row)] });
  if (rows.length > shown.length) {
    nodes.push({ type: 'paragraph', children: [{ type: 'text', value: `${rows.length - shown.length} more rows are in the exported database and not shown here.` }] });
  }
  return `${stringifyMdast(nodes)}\n`;
}
