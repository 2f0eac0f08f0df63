/**
 * Documents that would cost too much are refused before they run: the cost limit (objects an answer
 * may hold, with page sizes from literals or variables) and the breadth limit (fields per selection
 * set, fragments included), over HTTP (both GraphQL paths) and WebSocket alike.
 */
import { parse } from 'graphql';
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_SELECTION_FIELDS } from '../src/http/yoga.js';
import { operationCost } from '../src/http/query-cost.js';
import { widestSelection } from '../src/http/selection-breadth.js';
import { schema } from '../src/schema/index.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

const NESTED = `query($id: ID!, $n: Int) { organization(id: $id) {
  spaces(first: $n) { edges { node { id aggregatedUsers(first: $n) { edges { node { permission } } } } } } } }`;

async function post(token: string, body: Record<string, unknown>, accept = 'application/json') {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('the cost of an operation', () => {
  const cost = (query: string, variables?: Record<string, unknown>) => operationCost(schema, parse(query), undefined, variables);

  it('multiplies page sizes along each path, from literals, variables and the default page size', () => {
    const small = cost(NESTED, { id: 'x', n: 20 });
    const large = cost(NESTED, { id: 'x', n: 1000 });
    expect(small).toBeLessThan(1000);
    expect(large).toBeGreaterThan(1_000_000);
    expect(cost(NESTED.replace(', $n: Int', '').replaceAll('$n', '1000'), { id: 'x' })).toBe(large);
    // No `first`: a connection pages by 100.
    expect(cost(NESTED.replaceAll('(first: $n)', ''), { id: 'x' })).toBe(cost(NESTED, { id: 'x', n: 100 }));
  });

  it('counts what fragments select where they are spread', () => {
    const inline = cost('{ organizations(first: 50) { edges { node { id spaces(first: 50) { edges { node { id } } } } } } }');
    const spread = cost('{ organizations(first: 50) { edges { node { ...O } } } } fragment O on Organization { id spaces(first: 50) { edges { node { ... on Space { id } } } } }');
    expect(spread).toBe(inline);
  });

  it('is the same for the same document every time, remembered only when no variable sets it', () => {
    const document = parse(NESTED);
    expect(operationCost(schema, document, undefined, { id: 'x', n: 20 })).toBe(cost(NESTED, { id: 'x', n: 20 }));
    expect(operationCost(schema, document, undefined, { id: 'x', n: 1000 })).toBe(cost(NESTED, { id: 'x', n: 1000 }));
    const literal = parse(NESTED.replace(', $n: Int', '').replaceAll('$n', '1000'));
    const first = operationCost(schema, literal, undefined, { id: 'x' });
    expect(operationCost(schema, literal, undefined, { id: 'y' })).toBe(first);
  });
});

describe('the breadth of a selection set', () => {
  it('counts the fields of spread fragments', () => {
    expect(widestSelection(parse('{ viewer { id email } }'))).toBe(2);
    expect(widestSelection(parse('{ viewer { ...A ...A id } } fragment A on User { id email displayName }'))).toBe(7);
  });
});

describe('limits', () => {
  it('refuses an operation over the cost limit before it runs, over both HTTP paths and WebSocket', async () => {
    const { org, owner } = await createOrg(server.db);
    const ok = await post(owner.token, { query: NESTED, variables: { id: org.id, n: 20 } });
    expect(ok.body.errors).toBeUndefined();
    for (const body of [
      { query: NESTED, variables: { id: org.id, n: 1000 } },
      { query: NESTED, variables: { id: org.id, n: 1000 }, extensions: {} }, // through yoga's own handler
    ]) {
      const refused = await post(owner.token, body);
      expect(refused.status).toBe(400);
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', maxCost: 50_000 });
      expect(refused.body.errors[0].message).toMatch(/cost \d+ exceeds the limit of 50000/);
    }
    const client = createClient({ url: `${server.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${owner.token}` }, retryAttempts: 0 });
    try {
      const errors = await new Promise<any[]>((resolve, reject) => {
        client.subscribe({ query: NESTED, variables: { id: org.id, n: 1000 } }, { next: (r) => resolve(r.errors as any[]), error: (e) => (Array.isArray(e) ? resolve(e) : reject(e)), complete: () => {} });
      });
      expect(errors[0].extensions.code).toBe('BAD_REQUEST');
    } finally {
      await client.dispose();
    }
  });

  it('leaves REST pages of the largest size within the limit', async () => {
    // REST runs the same pipeline, so a route's document must stay within the limit at limit=1000.
    const { org, owner } = await createOrg(server.db);
    const response = await fetch(`${server.url}/v1/orgs/${org.id}/spaces?limit=1000`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(response.status).toBe(200);
  });

  it('refuses a document repeating one field thousands of times without comparing them pairwise', async () => {
    const { owner } = await createOrg(server.db);
    const repeated = `{ viewer { ${'id '.repeat(4000)} } }`;
    // A validation error: 400 for graphql-response+json (200 for plain JSON, as the GraphQL-over-HTTP spec says).
    const refused = await post(owner.token, { query: repeated }, 'application/graphql-response+json');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toBe(`A selection set holds 4000 fields (fragments included); at most ${MAX_SELECTION_FIELDS} are allowed`);
  });
});
