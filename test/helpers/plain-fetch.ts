/**
 * A stand-in for the import's safe fetcher in source tests: Node's global fetch, answering a
 * FetchedResource and checking status and accepted types as the safe fetcher does. It does not
 * refuse private addresses (tests serve from 127.0.0.1).
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ImportError } from '../../src/domain/imports/import-error.js';
import { DEFAULT_IMPORT_LIMITS, type SafeFetch, type SourceContext } from '../../src/domain/imports/tree.js';

export const plainFetch: SafeFetch = async (url, options) => {
  const response = await fetch(url);
  if (!response.ok) throw new ImportError('HTTP_ERROR', `The server answered ${response.status}.`);
  const [type = '', ...params] = (response.headers.get('content-type') ?? '').split(';');
  const contentType = type.trim().toLowerCase();
  if (options?.accept && !options.accept.includes(contentType)) throw new ImportError('UNSUPPORTED_CONTENT_TYPE', `Unsupported content type ${contentType}.`);
  const charset = params
    .map((p) => p.trim())
    .find((p) => p.toLowerCase().startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  return { url: response.url, status: response.status, contentType, ...(charset ? { charset } : {}), bytes: new Uint8Array(await response.arrayBuffer()) };
};

export const plainContext = (signal: AbortSignal = new AbortController().signal): SourceContext => ({
  fetch: plainFetch,
  limits: DEFAULT_IMPORT_LIMITS,
  signal,
  progress: () => {},
});

/** A server on 127.0.0.1 for the test file; `close` in afterAll. */
export async function localServer(handler: RequestListener): Promise<{ url: (path: string) => string; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
