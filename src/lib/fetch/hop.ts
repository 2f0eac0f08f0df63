/**
 * One hop of a safe request, shared by the GET fetcher of imports and the general request of git
 * sync: the URL checks (http(s) only, no credentials), the address check of literal hosts (names
 * are checked by the guarded lookup, on the address actually connected to), and the redirect rules.
 */
import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { ImportError } from '../import-readers/import-error.js';
import { isPublicAddress } from './addresses.js';
import { blockedAddress } from './fetch-errors.js';
import { guardedLookup } from './guarded-lookup.js';

export const MAX_REDIRECTS = 5;
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export type Hop = {
  url: URL;
  method: string;
  headers: OutgoingHttpHeaders;
  body?: Uint8Array;
  signal: AbortSignal;
  allowPrivate: boolean;
  /** How a refused address is explained (`imports only read public addresses`). */
  addressPolicy?: string;
};

/** One request, resolved with the response once its headers arrived. */
export function send(hop: Hop): Promise<IncomingMessage> {
  const { url, allowPrivate } = hop;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // Literal addresses never reach the lookup below, so they are checked here.
  if (!allowPrivate && isIP(hostname) && !isPublicAddress(hostname)) return Promise.reject(blockedAddress(hostname, hop.addressPolicy));
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      {
        protocol: url.protocol,
        hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: hop.method,
        headers: hop.body ? { ...hop.headers, 'content-length': String(hop.body.byteLength) } : hop.headers,
        signal: hop.signal,
        agent: false, // a fresh connection each time: no pooled socket from another lookup
        ...(allowPrivate ? {} : { lookup: guardedLookup }),
      },
      resolve,
    );
    request.on('error', reject);
    request.end(hop.body);
  });
}

/** An http(s) URL without credentials, or FETCH_ERROR. */
export function checkedUrl(input: string, what: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new ImportError('FETCH_ERROR', `${what} is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImportError('FETCH_ERROR', `${what} must be an http or https URL.`);
  }
  if (url.username || url.password) {
    throw new ImportError('FETCH_ERROR', `${what} must not contain a user name or password.`);
  }
  return url;
}

export function redirectTarget(from: URL, location: string | undefined): URL {
  if (!location) throw new ImportError('FETCH_ERROR', `${from.href} redirects without saying where to.`);
  return checkedUrl(location, `The redirect of ${from.href}`, from);
}

export const tooManyRedirects = (url: URL) => new ImportError('FETCH_ERROR', `${url.href} redirects more than ${MAX_REDIRECTS} times.`);

export const formatSeconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);
