/**
 * Reads an uploaded font file: only real WOFF or WOFF2 is accepted. The size is bounded first, the
 * container is checked and decompressed natively with bounds, fragile tables are checked structurally,
 * and only then does fontkit decode the core tables. Any failure becomes a 400 on `file`.
 */
import { AppError } from '../errors.js';
import type { FontContainer, FontFormat } from './container.js';
import { fontFileError } from './file-error.js';
import { readFontMetadata, type FontMetadata } from './font-metadata.js';
import { openWithFontkit } from './fontkit-font.js';
import { checkGlyphTables } from './glyph-tables.js';
import { DEFAULT_MAX_FONT_BYTES } from './limits.js';
import { checkNameTable } from './name-table.js';
import { checkRequiredTables } from './required-tables.js';
import { describeSignature } from './signature.js';
import { readWoff } from './woff.js';
import { readWoff2 } from './woff2.js';

export interface FontFileInfo extends FontMetadata {
  format: FontFormat;
  contentType: 'font/woff' | 'font/woff2';
}

export interface ReadFontFileOptions {
  /** Largest accepted file in bytes; 10 MiB by default. */
  maxBytes?: number;
}

export function readFontFile(bytes: Uint8Array, options: ReadFontFileOptions = {}): FontFileInfo {
  if (!(bytes instanceof Uint8Array)) throw fontFileError('expected the bytes of a font file');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FONT_BYTES;
  if (bytes.length === 0) throw fontFileError('the file is empty');
  if (bytes.length > maxBytes) {
    throw fontFileError(`the file is ${bytes.length} bytes, more than the ${maxBytes} bytes accepted`);
  }
  const format = describeSignature(bytes);
  try {
    const container: FontContainer = format === 'woff' ? readWoff(bytes) : readWoff2(bytes);
    checkRequiredTables(container);
    checkNameTable(container.tables.get('name')!.data);
    const font = openWithFontkit(bytes);
    checkGlyphTables(container, {
      numGlyphs: font.maxp!.numGlyphs,
      numberOfMetrics: font.hhea!.numberOfMetrics,
      indexToLocFormat: font.head!.indexToLocFormat,
    });
    return { format, contentType: `font/${format}`, ...readFontMetadata(font) };
  } catch (error) {
    if (error instanceof AppError) throw error;
    // fontkit and the decoders throw plain errors (including RangeError on runaway recursion).
    throw fontFileError(`the ${format.toUpperCase()} font data is corrupt and cannot be read`);
  }
}
