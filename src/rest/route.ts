/**
 * One row of the REST route table: a documented `/v1` path, the named GraphQL operation it runs,
 * how path, query and body become variables, and how the result becomes the documented JSON.
 * Rows hold no business rules: those live in the resolvers and domain commands.
 */
import { badRequest } from '../lib/errors.js';
import { MAX_PAGE_SIZE } from '../schema/connection.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RestInput = {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  /** The request's headers (lower-case names), for the few routes that read one (`Prefer`). */
  headers?: Record<string, string | string[] | undefined>;
};

export type Route = {
  method: Method;
  /** Path relative to /v1, with `{param}` placeholders, exactly as documented. */
  path: string;
  /** A GraphQL document with exactly one named operation (and any fragments it uses). */
  operation: string;
  variables: (input: RestInput) => Record<string, unknown>;
  /** Shapes `data` into the response body; omitted for routes that answer without a body. */
  result?: (data: any, input: RestInput) => unknown;
  /** Success status; 200 with a body, 204 without (a 204 answers no body, whatever `result`). A function picks it from `data` (e.g. 205 vs 204 on deletes). */
  status?: number | ((data: any, input: RestInput) => number);
  /** Response headers from `data` (e.g. the `Location` of a job still running). */
  headers?: (data: any, input: RestInput) => Record<string, string>;
};

export const route = (r: Route): Route => r;

/** Whether the request asked for no representation in the answer (`Prefer: return=minimal`). */
export const prefersMinimal = (input: RestInput): boolean => /(^|[\s,;])return=minimal($|[\s,;])/.test(String(input.headers?.prefer ?? ''));

/**
 * The public document's `returnPreference`: 204 with `Preference-Applied: return=minimal` when
 * asked for (`Prefer: return=minimal`), else the representation with `status`.
 */
export const returnPreference = (status = 200) => ({
  status: (_data: unknown, input: RestInput) => (prefersMinimal(input) ? 204 : status),
  headers: (_data: unknown, input: RestInput): Record<string, string> => (prefersMinimal(input) ? { 'preference-applied': 'return=minimal' } : {}),
});

/** `page` and `limit` of a list request, as connection arguments. */
export function pageArgs(query: URLSearchParams): { first?: number; after?: string } {
  const limit = query.get('limit');
  const page = query.get('page');
  const args: { first?: number; after?: string } = {};
  if (limit !== null) {
    const n = Number(limit);
    if (limit.trim() === '' || !Number.isInteger(n) || n < 0 || n > MAX_PAGE_SIZE) {
      throw badRequest(`Invalid value for "limit": must be an integer between 0 and ${MAX_PAGE_SIZE}`, 'limit');
    }
    args.first = n;
  }
  if (page !== null && page !== '') args.after = page;
  return args;
}

export function enumParam<T extends string>(query: URLSearchParams, name: string, values: readonly T[]): T | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (!(values as readonly string[]).includes(value)) throw badRequest(`Invalid value for "${name}": must be one of ${values.join(', ')}`, name);
  return value as T;
}

export function booleanParam(query: URLSearchParams, name: string): boolean | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (value !== 'true' && value !== 'false') throw badRequest(`Invalid value for "${name}": must be true or false`, name);
  return value === 'true';
}

export function stringParam(query: URLSearchParams, name: string, max = 512): string | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (value.length > max) throw badRequest(`Invalid value for "${name}": at most ${max} characters`, name);
  return value;
}

/** The documented list envelope from a connection. */
export function listOf<N, T>(connection: { edges: { node: N }[]; totalCount: number; pageInfo: { hasNextPage: boolean; endCursor?: string | null } }, present: (node: N) => T) {
  return {
    items: connection.edges.map((e) => present(e.node)),
    count: connection.totalCount,
    ...(connection.pageInfo.hasNextPage && connection.pageInfo.endCursor ? { next: { page: connection.pageInfo.endCursor } } : {}),
  };
}

export const CONNECTION_FIELDS = 'totalCount pageInfo { hasNextPage endCursor }';

/** Drops undefined entries so absent body fields stay absent in variables. */
export function defined<T extends Record<string, unknown>>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Picks the listed keys present in a body. `lists` names the keys that must be JSON arrays when
 * given: GraphQL would otherwise coerce a single value into a one-item list. `unsupported` names
 * documented keys this server cannot honour yet: given, they are a 400.
 */
export function pick(body: Record<string, unknown>, keys: readonly string[], lists: readonly string[] = [], unsupported: readonly string[] = []): Record<string, unknown> {
  for (const key of unsupported) {
    // Documented in the request body, but not something this server can do yet: refused, not dropped.
    if (body[key] != null) throw badRequest(`"${key}" is not supported by this server yet`, key);
  }
  for (const key of lists) {
    if (key in body && body[key] !== null && !Array.isArray(body[key])) throw badRequest(`Invalid value for "${key}": must be an array`, key);
  }
  return Object.fromEntries(keys.filter((k) => k in body).map((k) => [k, body[k]]));
}
