/**
 * GraphQL over WebSocket (graphql-ws) through yoga's envelop pipeline, as yoga's own recipe does:
 * the same parse and validation limits, context, error masking and codes as HTTP. A connection
 * needs a valid token (`authorization` in the connection parameters, or the upgrade request's
 * header): without one it is closed with 4401. The token is checked again for every operation.
 *
 * Each operation (a `subscribe` message) is counted in the rate limit as an HTTP request with the
 * same token would be, and refused beyond it with RATE_LIMITED; at most `maxOperations` run at
 * once on one connection (subscriptions, and queries while they run), refused beyond with
 * TOO_MANY_OPERATIONS. Messages are bounded in size by the WebSocketServer (`maxPayload`), and
 * connections per client by websocket-admission.ts.
 */
import type { IncomingMessage } from 'node:http';
import type { ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createGraphQLError, type YogaServerInstance } from 'graphql-yoga';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Authenticator } from '../domain/people/identity/tokens.js';
import type { RateLimiter } from './rate-limit.js';
import type { RateLimitKeyOf } from './rate-limit-key.js';
import { isGraphQLError } from './yoga.js';

type Extra = { socket: WebSocket; request: IncomingMessage };
type Enveloped = ReturnType<YogaServerInstance<any, any>['getEnveloped']>;

export const UNAUTHORIZED_CLOSE_CODE = 4401;

function authorizationOf(connectionParams: Readonly<Record<string, unknown>> | undefined, request: IncomingMessage): string | undefined {
  const fromParams = connectionParams?.authorization ?? connectionParams?.Authorization;
  return typeof fromParams === 'string' ? fromParams : request.headers.authorization;
}

export type OperationLimits = { maxOperations: number; limiter?: RateLimiter; keyOf: RateLimitKeyOf };

export function serveGraphQLOverWebSocket(wss: WebSocketServer, yoga: YogaServerInstance<any, any>, authenticate: Authenticator, limits: OperationLimits) {
  return useServer<Record<string, unknown> | undefined, Extra>(
    {
      // The context (yoga.ts) is made with the upgrade request: mutations over the socket record its client, as over HTTP.
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
      onConnect: async (ctx) => {
        if (await authenticate(authorizationOf(ctx.connectionParams, ctx.extra.request))) return true;
        ctx.extra.socket.close(UNAUTHORIZED_CLOSE_CODE, 'Unauthorized: a valid API token is required');
        return false;
      },
      onSubscribe: async (ctx, _id, payload) => {
        // Counted before anything is awaited: graphql-ws has entered this operation already.
        if (Object.keys(ctx.subscriptions).length > limits.maxOperations) {
          return [createGraphQLError(`Limit of ${limits.maxOperations} operations at once per connection reached; complete one first`, { extensions: { code: 'TOO_MANY_OPERATIONS' } })];
        }
        const authorization = authorizationOf(ctx.connectionParams, ctx.extra.request);
        if (limits.limiter) {
          const verdict = await limits.limiter.check(await limits.keyOf(ctx.extra.request, authorization));
          if (!verdict.allowed) return [createGraphQLError(verdict.refusal, { extensions: { code: 'RATE_LIMITED', retryAfter: verdict.retryAfter } })];
        }
        const enveloped = yoga.getEnveloped({ ...ctx, req: ctx.extra.request, socket: ctx.extra.socket, params: payload, authorization });
        let document;
        let contextValue;
        try {
          document = enveloped.parse(payload.query);
          const errors = enveloped.validate(enveloped.schema, document);
          if (errors.length) return errors;
          contextValue = await enveloped.contextFactory(); // authenticates again: a revoked token stops here
        } catch (error) {
          // Parse and validation errors (limits included: those plugins throw) and a refused token
          // answer the operation; anything else is a fault.
          if (isGraphQLError(error)) return [error];
          throw error;
        }
        const args: ExecutionArgs = { schema: enveloped.schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue, rootValue: enveloped };
        return args;
      },
    },
    wss,
  );
}
