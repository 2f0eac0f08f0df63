/** A usable web font carries the core sfnt tables and one kind of glyph data. */
import { fontFileError } from './file-error.js';
import type { FontContainer } from './container.js';

const CORE_TABLES = ['head', 'hhea', 'maxp', 'OS/2', 'name', 'cmap', 'hmtx', 'post'];
/** TrueType outlines, CFF outlines, colour bitmaps. */
const GLYPH_DATA = [['glyf', 'loca'], ['CFF '], ['CFF2'], ['CBDT', 'CBLC'], ['sbix']];

export function checkRequiredTables({ tables }: FontContainer): void {
  const missing = CORE_TABLES.filter((tag) => !tables.has(tag));
  if (missing.length > 0) throw fontFileError(`the font lacks the required table(s) ${missing.map((t) => `"${t}"`).join(', ')}`);
  if (!GLYPH_DATA.some((set) => set.every((tag) => tables.has(tag)))) throw fontFileError('the font has no glyph data');
}
