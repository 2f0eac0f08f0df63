/**
 * The only ways text and URLs get into the published HTML: every string is escaped here, and
 * every `href`/`src` goes through `safeUrl`, which keeps http(s), mailto, relative and `#` URLs
 * and drops anything else (`javascript:`, `data:`, `vbscript:`…).
 */

import { escapeHtml } from '../../lib/html-escape.js';

export { escapeHtml };

const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto']);

/**
 * The URL to write in an `href`/`src`, or undefined when it must not be written. Browsers drop
 * tabs and newlines anywhere in a URL and control characters and spaces around it, so
 * `java\tscript:` is a scheme too: the URL is normalised the same way before its scheme is read.
 */
export function safeUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const url = value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  if (url === '') return undefined;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1];
  if (scheme !== undefined && !ALLOWED_SCHEMES.has(scheme.toLowerCase())) return undefined;
  // Remaining control characters have no business in a link.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(url)) return undefined;
  return url;
}

export type Attributes = Record<string, string | number | boolean | undefined | null>;

/**
 * ` name="value"` pairs: `true` writes a bare attribute, `false`/`undefined`/`null` leaves it
 * out. Names are written as given (they are constants of this module, never input).
 */
export function attrs(attributes: Attributes): string {
  let out = '';
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  return out;
}

/** `<name attrs>inner</name>`; `inner` is HTML already. */
export const element = (name: string, attributes: Attributes, inner: string): string => `<${name}${attrs(attributes)}>${inner}</${name}>`;

/** A class attribute value from parts, skipping empty ones. */
export const classes = (...parts: (string | false | undefined | null)[]): string | undefined => {
  const value = parts.filter(Boolean).join(' ');
  return value || undefined;
};

/** A class-name-safe token from data (a code language, a colour name): lower case, `[a-z0-9+#_-]`. */
export const classToken = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const token = value.toLowerCase().replace(/[^a-z0-9+#_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  return token || undefined;
};
