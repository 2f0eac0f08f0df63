/**
 * GraphQL over WebSocket (graphql-ws) through yoga's envelop pipeline, as yoga's own recipe does:
 * the same parse and validation limits, context, error masking and codes as HTTP. A connection
 * needs a valid token (`authorization` in the connection parameters, or the upgrade request's
 * header): without one it is closed with 4401. The token is checked again for every operation.
 */
import type { IncomingMessage } from 'node:http';
import type { ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { YogaServerInstance } from 'graphql-yoga';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Authenticator } from '../domain/identity/tokens.js';
import { isGraphQLError } from './yoga.js';

type Extra = { socket: WebSocket; request: IncomingMessage };
type Enveloped = ReturnType<YogaServerInstance<any, any>['getEnveloped']>;

export const UNAUTHORIZED_CLOSE_CODE = 4401;

function authorizationOf(connectionParams: Readonly<Record<string, unknown>> | undefined, request: IncomingMessage): string | undefined {
  const fromParams = connectionParams?.authorization ?? connectionParams?.Authorization;
  return typeof fromParams === 'string' ? fromParams : request.headers.authorization;
}

export function serveGraphQLOverWebSocket(wss: WebSocketServer, yoga: YogaServerInstance<any, any>, authenticate: Authenticator) {
  return useServer<Record<string, unknown> | undefined, Extra>(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
      onConnect: async (ctx) => {
        if (await authenticate(authorizationOf(ctx.connectionParams, ctx.extra.request))) return true;
        ctx.extra.socket.close(UNAUTHORIZED_CLOSE_CODE, 'Unauthorized: a valid API token is required');
        return false;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const authorization = authorizationOf(ctx.connectionParams, ctx.extra.request);
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
