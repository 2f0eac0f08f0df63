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

/**
 * A user mention in markdown: a link to `mention:<userId>` (`[@usr_1](mention:usr_1)`, or
 * `<a href="mention:usr_1">` where the dialect writes HTML). The writer writes user mentions so;
 * the reader reads such a link as a mention (its text is not kept: a mention is void). Mentions of
 * pages and other references stay links to where they point.
 */
const MENTION_SCHEME = 'mention:';

/** The user a `mention:` URL names, or null (another URL, or not an ID's characters). */
export function mentionedUserOfUrl(url: string): string | null {
  if (!url.startsWith(MENTION_SCHEME)) return null;
  const user = url.slice(MENTION_SCHEME.length);
  return /^[A-Za-z0-9_-]{1,100}$/.test(user) ? user : null;
}

/** The URL and link text of a user mention's reference; null for another reference. */
export function userMentionLink(ref: unknown): { url: string; text: string } | null {
  if (!isRecord(ref) || ref.kind !== 'user' || typeof ref.user !== 'string') return null;
  const url = `${MENTION_SCHEME}${ref.user}`;
  return mentionedUserOfUrl(url) ? { url, text: `@${ref.user}` } : null;
}

/** Absolute (`https:`, `mailto:`, `//host`) or in-page (`#x`) targets are not relative paths. */
export const isRelativeUrl = (url: string): boolean => url !== '' && !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url) && !url.startsWith('//') && !url.startsWith('#');
