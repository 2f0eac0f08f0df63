/**
 * One attempt of a delivery: a POST through the safe request (private addresses refused unless
 * allowed, checked on the address connected to), redirects not followed, at most `timeoutMs` for
 * the whole exchange, and at most 64 KiB of the answer read (then the connection is closed: a
 * receiver cannot hold a slot by talking). 2xx is delivered; anything else is a failure, described
 * without internal detail.
 */
import { ImportError } from '../../lib/import-readers/import-error.js';
import { createSafeRequest } from '../../lib/fetch/safe-request.js';
import { REDIRECT_STATUSES } from '../../lib/fetch/hop.js';
import type { AttemptOutcome } from '../../domain/webhooks/delivery.js';

const MAX_ANSWER_BYTES = 64 * 1024;
const ADDRESS_POLICY = 'webhooks only reach public addresses (QUIRE_FETCH_ALLOW_PRIVATE_NETWORKS)';

export type SendOptions = { timeoutMs: number; allowPrivateNetworks: boolean; userAgent: string };

export async function sendWebhook(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(options.timeoutMs);
  const request = createSafeRequest({
    signal,
    idleTimeoutMs: options.timeoutMs,
    allowPrivateNetworks: options.allowPrivateNetworks,
    userAgent: options.userAgent,
    addressPolicy: ADDRESS_POLICY,
    followRedirects: false,
  });
  try {
    const response = await request({ url, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: new TextEncoder().encode(body) });
    try {
      let read = 0;
      for await (const chunk of response.body) if ((read += chunk.byteLength) >= MAX_ANSWER_BYTES) break;
    } catch {
      // The status is what counts; an answer cut short does not undo it.
    } finally {
      response.close();
    }
    const ok = response.status >= 200 && response.status < 300;
    const error = ok ? null : REDIRECT_STATUSES.has(response.status) ? `HTTP ${response.status}: redirects are not followed` : `HTTP ${response.status}`;
    return { ok, statusCode: response.status, latencyMs: latency(), error };
  } catch (error) {
    const timedOut = signal.aborted;
    const message = timedOut ? `No answer within ${options.timeoutMs / 1000} s` : error instanceof ImportError ? error.message : 'The request failed';
    return { ok: false, statusCode: null, latencyMs: latency(), error: message };
  }
}
