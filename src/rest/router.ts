/**
 * Serves /v1 from the route table: matches the path, parses the request, executes the row's
 * GraphQL operation (parsed and validated once, at startup) through yoga's envelop pipeline — the
 * same schema, plugins and error masking as /graphql — and maps the result or error to REST.
 */
import { withoutGitMetadata } from './present-revision-content.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DocumentNode, GraphQLError } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { AppError, ERROR_STATUS, type ErrorCode } from '../lib/errors.js';
import type { RequestContexts } from '../http/request-context.js';
import { inputProblem, markChecked, UTF8_MESSAGE, utf8Text } from '../http/request-hygiene.js';
import { idTypeCheck } from './id-types.js';
import { requestTarget } from '../http/request-target.js';
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from '../db/unavailable.js';
import { silentLogger, type Logger } from '../observability/logger.js';
import { requestInfo } from '../observability/request-info.js';
import type { Method, RestInput, Route } from './route.js';
import publicDocument from './public-paths.json' with { type: 'json' };
import ownDocument from './openapi.json' with { type: 'json' };

type Compiled = { route: Route; pattern: RegExp; names: string[]; document: DocumentNode; misplacedId: (variables: Record<string, unknown>) => string | undefined };

/**
 * Parses and validates a route's operation with yoga's own pipeline (its graphql module, its
 * validation plugins); throws naming the route when the operation is invalid.
 */
export function compileRoute(route: Route, yoga: YogaServerInstance<any, any>): Compiled {
  const { parse, validate, schema } = yoga.getEnveloped({});
  const document = parse(route.operation);
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`REST route ${route.method} ${route.path}: invalid GraphQL operation: ${errors.map((e: GraphQLError) => e.message).join('; ')}`);
  const names: string[] = [];
  return { route, pattern: pathPattern(route.path, names), names, document, misplacedId: idTypeCheck(schema, document) };
}

/**
 * `path` (relative to /v1) as a pattern matching its documented `{param}` segments. A page path
 * (`{pagePath}`, the last segment) spans slashes: the SDK puts it in the URL as it is.
 */
function pathPattern(path: string, names: string[] = []): RegExp {
  const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return name.endsWith('Path') ? '(.+?)' : '([^/]+)';
  });
  return new RegExp(`^${source}/?$`);
}

/**
 * Routes by their path's first and third segments (`spaces/` for /spaces/{spaceId},
 * `orgs/members` for /orgs/{organizationId}/members/…): a request's path is matched against the
 * few routes of its bucket instead of all of them. A route with a parameter in either place (none
 * today) is a candidate for every path.
 */
function routeIndex(compiled: Compiled[]): (path: string) => Compiled[] {
  const keyOf = (path: string) => {
    const segments = path.split('/', 4);
    return `${segments[1] ?? ''}/${segments[3] ?? ''}`;
  };
  const anywhere = compiled.filter((c) => /[{]/.test(keyOf(c.route.path)));
  const buckets = new Map<string, Compiled[]>();
  for (const c of compiled) {
    if (anywhere.includes(c)) continue;
    const key = keyOf(c.route.path);
    buckets.set(key, [...(buckets.get(key) ?? []), c]);
  }
  const inTableOrder = (some: Compiled[]) => (anywhere.length ? [...some, ...anywhere].sort((a, b) => compiled.indexOf(a) - compiled.indexOf(b)) : some);
  return (path) => inTableOrder(buckets.get(keyOf(path)) ?? []).filter((c) => c.pattern.test(path));
}

/** Paths of the public API document that this server does not serve: answered with 501, naming why when on purpose. */
function unservedPaths(served: Route[]) {
  const servedKeys = new Set(served.map((r) => `${r.method} ${r.path}`));
  return publicDocument.paths
    .filter((key) => !servedKeys.has(key))
    .map((key) => {
      const [method, path] = key.split(' ');
      const reasons: Record<string, string> = publicDocument.outOfScope;
      return { method, path, pattern: pathPattern(path), outOfScope: reasons[key] };
    });
}

export function errorBody(status: number, message: string) {
  return { error: { code: status, message } };
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

/** GraphQL's own input-coercion messages, reworded to name the REST field. */
function coercionMessage(message: string): string {
  const at = /at "(?:input\.)?([^"]+)"; (.*)$/s.exec(message);
  if (at) return `Invalid value for "${at[1].replace(/^input\./, '')}": ${at[2]}`;
  const variable = /^Variable "\$(?:input)?(\w*)" (?:got invalid value .*?; |of required type .*? was not provided\.?)(.*)$/s.exec(message);
  if (variable) {
    // A field of an input object left out: name the field, not the variable holding the body.
    const missing = /^Field "(\w+)" of required type .*? was not provided\.?$/s.exec(variable[2]);
    if (missing) return `Invalid value for "${variable[1] ? `${variable[1]}.${missing[1]}` : missing[1]}": required`;
    return `Invalid value for "${variable[1] || 'body'}"${variable[2] ? `: ${variable[2]}` : ': required'}`;
  }
  return message;
}

/** Connection arguments by the names REST clients use. */
const REST_ARGUMENT: Record<string, string> = { after: 'page', first: 'limit' };

const failure = (status: number, message: string): Reply => ({ status, body: errorBody(status, message) });

function errorReply(errors: readonly GraphQLError[]): Reply {
  const first = errors[0];
  const code = first.extensions?.code as string | undefined;
  if (code && code !== 'BAD_USER_INPUT' && code in ERROR_STATUS) {
    const status = ERROR_STATUS[code as ErrorCode];
    const field = first.extensions?.field as string | undefined;
    const message = field && REST_ARGUMENT[field] ? first.message.replace(`"${field}"`, `"${REST_ARGUMENT[field]}"`) : first.message;
    const reply = failure(status, status === 500 ? 'Internal server error' : message);
    return status === 503 ? { ...reply, headers: { 'retry-after': '5' } } : reply;
  }
  // BAD_USER_INPUT, or no code at all: the variables did not pass GraphQL's input coercion.
  return failure(400, coercionMessage(first.message));
}

function parseBody(method: string, body: Buffer | null): Record<string, unknown> {
  if (method === 'GET' || method === 'DELETE' || !body) return {};
  const text = utf8Text(body);
  if (text === undefined) throw new AppError('BAD_REQUEST', UTF8_MESSAGE);
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'Malformed JSON in request body');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new AppError('BAD_REQUEST', 'Request body must be a JSON object');
  return parsed as Record<string, unknown>;
}

function send(res: ServerResponse, reply: Reply): void {
  if (reply.body === undefined) {
    res.writeHead(reply.status, reply.headers);
    res.end();
    return;
  }
  // A string, not its bytes: Node writes the head and a string body in one write, without a buffer.
  const json = JSON.stringify(reply.body);
  const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(json)) };
  res.writeHead(reply.status, reply.headers ? Object.assign(headers, reply.headers) : headers);
  res.end(json);
}

export type RestDependencies = {
  yoga: YogaServerInstance<any, any>;
  /** The caller of a request (a 401 without one) and its operation's context. */
  contexts: Pick<RequestContexts, 'callerOf' | 'contextOf'>;
  logger?: Logger;
};

export function createRestHandler(routes: Route[], { yoga, contexts, logger = silentLogger() }: RestDependencies) {
  const compiled = routes.map((r) => compileRoute(r, yoga));
  const routesFor = routeIndex(compiled);
  const unserved = unservedPaths(routes);

  async function answer(req: IncomingMessage, body: Buffer | null): Promise<Reply> {
    const url = requestTarget(req.url ?? '/');
    const path = url.pathname.replace(/^\/v1/, '') || '/';
    if (path === '/openapi.json' && (req.method === 'GET' || req.method === 'HEAD')) {
      // This server's own API document (scripts/openapi-document.mjs): public, like the SDK's.
      requestInfo(req).route = 'GET /v1/openapi.json';
      return { status: 200, body: ownDocument };
    }
    const candidates = routesFor(path);
    if (!candidates.length || !candidates.some((c) => c.route.method === req.method)) {
      const documented = unserved.find((u) => u.method === req.method && u.pattern.test(path));
      if (documented) {
        requestInfo(req).route = `${documented.method} /v1${documented.path}`;
        const what = `${documented.method} /v1${documented.path}`;
        return failure(501, documented.outOfScope ? `${what} is out of this server's scope (${documented.outOfScope})` : `${what} is not implemented by this server yet`);
      }
    }
    if (!candidates.length) return failure(404, `No route for ${req.method} ${url.pathname}`);
    const match = candidates.find((c) => c.route.method === (req.method as Method));
    const info = requestInfo(req);
    if (match) info.route = `${match.route.method} /v1${match.route.path}`;
    if (!match) return { ...failure(405, `Method ${req.method} not allowed on ${url.pathname}`), headers: { allow: candidates.map((c) => c.route.method).join(', ') } };
    // No caller: UNAUTHENTICATED, answered 401 by `handle` below.
    const holder = await contexts.callerOf(req.headers.authorization);
    info.userId = holder.userId;

    const values = match.pattern.exec(path)!.slice(1);
    const input: RestInput = {
      params: Object.fromEntries(match.names.map((n, i) => [n, decodeURIComponent(values[i])])),
      query: url.searchParams,
      body: parseBody(req.method ?? 'GET', body),
      headers: req.headers,
    };
    // Before anything walks the body: no NUL in any string, no nesting deeper than the limit.
    const problem = inputProblem(input.params) ?? inputProblem(Object.fromEntries(url.searchParams)) ?? inputProblem(input.body);
    if (problem) return failure(400, problem.message);
    const variables = match.route.variables(input);
    // Made of what was just checked: the GraphQL plugin does not walk it again.
    markChecked(variables);
    const misplaced = match.misplacedId(variables);
    if (misplaced) return failure(400, `Invalid value for "${misplaced}": must be a string (an ID)`);
    const { execute, schema } = yoga.getEnveloped({ req });
    const result = await execute({ schema, document: match.document, variableValues: variables, contextValue: contexts.contextOf(holder, req) });
    if (!('data' in result) && !('errors' in result)) throw new Error('REST operations are queries and mutations, not subscriptions');
    if (result.errors?.length) return errorReply(result.errors);
    const { route } = match;
    const status = typeof route.status === 'function' ? route.status(result.data, input) : route.status;
    const headers = route.headers?.(result.data, input);
    if (!route.result || status === 204) return { status: status ?? 204, headers };
    return { status: status ?? 200, body: withoutGitMetadata(input.query, route.result(result.data, input)), headers };
  }

  /** Answers a /v1 request whose body (bounded by the HTTP layer) has been read. */
  return async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer | null): Promise<void> {
    let reply: Reply;
    try {
      reply = await answer(req, body);
    } catch (error) {
      if (error instanceof AppError) reply = failure(error.status, error.message);
      else if (error instanceof URIError) reply = failure(400, 'Malformed percent-encoding in the path');
      else if (isDatabaseUnavailable(error)) reply = { ...failure(503, UNAVAILABLE_MESSAGE), headers: { 'retry-after': '5' } };
      else {
        logger.error({ err: error, reqId: requestInfo(req).id }, 'REST internal error');
        reply = failure(500, 'Internal server error');
      }
    }
    send(res, reply);
  };
}
