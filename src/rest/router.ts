/**
 * Serves /v1 from the route table: matches the path, parses the request, runs the row's GraphQL
 * operation through the same yoga instance as /graphql, and maps the result or error to REST.
 */
import type { GraphQLFormattedError } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { AppError, ERROR_STATUS, type ErrorCode } from '../domain/errors.js';
import type { Method, RestInput, Route } from './route.js';

type Compiled = { route: Route; pattern: RegExp; names: string[] };


function compile(route: Route): Compiled {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}/?$`), names };
}

export function errorBody(status: number, message: string) {
  return { error: { code: status, message } };
}

function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
  });
}

/** GraphQL's own input-coercion messages, reworded to name the REST field. */
function coercionMessage(message: string): string {
  const at = /at "(?:input\.)?([^"]+)"; (.*)$/s.exec(message);
  if (at) return `Invalid value for "${at[1].replace(/^input\./, '')}": ${at[2]}`;
  const variable = /^Variable "\$(?:input)?(\w*)" (?:got invalid value .*?; |of required type .*? was not provided)(.*)$/s.exec(message);
  if (variable) return `Invalid value for "${variable[1] || 'body'}"${variable[2] ? `: ${variable[2]}` : ': required'}`;
  return message;
}

/** Connection arguments by the names REST clients use. */
const REST_ARGUMENT: Record<string, string> = { after: 'page', first: 'limit' };

function errorResponse(errors: readonly GraphQLFormattedError[]): Response {
  const first = errors[0];
  const code = first.extensions?.code as string | undefined;
  if (code && code !== 'BAD_USER_INPUT' && code in ERROR_STATUS) {
    const status = ERROR_STATUS[code as ErrorCode];
    const field = first.extensions?.field as string | undefined;
    const message = field && REST_ARGUMENT[field] ? first.message.replace(`"${field}"`, `"${REST_ARGUMENT[field]}"`) : first.message;
    return json(status, errorBody(status, status === 500 ? 'Internal server error' : message));
  }
  // BAD_USER_INPUT, or no code at all: the variables did not pass GraphQL's input coercion.
  return json(400, errorBody(400, coercionMessage(first.message)));
}

async function readBody(request: Request): Promise<Record<string, unknown>> {
  if (request.method === 'GET' || request.method === 'DELETE') return {};
  const text = await request.text(); // size is bounded by the HTTP layer (app.ts)
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'Malformed JSON in request body');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new AppError('BAD_REQUEST', 'Request body must be a JSON object');
  return body as Record<string, unknown>;
}

export function createRestHandler(routes: Route[], yoga: YogaServerInstance<any, any>, log: (...args: unknown[]) => void = console.error) {
  const compiled = routes.map(compile);

  return async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/v1/, '') || '/';
    const candidates = compiled.filter((c) => c.pattern.test(path));
    if (!candidates.length) return json(404, errorBody(404, `No route for ${request.method} ${url.pathname}`));
    const match = candidates.find((c) => c.route.method === (request.method as Method));
    if (!match) {
      return new Response(JSON.stringify(errorBody(405, `Method ${request.method} not allowed on ${url.pathname}`)), {
        status: 405,
        headers: { 'content-type': 'application/json; charset=utf-8', allow: candidates.map((c) => c.route.method).join(', ') },
      });
    }
    if (!request.headers.get('authorization')) return json(401, errorBody(401, 'A valid API token is required (Authorization: Bearer <token>)'));

    try {
      const values = match.pattern.exec(path)!.slice(1);
      const input: RestInput = {
        params: Object.fromEntries(match.names.map((n, i) => [n, decodeURIComponent(values[i])])),
        query: url.searchParams,
        body: await readBody(request),
      };
      const variables = match.route.variables(input);
      const response = await yoga.fetch(
        new Request(new URL('/graphql', url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', authorization: request.headers.get('authorization')! },
          body: JSON.stringify({ query: match.route.operation, variables }),
        }),
      );
      const result = (await response.json()) as { data?: any; errors?: GraphQLFormattedError[] };
      if (result.errors?.length) return errorResponse(result.errors);
      const status = typeof match.route.status === 'function' ? match.route.status(result.data) : match.route.status;
      if (!match.route.result) return new Response(null, { status: status ?? 204 });
      return json(status ?? 200, match.route.result(result.data, input));
    } catch (error) {
      if (error instanceof AppError) return json(error.status, errorBody(error.status, error.message));
      log('[quire] REST internal error:', error);
      return json(500, errorBody(500, 'Internal server error'));
    }
  };
}
