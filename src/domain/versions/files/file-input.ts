/** Files as uploaded: validated, typed and measured before they are stored. */
import { imageSize } from 'image-size';
import path from 'node:path';
import { badRequest } from '../../../lib/errors.js';

/** At most this many bytes per file (README › Limits). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** Inline (base64) files of the REST batch: the public document's limit. */
export const MAX_INLINE_FILE_BYTES = 1024 * 1024;
const NAME_MAX = 256;

const TYPES: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf', '.txt': 'text/plain', '.md': 'text/markdown', '.csv': 'text/csv', '.json': 'application/json', '.zip': 'application/zip',
};

export type IncomingFile = { name: string; contentType: string; bytes: Uint8Array; dimensions?: { width: number; height: number } };

/** Checks a file's name and size, settles its type (given, or from its name) and reads an image's dimensions from its bytes. */
export function acceptFile(raw: { name: string; contentType?: string | null; bytes: Uint8Array }, field: string): IncomingFile {
  const checked = checkFile({ name: raw.name, contentType: raw.contentType, size: raw.bytes.byteLength }, field);
  return { ...checked, bytes: raw.bytes, dimensions: imageDimensions(checked.contentType, raw.bytes) };
}

/** Checks a file's name and size, settles its type (given, or from its name): a file not read yet. */
export function checkFile(raw: { name: string; contentType?: string | null; size: number }, field: string): { name: string; contentType: string } {
  const name = raw.name.trim();
  if (!name || name.length > NAME_MAX || /[/\\\0]/.test(name)) throw badRequest(`Invalid value for "${field}.name": 1 to ${NAME_MAX} characters, no slashes`, `${field}.name`);
  if (raw.size > MAX_FILE_BYTES) throw tooLarge(field);
  const contentType = (raw.contentType?.trim() || TYPES[path.extname(name).toLowerCase()] || 'application/octet-stream').toLowerCase();
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(contentType)) throw badRequest(`Invalid value for "${field}.contentType": not a media type`, `${field}.contentType`);
  return { name, contentType };
}

/** The answer to a file past MAX_FILE_BYTES. */
export const tooLarge = (field: string) => badRequest(`Invalid value for "${field}": files are limited to ${MAX_FILE_BYTES} bytes`, field);

/** The first bytes of a file that image dimensions are read from when the file is not read whole (headers come first in the formats image-size reads). */
export const IMAGE_HEAD_BYTES = 512 * 1024;

/** An image's dimensions, from its bytes (or their first IMAGE_HEAD_BYTES). */
export function imageDimensions(contentType: string, bytes: Uint8Array): { width: number; height: number } | undefined {
  return contentType.startsWith('image/') ? dimensionsOf(bytes) : undefined;
}

function dimensionsOf(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : undefined;
  } catch {
    // Not an image after all (or a format image-size does not read): no dimensions.
    return undefined;
  }
}

/** Bytes of an inline base64 file, bounded. */
export function decodeBase64(value: string, field: string): Uint8Array {
  if (!/^[A-Za-z0-9+/=\s_-]*$/.test(value)) throw badRequest(`Invalid value for "${field}": not base64`, field);
  const bytes = Buffer.from(value, 'base64');
  if (bytes.byteLength > MAX_INLINE_FILE_BYTES) throw badRequest(`Invalid value for "${field}": inline files are limited to ${MAX_INLINE_FILE_BYTES} bytes`, field);
  return bytes;
}
