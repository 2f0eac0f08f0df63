/** Clients as users would hold them: the public SDK, plain GraphQL, plain HTTP. */
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { expect } from 'vitest';

export function sdk(baseUrl: string, token?: string): GitBookAPI {
  return new GitBookAPI({ endpoint: baseUrl, authToken: token });
}

export type GqlResult<T = any> = { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };

export async function gql<T = any>(baseUrl: string, token: string | undefined, query: string, variables?: Record<string, unknown>): Promise<GqlResult<T>> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GqlResult<T>;
}

/** Runs a GraphQL operation that must succeed, returning its data. */
export async function gqlOk<T = any>(baseUrl: string, token: string, query: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await gql<T>(baseUrl, token, query, variables);
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data!;
}

export async function http(baseUrl: string, token: string | undefined, method: string, path: string, body?: unknown | string) {
  const response = await fetch(`${baseUrl}/v1${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Awaits an SDK call that must fail, returning the HTTP status and error message. */
export async function sdkError(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof GitBookAPIError) return { status: error.code, message: error.errorMessage };
    throw error;
  }
  throw new Error('expected the call to fail');
}
