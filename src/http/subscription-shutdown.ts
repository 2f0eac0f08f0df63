/**
 * Subscriptions end when the server stops. Over WebSocket, closing the sockets (1001) ends them;
 * over SSE nothing would until the grace period cut the connection, so every subscription's
 * stream is raced against `stopping`: once it aborts, the stream completes at once (yoga then
 * sends `event: complete` and ends the response) and its source is told to return.
 */
import type { Plugin } from 'graphql-yoga';

type Results = AsyncIterator<unknown> & { return?(value?: unknown): Promise<IteratorResult<unknown>> };

const DONE: IteratorResult<never> = { done: true, value: undefined };

function endingOn<T>(source: AsyncIterable<T>, stopping: AbortSignal): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]() as Results;
  let stopped: Promise<IteratorResult<never>> | undefined;
  const whenStopped = () =>
    (stopped ??= new Promise((resolve) => {
      if (stopping.aborted) return resolve(DONE);
      stopping.addEventListener('abort', () => resolve(DONE), { once: true });
    }));
  // The source may be busy (a generator awaiting its next value): its return is not awaited.
  const release = () => void iterator.return?.().catch(() => {});
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (stopping.aborted) return (release(), DONE);
      const result = await Promise.race([iterator.next(), whenStopped()]);
      if (stopping.aborted) release();
      return result as IteratorResult<T>;
    },
    async return() {
      release();
      return DONE;
    },
  };
}

export function useSubscriptionShutdown(stopping: AbortSignal): Plugin {
  return {
    onSubscribe() {
      return {
        onSubscribeResult({ result, setResult }) {
          if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
            setResult(endingOn(result as AsyncIterable<never>, stopping));
          }
        },
      };
    },
  };
}
