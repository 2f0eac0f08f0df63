/**
 * A mutation answers only once this instance's published cache has heard of what it wrote
 * (published/cache/published-cache.ts `caughtUp`): the writer's next request to this instance
 * sees the write, even when the database's notification comes later than the answer would. One
 * statement per mutation while this instance remembers a site (REST writes are GraphQL mutations too);
 * queries are not delayed.
 */
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export function useReadYourWrites(caughtUp: () => Promise<void>): Plugin {
  return {
    onExecute({ args }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== 'mutation') return;
      return { onExecuteDone: () => caughtUp() };
    },
  };
}
