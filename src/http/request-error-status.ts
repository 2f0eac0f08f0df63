/**
 * The HTTP status of a request that failed as a whole. Yoga answers 500 for a result without
 * `data` whose errors came from the server's code (it cannot tell them from crashes): a
 * subscription refused before its stream starts (`organizationEvents` on another organization:
 * NOT_FOUND) answered HTTP 500 over SSE. Such errors carry the status of their domain code
 * (src/lib/errors.ts) instead, as `extensions.http.status`, which yoga reads for the answer's
 * status and leaves out of the body. Results with `data` keep GraphQL's 200: a field's error
 * there is partial, not the request's.
 */
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { GraphQLError } from 'graphql';
import { ERROR_STATUS, type ErrorCode } from '../lib/errors.js';

type Result = { errors?: readonly GraphQLError[] };

const statusOf = (error: GraphQLError): number | undefined => {
  const code = error.extensions?.code;
  return typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code) ? ERROR_STATUS[code as ErrorCode] : undefined;
};

function withStatus(error: GraphQLError): GraphQLError {
  const status = statusOf(error);
  if (status === undefined || (error.extensions?.http as { status?: number } | undefined)?.status) return error;
  return createGraphQLError(error.message, { nodes: error.nodes, path: error.path, originalError: error.originalError ?? undefined, extensions: { ...error.extensions, http: { status } } });
}

export function useRequestErrorStatus(): Plugin {
  return {
    onExecutionResult({ result, setResult }) {
      // Streams (subscriptions that started, deferred results) and batches keep their own handling.
      if (!result || Symbol.asyncIterator in result || Array.isArray(result)) return;
      const { errors } = result as Result;
      if ('data' in result || !errors?.length || !errors.some((e) => statusOf(e) !== undefined)) return;
      setResult({ ...result, errors: errors.map(withStatus) });
    },
  };
}
