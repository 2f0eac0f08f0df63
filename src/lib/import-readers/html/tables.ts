/**
 * Tables before conversion: markdown tables are rectangular, so hast-util-to-mdast pads every row
 * to the widest and expands `colspan`: a few hostile cells (`colspan="1000000"`, one row of
 * thousands of cells above thousands of rows) could ask for billions of cells. Spans are clamped
 * and a table is cut to MAX_TABLE_CELLS (columns past MAX_COLUMNS, then rows) beforehand.
 */
import type { Element, Root } from 'hast';
import { eachElement } from './hast-walk.js';

export const MAX_TABLE_CELLS = 20_000;
const MAX_COLUMNS = 100;
const MAX_SPAN = 50;

const elements = (parent: Element) => parent.children.filter((c): c is Element => c.type === 'element');
const SECTIONS = new Set(['thead', 'tbody', 'tfoot']);

function span(cell: Element, name: 'colSpan' | 'rowSpan'): number {
  const value = Number(cell.properties[name]);
  const clamped = Number.isFinite(value) && value >= 1 ? Math.min(Math.floor(value), MAX_SPAN) : 1;
  cell.properties[name] = clamped;
  return clamped;
}

function boundTable(table: Element): void {
  const rows: { row: Element; parent: Element }[] = [];
  for (const child of elements(table)) {
    if (child.tagName === 'tr') rows.push({ row: child, parent: table });
    else if (SECTIONS.has(child.tagName)) for (const row of elements(child)) if (row.tagName === 'tr') rows.push({ row, parent: child });
  }
  let width = 1;
  for (const { row } of rows) {
    let columns = 0;
    // Cells past MAX_COLUMNS go; the others' spans are clamped.
    row.children = row.children.filter((cell) => {
      if (cell.type !== 'element' || (cell.tagName !== 'td' && cell.tagName !== 'th')) return true;
      if (columns >= MAX_COLUMNS) return false;
      span(cell, 'rowSpan');
      columns += span(cell, 'colSpan');
      return true;
    });
    width = Math.max(width, Math.min(columns, MAX_COLUMNS + MAX_SPAN));
  }
  const keep = Math.max(1, Math.floor(MAX_TABLE_CELLS / width));
  for (const { row, parent } of rows.slice(keep)) parent.children.splice(parent.children.indexOf(row), 1);
}

export function boundTables(content: Element | Root): void {
  eachElement(content, (element) => {
    if (element.tagName === 'table') boundTable(element);
  });
}
