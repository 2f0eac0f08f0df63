/** The GraphQL server: authentication, error masking and GraphiQL around the Pothos schema. */
import type { IncomingMessage } from 'node:http';
import { getOperationAST, type ExecutionArgs, type GraphQLError } from 'graphql';
import { createGraphQLError, createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { useSubscriptionShutdown } from './subscription-shutdown.js';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { useGraphQLJsVariableCoercion } from './variable-coercion.js';
import { useQueryCostLimit } from './query-cost.js';
import { useMaxSelectionBreadth } from './selection-breadth.js';
import { MAX_INPUT_DEPTH, useWellFormedInput } from './request-hygiene.js';
import { useMaxDocumentNesting } from './document-nesting.js';
import { useRequestErrorStatus } from './request-error-status.js';
import { useExecutionTimeout } from './execution-timeout.js';
import { useDocumentCache } from './document-cache.js';
import { useReadYourWrites } from './read-your-writes.js';
import { GRAPHIQL_OPTIONS, renderGraphiQLPage } from './graphiql-page.js';
import type { Config } from '../config.js';
import { AppError } from '../lib/errors.js';
import { isDatabaseUnavailable, isStatementTimeout, UNAVAILABLE_MESSAGE } from '../db/unavailable.js';
import { silentLogger, type Logger } from '../observability/logger.js';
import { requestInfo } from '../observability/request-info.js';
import type { Context } from '../schema/context.js';
import { schema } from '../schema/index.js';
import type { RequestContexts } from './request-context.js';
import { useSpooledMultipart } from './multipart-spool.js';

export type ServerContext = Record<string, unknown>;

/** The most fields one selection set may hold, fragments spread into it included. */
export const MAX_SELECTION_FIELDS = 100;
/** The most tokens one document may hold. */
export const MAX_DOCUMENT_TOKENS = 5000;

/**
 * Errors are recognised by shape, not `instanceof GraphQLError`: graphql ships both CJS and ESM
 * builds, and yoga may not load the same one as this module (vitest does exactly that).
 */
export const isGraphQLError = (e: unknown): e is GraphQLError => e instanceof Error && e.name === 'GraphQLError';

export function toGraphQLError(error: AppError): GraphQLError {
  return createGraphQLError(error.message, {
    originalError: error,
    extensions: { code: error.code, ...(error.field ? { field: error.field } : {}) },
  });
}

export type GraphQLServerDependencies = {
  config: Config;
  /** The caller of an operation and its context (request-context.ts). */
  contexts: Pick<RequestContexts, 'callerOf' | 'contextOf'>;
  logger?: Logger;
  /** Aborted when the server stops: subscriptions then end (subscription-shutdown.ts). */
  stopping?: AbortSignal;
  /** Awaited after each mutation, before it answers (read-your-writes.ts). */
  afterMutation?: () => Promise<void>;
};

/** A request refused as a whole (no valid token): the error's own status, which yoga answers with and leaves out of the body. */
function refusedRequest(error: unknown): never {
  if (error instanceof AppError && error.code === 'UNAUTHENTICATED') {
    throw createGraphQLError(error.message, { extensions: { code: error.code, http: { status: error.status } } });
  }
  throw error;
}

/** Tells the access log which operation and user a request yoga answers itself was for. */
function useRequestInfo(): Plugin {
  const record = ({ args }: { args: ExecutionArgs }) => {
    const context = args.contextValue as Partial<Context> & { req?: IncomingMessage };
    const info = requestInfo(context.req);
    const operation = getOperationAST(args.document, args.operationName);
    info.operation = operation?.name?.value ?? operation?.operation;
    info.userId = context.viewer?.userId;
  };
  return { onExecute: record as never, onSubscribe: record as never };
}

export function createGraphQLServer({ config, contexts, logger = silentLogger(), stopping = new AbortController().signal, afterMutation }: GraphQLServerDependencies): YogaServerInstance<ServerContext, Context> {
  const contextFor = (authorization: string | null | undefined, req: IncomingMessage | undefined): Promise<Context> =>
    contexts.callerOf(authorization).then((caller) => contexts.contextOf(caller, req), refusedRequest);
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    cors: false, // answered for every path by http/cors.ts
    landingPage: false,
    logging: false, // internal errors are logged by maskError below; client errors are not server faults
    graphiql: GRAPHIQL_OPTIONS,
    // A small page linking to GraphiQL's assets, served by this server (not a CDN: self-hosted
    // instances may have no route to the internet) under hashed, cacheable URLs.
    renderGraphiQL: renderGraphiQLPage,
    parserAndValidationCache: false, // useDocumentCache instead
    // Bounds on what one document may ask for (README › Limits).
    plugins: [
      // GraphQL uploads: their forms read to disk by app.ts, not by yoga.
      useSpooledMultipart(),
      useDocumentCache(),
      maxDepthPlugin({ n: 16, flattenFragments: true }),
      maxTokensPlugin({ n: MAX_DOCUMENT_TOKENS }),
      // After the token limit: it wraps that plugin's parser, counting nesting before parsing.
      useMaxDocumentNesting(MAX_INPUT_DEPTH, MAX_DOCUMENT_TOKENS),
      maxAliasesPlugin({ n: 20 }),
      useMaxSelectionBreadth(MAX_SELECTION_FIELDS),
      useQueryCostLimit(config.graphqlMaxCost),
      // Before anything walks the variables (coercion, resolvers): NUL and nesting depth.
      useWellFormedInput(),
      useRequestInfo(),
      ...(afterMutation ? [useReadYourWrites(afterMutation)] : []),
      // graphql-js's variable coercion first: its messages name the offending field's path.
      useGraphQLJsVariableCoercion(),
      // Documents compiled to JavaScript once (cached by document), then executed without
      // graphql-js's generic walk of the selection set for every object of the result.
      // Subscriptions run on the standard executor: graphql-jit does not pass the subscription
      // field's arguments to its `subscribe`.
      useGraphQlJit({}, { enableIf: (args) => getOperationAST(args.document, args.operationName)?.operation !== 'subscription' }),
      // Last: it wraps the execution the plugins above settled on (graphql-jit's).
      useExecutionTimeout(config.graphqlTimeoutMs),
      // A request refused as a whole answers its error's status (a refused SSE subscription: 404, not 500).
      useRequestErrorStatus(),
      useSubscriptionShutdown(stopping),
    ],
    // HTTP requests carry the token in a header; WebSocket operations pass it in, with the upgrade request (graphql-ws.ts).
    context: (initial) => contextFor(initial.request?.headers.get('authorization') ?? (initial.authorization as string | undefined), initial.req as IncomingMessage | undefined),
    maskedErrors: {
      maskError: (error, message) => {
        const original = isGraphQLError(error) ? error.originalError : error;
        if (original instanceof AppError) return toGraphQLError(original);
        // Errors this server words itself (authentication, limits, time limits) stand as they are.
        if (isGraphQLError(error) && !original && ['UNAUTHENTICATED', 'TIMEOUT', 'BAD_REQUEST'].includes(String(error.extensions?.code))) return error;
        if (isGraphQLError(error) && error.extensions?.code === 'UNAUTHENTICATED') return error;
        if (isStatementTimeout(original ?? error)) {
          logger.warn({ err: original ?? error }, 'statement timeout');
          return createGraphQLError('A database statement took too long and was cancelled', { extensions: { code: 'TIMEOUT', http: { status: 504 } } });
        }
        if (isDatabaseUnavailable(original ?? error)) {
          logger.warn({ err: original ?? error }, 'database unavailable');
          return createGraphQLError(UNAVAILABLE_MESSAGE, { extensions: { code: 'UNAVAILABLE', http: { status: 503 } } });
        }
        // Input coercion ("Variable "$input" got invalid value ... at "input.title"; ...").
        if (isGraphQLError(error) && (!original || isGraphQLError(original) || error.message.startsWith('Variable "$'))) {
          return createGraphQLError(error.message, { nodes: error.nodes, path: error.path, extensions: { ...error.extensions, code: 'BAD_USER_INPUT' } });
        }
        logger.error({ err: original ?? error }, 'internal error');
        return createGraphQLError(message, { extensions: { code: 'INTERNAL' } });
      },
    },
  });
}
