/**
 * The fetcher of imports: GET over http(s) only, refusing non-public addresses (checked on the
 * address actually connected to), following redirects by hand so every hop is checked again,
 * bounded in time and size, and answering only the content types the caller reads.
 */
import http, { STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { ImportError } from '../import-readers/import-error.js';
import type { FetchedResource, FetchOptions, ImportLimits, SafeFetch } from '../import-readers/tree.js';
import { isPublicAddress } from './addresses.js';
import { ByteBudget, responseTooLarge } from './byte-budget.js';
import { isAccepted, parseContentType } from './content-type.js';
import { abortReason, blockedAddress, toImportError } from './fetch-errors.js';
import { guardedLookup } from './guarded-lookup.js';
import { ACCEPT_ENCODING, readBody } from './read-body.js';

export type SafeFetchOptions = {
  limits: ImportLimits;
  /** The job's signal: aborting it stops every fetch in flight. */
  signal?: AbortSignal;
  /** Lets imports read loopback and private addresses (an operator's choice, for intranets). */
  allowPrivateNetworks?: boolean;
  userAgent?: string;
};

export const DEFAULT_USER_AGENT = 'quire-import/1';
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * A fetcher for one import. `requestTimeoutMs` bounds each call (connect, headers, body, and its
 * redirects); the bytes of all its calls together are bounded by `maxTotalBytes`.
 */
export function createSafeFetch(options: SafeFetchOptions): SafeFetch {
  const { limits, signal } = options;
  const budget = new ByteBudget(limits.maxTotalBytes);
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;

  return async (input: string, fetchOptions: FetchOptions = {}): Promise<FetchedResource> => {
    if (signal?.aborted) throw abortReason(signal.reason);
    let url = checkedUrl(input, 'The address to import');
    const maxBytes = fetchOptions.maxBytes ?? limits.maxResponseBytes;
    const headers: OutgoingHttpHeaders = {
      'user-agent': userAgent,
      accept: fetchOptions.accept?.join(', ') || '*/*',
      'accept-encoding': ACCEPT_ENCODING,
    };

    // One controller ends the request in flight, whichever comes first: the time-out or the job's signal.
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new ImportError('FETCH_TIMEOUT', `${url.host} did not answer within ${formatSeconds(limits.requestTimeoutMs)}.`)),
      limits.requestTimeoutMs,
    );
    const onAbort = () => controller.abort(abortReason(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (let redirects = 0; ; redirects++) {
        const response = await send(url, headers, controller.signal, options.allowPrivateNetworks === true);
        try {
          const status = response.statusCode ?? 0;
          if (REDIRECT_STATUSES.has(status)) {
            if (redirects >= MAX_REDIRECTS) throw new ImportError('FETCH_ERROR', `${url.href} redirects more than ${MAX_REDIRECTS} times.`);
            url = redirectTarget(url, response.headers.location);
            continue;
          }
          if (status >= 400) {
            throw new ImportError('HTTP_ERROR', `The server answered ${status}${STATUS_CODES[status] ? ` (${STATUS_CODES[status]})` : ''} for ${url.href}.`);
          }
          if (status < 200 || status >= 300) throw new ImportError('FETCH_ERROR', `The server answered ${status} for ${url.href}.`);

          const { type, charset } = parseContentType(response.headers['content-type']);
          if (!isAccepted(type, fetchOptions.accept)) {
            throw new ImportError('UNSUPPORTED_CONTENT_TYPE', `${url.href} is ${type}, which this import does not read.`);
          }
          const declared = Number(response.headers['content-length']);
          if (Number.isFinite(declared)) {
            if (declared > maxBytes) throw responseTooLarge(url, maxBytes);
            budget.ensureRoomFor(declared);
          }
          const bytes = await readBody(response, url, maxBytes, budget);
          return { url: url.href, status, contentType: type, ...(charset ? { charset } : {}), bytes };
        } finally {
          response.destroy();
        }
      }
    } catch (error) {
      // Once aborted, whatever broke is a consequence of the abort: answer its reason.
      throw controller.signal.aborted ? (controller.signal.reason as ImportError) : toImportError(error, url);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  };
}

/** One GET, resolved with the response once its headers arrived. */
function send(url: URL, headers: OutgoingHttpHeaders, signal: AbortSignal, allowPrivate: boolean): Promise<IncomingMessage> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // Literal addresses never reach the lookup below, so they are checked here.
  if (!allowPrivate && isIP(hostname) && !isPublicAddress(hostname)) return Promise.reject(blockedAddress(hostname));
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      {
        protocol: url.protocol,
        hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers,
        signal,
        agent: false, // a fresh connection each time: no pooled socket from another lookup
        ...(allowPrivate ? {} : { lookup: guardedLookup }),
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

/** An http(s) URL without credentials, or FETCH_ERROR. */
function checkedUrl(input: string, what: string, base?: URL): URL {
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

function redirectTarget(from: URL, location: string | undefined): URL {
  if (!location) throw new ImportError('FETCH_ERROR', `${from.href} redirects without saying where to.`);
  return checkedUrl(location, `The redirect of ${from.href}`, from);
}

const formatSeconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);
