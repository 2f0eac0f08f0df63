/**
 * A plain JSON POST is answered by the fast path (src/http/graphql-fast-path.ts); the same request
 * with an `extensions` member goes through yoga's own handler. Both must answer alike: status,
 * media type and body, for successes and for every kind of error.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();
let org: Awaited<ReturnType<typeof createOrg>>;
let reader: Awaited<ReturnType<typeof createActor>>;

beforeAll(async () => {
  org = await createOrg(server.db);
  reader = await createActor(server.db, { org: org.org.id, role: 'read' });
});

type Case = { name: string; token?: () => string; accept?: string; body: Record<string, unknown> };

async function answer(c: Case, viaYoga: boolean) {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(c.accept ? { accept: c.accept } : {}),
      ...(c.token ? { authorization: `Bearer ${c.token()}` } : {}),
    },
    body: JSON.stringify(viaYoga ? { ...c.body, extensions: {} } : c.body),
  });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
}

const cases: Case[] = [
  { name: 'a query', token: () => org.owner.token, body: { query: 'query Q($id: ID!) { organization(id: $id) { id title } }', variables: { id: '' } } },
  { name: 'a missing object (NOT_FOUND)', token: () => org.owner.token, body: { query: '{ space(id: "nope") { id } }' } },
  { name: 'a variable of the wrong type', token: () => org.owner.token, body: { query: 'query ($n: Int) { viewer { id } organizations(first: $n) { totalCount } }', variables: { n: 'x' } } },
  { name: 'a forbidden mutation', token: () => reader.token, body: { query: 'mutation ($id: ID!) { updateOrganization(id: $id, input: { title: "x" }) { id } }', variables: { id: '' } } },
  { name: 'a forbidden mutation asking for graphql-response+json', accept: 'application/graphql-response+json', token: () => reader.token, body: { query: 'mutation ($id: ID!) { updateOrganization(id: $id, input: { title: "x" }) { id } }', variables: { id: '' } } },
  { name: 'an operation chosen by name', token: () => org.owner.token, body: { query: 'query A { viewer { id } } query B { viewer { email } }', operationName: 'B' } },
  { name: 'an unknown operation name', token: () => org.owner.token, body: { query: 'query A { viewer { id } }', operationName: 'Z' } },
  { name: 'a syntax error', token: () => org.owner.token, body: { query: '{ viewer { id }' } },
  { name: 'an unknown field', token: () => org.owner.token, body: { query: '{ viewer { nope } }' } },
  { name: 'no token', body: { query: '{ viewer { id } }' } },
  { name: 'a bad token', token: () => 'nope', body: { query: '{ viewer { id } }' } },
];

describe('the GraphQL fast path', () => {
  for (const c of cases) {
    it(`answers ${c.name} as yoga does`, async () => {
      // Organization ids are known only once the organization exists.
      if (c.body.variables && (c.body.variables as { id?: string }).id === '') c.body.variables = { id: org.org.id };
      const fast = await answer(c, false);
      const yoga = await answer(c, true);
      expect(fast).toEqual(yoga);
    });
  }

  it('serves the answer the client asked for', async () => {
    const c: Case = { name: '', token: () => org.owner.token, accept: 'application/graphql-response+json', body: { query: '{ viewer { id } }' } };
    const fast = await answer(c, false);
    expect(fast).toEqual({ status: 200, type: 'application/graphql-response+json; charset=utf-8', body: { data: { viewer: { id: org.owner.id } } } });
  });
});
