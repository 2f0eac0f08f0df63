/**
 * Which requests run with their origin for the audit log (http/request-writes.ts): every method
 * but GET and HEAD, and the routes with handlers of their own whatever the method. The rest may
 * go without only while REST's GET routes run GraphQL queries, checked here on the route table.
 */
import type { IncomingMessage } from 'node:http';
import { Kind, OperationTypeNode, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { mayWrite } from '../src/http/request-writes.js';
import { routes } from '../src/rest/routes/index.js';

const request = (method: string, url: string) => ({ method, url }) as IncomingMessage;

describe('requests that may write', () => {
  it('runs REST GET routes as queries only', () => {
    const gets = routes.filter((r) => r.method === 'GET');
    expect(gets.length).toBeGreaterThan(50);
    for (const route of gets) {
      const operations = parse(route.operation).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
      expect(operations.map((o) => o.operation), `${route.method} ${route.path}`).toEqual([OperationTypeNode.QUERY]);
    }
  });

  it('keeps the origin for writing methods and for routes with handlers of their own', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) expect(mayWrite(request(method, '/v1/orgs'))).toBe(true);
    for (const url of ['/sso/saml/x/acs', '/invites/abc', '/files/t', '/exports/pdf/t', '/fonts/f/400', '/uploads/t', '/openapi/s/spec.json']) expect(mayWrite(request('GET', url))).toBe(true);
    for (const url of ['/v1/orgs/o', '/graphql?query={viewer{id}}', '/sites/s/page', '/healthz', '/metrics', '/any-page-of-a-site-hostname']) expect(mayWrite(request('GET', url))).toBe(false);
    expect(mayWrite(request('HEAD', '/sites/s/page'))).toBe(false);
  });
});
