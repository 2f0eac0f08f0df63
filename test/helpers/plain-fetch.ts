/**
 * The import's own safe fetcher for source tests, allowed to reach 127.0.0.1 (where the tests
 * serve their sources); test/safe-fetch.test.ts checks what it refuses by default.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSafeFetch } from '../../src/lib/fetch/index.js';
import { DEFAULT_IMPORT_LIMITS, type SafeFetch, type SourceContext } from '../../src/lib/import-readers/tree.js';

export const plainFetch: SafeFetch = (url, options) => createSafeFetch({ limits: DEFAULT_IMPORT_LIMITS, allowPrivateNetworks: true })(url, options);

export const plainContext = (signal: AbortSignal = new AbortController().signal): SourceContext => ({
  fetch: createSafeFetch({ limits: DEFAULT_IMPORT_LIMITS, allowPrivateNetworks: true, signal }),
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
