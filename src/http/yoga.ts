/** The GraphQL server: authentication, error masking and GraphiQL around the Pothos schema. */
import { GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { authenticate } from '../domain/identity/tokens.js';
import { AppError, unauthenticated } from '../domain/errors.js';
import { createContext, type Context } from '../schema/context.js';
import { schema } from '../schema/index.js';

export type ServerContext = Record<string, unknown>;

export function toGraphQLError(error: AppError): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { code: error.code, ...(error.field ? { field: error.field } : {}) },
  });
}

export async function contextFor(db: Db, config: Config, authorization: string | null | undefined): Promise<Context> {
  const userId = await authenticate(db, authorization);
  if (!userId) {
    throw new GraphQLError(unauthenticated().message, { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
  }
  return createContext(db, config, { userId });
}

export function createGraphQLServer(db: Db, config: Config, log: (...args: unknown[]) => void = console.error): YogaServerInstance<ServerContext, Context> {
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'quire', headers: JSON.stringify({ Authorization: 'Bearer <token>' }) },
    context: ({ request }) => contextFor(db, config, request.headers.get('authorization')),
    maskedErrors: {
      maskError: (error, message) => {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (original instanceof AppError) return toGraphQLError(original);
        // Input coercion ("Variable "$input" got invalid value ... at "input.title"; ...").
        if (error instanceof GraphQLError && (!original || original instanceof GraphQLError || error.message.startsWith('Variable "$'))) {
          return new GraphQLError(error.message, { nodes: error.nodes, path: error.path, extensions: { code: 'BAD_USER_INPUT', ...error.extensions } });
        }
        log('[quire] internal error:', original ?? error);
        return new GraphQLError(message, { extensions: { code: 'INTERNAL' } });
      },
    },
  });
}
