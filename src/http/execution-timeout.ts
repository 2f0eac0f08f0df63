/**
 * A time limit on executing one GraphQL operation (HTTP, REST and WebSocket alike): past it the
 * client gets a TIMEOUT error instead of waiting. The cost limit bounds how much an operation may
 * ask for and the database's statement timeout bounds each query; this bounds the whole, so that
 * nothing holds a client (or a connection slot of a proxy) indefinitely. The work already started
 * finishes in the background: JavaScript cannot abort it, and it is bounded by the other limits.
 */
import { createGraphQLError, type Plugin } from 'graphql-yoga';

export function useExecutionTimeout(ms: number): Plugin {
  if (ms <= 0) return {};
  const timedOut = () => ({
    errors: [createGraphQLError(`The operation took longer than ${ms / 1000} s and was abandoned`, { extensions: { code: 'TIMEOUT', http: { status: 504 } } })],
  });
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args) => {
        const execution = executeFn(args);
        // A result computed synchronously needs no timer.
        if (typeof (execution as { then?: unknown } | null)?.then !== 'function') return execution;
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve(timedOut()), ms);
          Promise.resolve(execution).then(
            (result) => (clearTimeout(timer), resolve(result)),
            (error) => (clearTimeout(timer), reject(error)),
          );
        });
      });
    },
  };
}
