/**
 * A general request (any method, a body, the response streamed) with the fetcher's protections:
 * http(s) only, non-public addresses refused on every hop (the address connected to is the one
 * checked), redirects followed by hand and checked again, credential headers never sent to
 * another origin, the job's signal and an idle time-out ending it. Git sync's transport uses it;
 * the caller counts the bytes it reads (its own budget and error). Webhook deliveries use it with
 * `followRedirects: false`: a redirect is answered as it came, for the caller to refuse.
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import { ImportError } from '../import-readers/import-error.js';
import { abortReason, toImportError } from './fetch-errors.js';
import { checkedUrl, formatSeconds, MAX_REDIRECTS, REDIRECT_STATUSES, redirectTarget, send, tooManyRedirects } from './hop.js';
import { ACCEPT_ENCODING, decodersFor } from './read-body.js';
import { DEFAULT_USER_AGENT } from './safe-fetch.js';

export type SafeRequestOptions = {
  /** The job's signal: aborting it stops every request in flight. */
  signal?: AbortSignal;
  /** Lets requests reach loopback and private addresses (an operator's choice, for intranets). */
  allowPrivateNetworks?: boolean;
  /** The longest wait for the response's headers, and between two chunks of its body, in ms. */
  idleTimeoutMs: number;
  userAgent?: string;
  /** How a refused address is explained (`git sync only reaches public addresses`). */
  addressPolicy?: string;
  /** Follow redirects (checked again on each hop; the default), or answer the redirect itself. */
  followRedirects?: boolean;
};

export type SafeRequestInit = { url: string; method: string; headers?: Record<string, string>; body?: Uint8Array };

export type SafeResponse = {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  statusMessage: string;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body, decompressed, as it arrives; iterate it once. */
  body: AsyncIterableIterator<Uint8Array>;
  /** Ends the request without reading (the rest of) the body. */
  close(): void;
};

export type SafeRequest = (init: SafeRequestInit) => Promise<SafeResponse>;

/** Headers that carry credentials: sent only to the origin they were meant for. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export function createSafeRequest(options: SafeRequestOptions): SafeRequest {
  const { signal, idleTimeoutMs, addressPolicy } = options;
  const allowPrivate = options.allowPrivateNetworks === true;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const followRedirects = options.followRedirects !== false;

  return async (init: SafeRequestInit): Promise<SafeResponse> => {
    if (signal?.aborted) throw abortReason(signal.reason);
    let url = checkedUrl(init.url, 'The address');
    const origin = url.origin;
    let headers: OutgoingHttpHeaders = { 'user-agent': userAgent, 'accept-encoding': ACCEPT_ENCODING, ...lowerCased(init.headers ?? {}) };

    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => controller.abort(new ImportError('FETCH_TIMEOUT', `${url.host} did not answer within ${formatSeconds(idleTimeoutMs)}.`)),
        idleTimeoutMs,
      );
    };
    const onAbort = () => controller.abort(abortReason(signal?.reason));
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const failure = (error: unknown) => (controller.signal.aborted ? (controller.signal.reason as ImportError) : toImportError(error, url, addressPolicy));
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();

    try {
      for (let redirects = 0; ; redirects++) {
        const response = await send({ url, method: init.method, headers, body: init.body, signal: controller.signal, allowPrivate, addressPolicy });
        const status = response.statusCode ?? 0;
        if (!followRedirects || !REDIRECT_STATUSES.has(status)) return streamed(response, url, status, arm, done, failure);
        response.destroy();
        if (redirects >= MAX_REDIRECTS) throw tooManyRedirects(url);
        // A 303 turns the request into a GET: no use to a request that sends a body.
        if (status === 303 && init.method !== 'GET') throw new ImportError('FETCH_ERROR', `${url.href} redirects a ${init.method} request to a GET.`);
        url = redirectTarget(url, response.headers.location);
        if (url.origin !== origin && !isUpgradeOf(url, origin)) headers = withoutCredentials(headers);
      }
    } catch (error) {
      done();
      throw failure(error);
    }
  };
}

function streamed(
  response: IncomingMessage,
  url: URL,
  status: number,
  progress: () => void,
  done: () => void,
  failure: (error: unknown) => ImportError,
): SafeResponse {
  let decoded: Readable;
  try {
    const decoders = decodersFor(response.headers['content-encoding'], url);
    decoded = (decoders.length > 0 ? pipeline([response, ...decoders], () => {}) : response) as Readable;
  } catch (error) {
    response.destroy();
    throw error;
  }
  const close = () => {
    done();
    response.destroy();
  };
  async function* body(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of decoded as AsyncIterable<Buffer>) {
        progress();
        yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      }
    } catch (error) {
      throw failure(error);
    } finally {
      close();
    }
  }
  return { url: url.href, status, statusMessage: response.statusMessage ?? '', headers: flatHeaders(response), body: body(), close };
}

/** The same host moving from http to https keeps its credentials (an upgrade, not another party). */
function isUpgradeOf(url: URL, origin: string): boolean {
  const from = new URL(origin);
  return from.protocol === 'http:' && url.protocol === 'https:' && from.hostname === url.hostname;
}

function withoutCredentials(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name)));
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function flatHeaders(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
