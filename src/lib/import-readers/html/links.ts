/** The pages a page links to, for a crawler: its content's `<a href>`s. */
import type { Element, Root } from 'hast';
import { eachElement } from './hast-walk.js';

/** Longer URLs are left out of the markdown and the links (no real link is that long). */
export const MAX_URL_LENGTH = 8192;

/** Schemes whose links are not pages (and are not kept as links in the markdown either). */
export const SCRIPT_SCHEMES = /^\s*(?:javascript|vbscript|data):/i;
const NOT_PAGES = /^\s*(?:javascript|vbscript|data|mailto|tel|sms|about|blob|file):/i;

/**
 * With `baseUrl`: absolute http(s) URLs, resolved against it. Without: the hrefs as written.
 * Either way without their fragment (`a#x` and `a#y` are one page), fragment-only links,
 * script and mail links left out, each URL once, in document order.
 */
export function contentLinks(content: Element | Root, baseUrl?: string): string[] {
  const links = new Set<string>();
  let base: URL | undefined;
  try {
    base = baseUrl ? new URL(baseUrl) : undefined;
  } catch {
    base = undefined;
  }
  eachElement(content, (element) => {
    if (element.tagName !== 'a') return;
    const href = element.properties.href;
    if (typeof href !== 'string' || href.length > MAX_URL_LENGTH) return;
    const written = href.trim();
    if (!written || written.startsWith('#') || NOT_PAGES.test(written)) return;
    if (!baseUrl) {
      links.add(written.replace(/#.*$/, ''));
      return;
    }
    if (!base || !URL.canParse(written, base)) return;
    const url = new URL(written, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    url.hash = '';
    links.add(url.href);
  });
  return [...links];
}
