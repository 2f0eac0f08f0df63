/**
 * Waits for a fetch of the crawl without letting it hold the crawl past its deadline or its
 * cancellation: the outcome, or `late`. An abandoned fetch ends on its own (request time-out).
 */
import { abortReason } from '../../../fetch/fetch-errors.js';

export type Settled<T> = { value: T } | { error: unknown } | 'late';

export function settle<T>(promise: Promise<T>, signal: AbortSignal, timeoutMs: number): Promise<Settled<T>> {
  return new Promise((resolve) => {
    const onAbort = () => finish({ error: abortReason(signal.reason) });
    const timer = setTimeout(() => finish('late'), Math.max(0, timeoutMs));
    function finish(outcome: Settled<T>) {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    }
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => finish({ value }),
      (error: unknown) => finish({ error }),
    );
  });
}
