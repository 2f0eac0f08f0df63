/**
 * Opens the font with fontkit and decodes the core tables. fontkit decodes tables lazily and
 * answers `undefined` for a table it failed to decode, so each one is read and checked here.
 */
import { create } from 'fontkit';
import { fontFileError } from './file-error.js';

/** The part of fontkit's font object this module reads (its typings omit most tables). */
export interface FontkitFont {
  head?: { magicNumber: number; unitsPerEm: number; indexToLocFormat: number; macStyle?: { italic?: boolean } };
  hhea?: { numberOfMetrics: number };
  maxp?: { numGlyphs: number };
  'OS/2'?: { usWeightClass: number; fsSelection?: { italic?: boolean } };
  name?: { records: unknown };
  cmap?: { tables: unknown[] };
  hmtx?: unknown;
  post?: unknown;
  directory: { tables: Record<string, { transformed?: boolean }> };
  getName(key: string): unknown;
  getGlyph(id: number): unknown;
}

const HEAD_MAGIC = 0x5f0f3cf5;

export function openWithFontkit(bytes: Uint8Array): FontkitFont {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const font = create(buffer) as unknown as FontkitFont & { fonts?: unknown };
  if (font.fonts !== undefined) throw fontFileError('font collections are not supported; upload a single font');
  for (const tag of ['head', 'hhea', 'maxp', 'OS/2', 'name', 'cmap', 'hmtx', 'post'] as const) {
    if (font[tag] === undefined) throw fontFileError(`the "${tag}" table cannot be read`);
  }
  const { head, maxp, cmap } = font;
  if (head!.magicNumber !== HEAD_MAGIC) throw fontFileError('the "head" table is corrupt');
  if (head!.unitsPerEm < 16 || head!.unitsPerEm > 16384) throw fontFileError('the "head" table has an invalid unitsPerEm');
  if (!(maxp!.numGlyphs > 0)) throw fontFileError('the font has no glyphs');
  if (cmap!.tables.length === 0) throw fontFileError('the "cmap" table maps no characters');
  // A WOFF2-transformed glyf table is decoded (linearly) when the first glyph is asked for.
  if (font.directory.tables.glyf?.transformed) font.getGlyph(0);
  return font;
}
