/**
 * The fetcher of imports: GET over http(s) only, refusing non-public addresses (checked on the
 * address actually connected to), following redirects by hand so every hop is checked again,
 * bounded in time and size, and answering only the content types the caller reads.
 */
import { STATUS_CODES, type OutgoingHttpHeaders } from 'node:http';
import { ImportError } from '../import-readers/import-error.js';
import type { FetchedResource, FetchOptions, ImportLimits, SafeFetch } from '../import-readers/tree.js';
import { ByteBudget, responseTooLarge } from './byte-budget.js';
import { isAccepted, parseContentType } from './content-type.js';
import { abortReason, toImportError } from './fetch-errors.js';
import { checkedUrl, formatSeconds, MAX_REDIRECTS, REDIRECT_STATUSES, redirectTarget, send, tooManyRedirects } from './hop.js';
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
export { MAX_REDIRECTS };

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
        const response = await send({ url, method: 'GET', headers, signal: controller.signal, allowPrivate: options.allowPrivateNetworks === true });
        try {
          const status = response.statusCode ?? 0;
          if (REDIRECT_STATUSES.has(status)) {
            if (redirects >= MAX_REDIRECTS) throw tooManyRedirects(url);
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
