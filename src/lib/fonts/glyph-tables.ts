/**
 * Consistency of the per-glyph tables with `maxp`: `hmtx` holds a metric for every glyph and
 * an untransformed `loca` indexes `glyf` in order and within bounds. Glyph outlines themselves
 * are not expanded: composite glyphs can be crafted to make that exponential.
 */
import { ByteReader } from './byte-reader.js';
import { fontFileError } from './file-error.js';
import type { FontContainer } from './container.js';

export interface GlyphCounts {
  numGlyphs: number;
  numberOfMetrics: number;
  /** head.indexToLocFormat: 0 short offsets, 1 long offsets. */
  indexToLocFormat: number;
}

export function checkGlyphTables({ tables }: FontContainer, counts: GlyphCounts): void {
  const { numGlyphs, numberOfMetrics } = counts;
  if (numberOfMetrics < 1 || numberOfMetrics > numGlyphs) throw fontFileError('the "hhea" table is inconsistent');
  const hmtx = tables.get('hmtx');
  if (hmtx && hmtx.data.length < 4 * numberOfMetrics + 2 * (numGlyphs - numberOfMetrics)) {
    throw fontFileError('the "hmtx" table is truncated');
  }
  const loca = tables.get('loca');
  const glyf = tables.get('glyf');
  if (loca && glyf && !loca.transformed) checkLoca(loca.data, glyf.data.length, counts);
}

function checkLoca(data: Uint8Array, glyfLength: number, { numGlyphs, indexToLocFormat }: GlyphCounts): void {
  if (indexToLocFormat !== 0 && indexToLocFormat !== 1) throw fontFileError('the "head" table is inconsistent');
  const reader = new ByteReader(data, 0, 'the "loca" table');
  const read = indexToLocFormat === 0 ? () => reader.u16() * 2 : () => reader.u32();
  let previous = 0;
  for (let i = 0; i <= numGlyphs; i++) {
    const offset = read();
    if (offset < previous || offset > glyfLength) throw fontFileError('the "loca" table is inconsistent with "glyf"');
    previous = offset;
  }
}
