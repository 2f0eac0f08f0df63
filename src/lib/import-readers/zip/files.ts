/** The archive's files other than pages: every image, and whatever `.gitbook/assets/` holds. */
import type { ImportedFile } from '../tree.js';
import { baseName, extensionOf } from './archive-path.js';

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  ico: 'image/x-icon',
  avif: 'image/avif',
};

// Common uploads of `.gitbook/assets/` besides images; anything else is a plain byte stream.
const OTHER_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  md: 'text/markdown',
};

const ASSETS = /(^|\/)\.gitbook\/assets\//;

const typeIn = (types: Record<string, string>, extension: string) => (Object.hasOwn(types, extension) ? types[extension] : undefined);

export const isImagePath = (path: string) => typeIn(IMAGE_TYPES, extensionOf(path)) !== undefined;

/** Whether the entry can become a file; `path` may still hold a wrapping folder or the root. */
export const isAssetPath = (path: string) => isImagePath(path) || ASSETS.test(path);

/** The content type a file's extension gives; anything unknown is a plain byte stream. */
export function contentTypeOf(path: string): string {
  const extension = extensionOf(path);
  return typeIn(IMAGE_TYPES, extension) ?? typeIn(OTHER_TYPES, extension) ?? 'application/octet-stream';
}

export function importedFile(path: string, bytes: Uint8Array): ImportedFile {
  return { source: path, name: baseName(path), contentType: contentTypeOf(path), bytes };
}
