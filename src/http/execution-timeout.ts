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
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn(async (args) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise((resolve) => {
          timer = setTimeout(
            () => resolve({ errors: [createGraphQLError(`The operation took longer than ${ms / 1000} s and was abandoned`, { extensions: { code: 'TIMEOUT', http: { status: 504 } } })] }),
            ms,
          );
        });
        try {
          return await Promise.race([executeFn(args), timeout]);
        } finally {
          clearTimeout(timer);
        }
      });
    },
  };
}
