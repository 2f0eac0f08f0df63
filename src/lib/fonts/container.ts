/** What the WOFF and WOFF2 readers hand on: the sfnt flavour and each table's decompressed bytes. */
import { fontFileError } from './file-error.js';
import { MAX_DECODED_BYTES, MAX_TABLES } from './limits.js';

export type FontFormat = 'woff' | 'woff2';

export interface SfntTable {
  /** Decompressed table bytes (for WOFF2-transformed tables, the transformed form). */
  data: Uint8Array;
  transformed: boolean;
}

export interface FontContainer {
  format: FontFormat;
  tables: Map<string, SfntTable>;
}

const TRUETYPE = 0x00010000;
const OPENTYPE_CFF = 0x4f54544f; // 'OTTO'
const APPLE_TRUE = 0x74727565; // 'true'
const COLLECTION = 0x74746366; // 'ttcf'

/** The flavour field names the wrapped font: TrueType or CFF outlines; collections are refused. */
export function checkFlavor(flavor: number): void {
  if (flavor === COLLECTION) throw fontFileError('font collections are not supported; upload a single font');
  if (flavor !== TRUETYPE && flavor !== OPENTYPE_CFF && flavor !== APPLE_TRUE) {
    throw fontFileError('the wrapped font is neither TrueType nor OpenType');
  }
}

/** The header states the file's total size; anything else is a truncated or padded file. */
export function checkDeclaredLength(declared: number, actual: number): void {
  if (actual < declared) throw fontFileError(`the file is truncated (${actual} of ${declared} bytes)`);
  if (actual > declared) throw fontFileError('the file has data after its declared end');
}

export function checkTableCount(count: number): void {
  if (count === 0) throw fontFileError('the font has no tables');
  if (count > MAX_TABLES) throw fontFileError(`the font has ${count} tables, more than the ${MAX_TABLES} accepted`);
}

/** Optional metadata/private blocks must lie inside the file. */
export function checkBlock(offset: number, length: number, fileLength: number, what: string): void {
  if (length === 0) return;
  if (offset + length > fileLength) throw fontFileError(`the ${what} block lies outside the file`);
}

export function checkDecodedTotal(total: number): void {
  if (total > MAX_DECODED_BYTES) {
    throw fontFileError(`the font decompresses to more than ${MAX_DECODED_BYTES / (1024 * 1024)} MiB`);
  }
}
