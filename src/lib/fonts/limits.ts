/** Bounds applied to uploaded font files before and while they are parsed. */

/** Default largest accepted upload (the compressed WOFF/WOFF2 file). */
export const DEFAULT_MAX_FONT_BYTES = 10 * 1024 * 1024;
/** Largest total of decompressed tables: keeps decompression bombs from exhausting memory. */
export const MAX_DECODED_BYTES = 32 * 1024 * 1024;
/** Real fonts carry a few dozen tables; the sfnt format allows 65535. */
export const MAX_TABLES = 128;
/** Name records may share string storage; this bounds what decoding them all costs. */
export const MAX_NAME_STRING_BYTES = 1024 * 1024;
