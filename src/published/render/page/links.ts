/** Links of the page chrome: an unsafe or missing `href` is written as text. */
import { attrs, element, escapeHtml, safeUrl, type Attributes } from '../html.js';

/** `inner` is HTML; `title` is escaped when `inner` is not given. */
export function linkHtml(href: string | undefined, title: string, extra: Attributes = {}, inner?: string): string {
  const url = safeUrl(href);
  const content = inner ?? escapeHtml(title);
  if (url === undefined) return element('span', { class: extra.class }, content);
  return `<a${attrs({ href: url, ...extra })}>${content}</a>`;
}
