/** Text of a fetched resource, and a title when the content has none. */
import type { FetchedResource } from '../tree.js';

/** The bytes decoded with their charset (UTF-8 when absent or unknown), without a byte-order mark. */
export function decodeText(resource: Pick<FetchedResource, 'bytes' | 'charset'>): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(resource.charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(resource.bytes).replace(/^\uFEFF/, '');
}

/** `getting-started.md` → `Getting started`; the host when the path has no name. */
export function titleFromUrl(url: string): string {
  const { pathname, hostname } = new URL(url);
  const name = decodeURIComponent(pathname.split('/').filter(Boolean).pop() ?? '').replace(/\.[a-z0-9]+$/i, '');
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : hostname || 'Imported page';
}
