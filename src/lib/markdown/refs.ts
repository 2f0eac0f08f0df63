/**
 * Content references (`data.ref`) of links, images, files, content-refs and includes, to and from
 * the URLs markdown writes. On reading, every target stays a `{kind: 'url'}` (a relative path is
 * resolved to a page or file later by the caller, see links.ts) except a bare `#anchor`.
 */
import type { ContentRef } from '../documents/content-ref.js';
import { isRecord } from './nodes.js';

export type { ContentRef };

export type WriteOptions = {
  /** The path (relative to the page being written) of a page, for `{kind: 'page'}` references. */
  resolvePage?: (pageId: string) => string | undefined;
  /** The path of a file, for `{kind: 'file'}` references (images, files). */
  resolveFile?: (fileId: string) => string | undefined;
  /** The path of a reusable content, for `{% include %}`. */
  resolveReusableContent?: (reusableContentId: string) => string | undefined;
};

export function urlToRef(url: string): ContentRef {
  if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: url.slice(1) };
  return { kind: 'url', url };
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The URL to write for a reference; unknown kinds fall back to their first string field. */
export function refToUrl(ref: unknown, options: WriteOptions = {}): string {
  if (!isRecord(ref)) return '';
  const call = (fn: ((id: string) => string | undefined) | undefined, id: string) => {
    try {
      return fn?.(id) ?? id;
    } catch {
      return id;
    }
  };
  switch (ref.kind) {
    case 'url':
      return str(ref.url) ?? '';
    case 'page':
      return str(ref.page) ? call(options.resolvePage, ref.page as string) : '';
    case 'anchor': {
      const page = str(ref.page) ? call(options.resolvePage, ref.page as string) : '';
      return `${page}#${str(ref.anchor) ?? ''}`;
    }
    case 'file':
      return str(ref.file) ? call(options.resolveFile, ref.file as string) : '';
    case 'reusable-content':
      return str(ref.reusableContent) ? call(options.resolveReusableContent, ref.reusableContent as string) : '';
    default:
      for (const [field, value] of Object.entries(ref)) if (field !== 'kind' && typeof value === 'string') return value;
      return '';
  }
}

/** Absolute (`https:`, `mailto:`, `//host`) or in-page (`#x`) targets are not relative paths. */
export const isRelativeUrl = (url: string): boolean => url !== '' && !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url) && !url.startsWith('//') && !url.startsWith('#');
