/**
 * Malformed input an attacker sends on purpose (security issue, item 6) answers a 4xx that names
 * what is wrong — never a 500, a stack overflow or a job stuck forever: JSON nested thousands of
 * levels deep (REST bodies, GraphQL variables), a broken percent-encoded site cookie, a refused
 * subscription over SSE, a deep list literal in a document, invalid UTF-8 in a JSON body, and an
 * OpenAPI specification nested deep enough to overflow its parser.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { gql, http, sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer({ worker: true });
let org: Awaited<ReturnType<typeof createOrg>>;
let spaceId: string;

beforeAll(async () => {
  org = await createOrg(server.db);
  spaceId = (await http(server.url, org.owner.token, 'POST', `/orgs/${org.org.id}/spaces`, { title: 'Target' })).body.id;
});

/** JSON text of `depth` arrays, one inside the other (JSON.parse reads it; recursive walkers overflow). */
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** A request of exactly these body bytes. */
async function send(path: string, method: string, body: BodyInit, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${org.owner.token}`, 'content-type': 'application/json', ...headers }, body });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) };
}

describe('malformed input an attacker sends', () => {
  it('answers 400 naming the depth limit for JSON nested thousands deep, in a REST body and in GraphQL variables', async () => {
    const rest = await send(`/v1/spaces/${spaceId}`, 'PATCH', `{"title":"Deep","extra":${deepArray(100_000)}}`);
    expect(rest.status, rest.text).toBe(400);
    expect(rest.json().error.message).toMatch(/"extra".*nested deeper than \d+ levels/);

    const query = JSON.stringify({ query: 'query($id: ID!) { space(id: $id) { id } }' }).slice(0, -1);
    const graphql = await send('/graphql', 'POST', `${query},"variables":{"id":"${spaceId}","deep":${deepArray(100_000)}}}`);
    expect(graphql.status, graphql.text).toBe(400);
    expect(graphql.json().errors[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
    expect(graphql.json().errors[0].message).toMatch(/"deep".*nested deeper than \d+ levels/);

    // The same through a JSON-typed argument, where the value reaches the resolver's own walkers.
    const cr = (await http(server.url, org.owner.token, 'POST', `/spaces/${spaceId}/change-requests`, { subject: 'Deep' })).body;
    const batch = await send(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, 'POST', `{"changes":[{"operation":"insert_page","title":"Deep","document":{"document":${'{"nodes":['.repeat(20_000)}${']}'.repeat(20_000)}}}]}`);
    expect(batch.status, batch.text).toBe(400);
    expect(batch.json().error.message).toMatch(/nested deeper than \d+ levels/);
  });

  it('treats a share or visitor cookie with broken percent-encoding as no cookie: asked again, not a 500', async () => {
    const api = sdk(server.url, org.owner.token);
    for (const [visibility, status] of [
      ['share-link', 404],
      ['visitor-auth', 401],
    ] as const) {
      const site = (await api.orgs.createSite(org.org.id, { title: `Site ${visibility}`, visibility: visibility as never, spaces: [spaceId] } as never)).data;
      await api.orgs.publishSite(org.org.id, site.id);
      const name = visibility === 'share-link' ? `quire_share_${site.id}` : `quire_visitor_${site.id}`;
      const response = await fetch(`${server.url}/sites/${site.id}/`, { headers: { cookie: `${name}=%E0%A4%A` }, redirect: 'manual' });
      expect(response.status, visibility).toBe(status);
    }
  });

  it('answers a subscription refused over SSE with its 4xx status and the error as an event', async () => {
    const stranger = await createOrg(server.db);
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${stranger.owner.token}` },
      body: JSON.stringify({ query: 'subscription($id: ID!) { organizationEvents(organizationId: $id) { kind } }', variables: { id: org.org.id } }),
    });
    expect(response.status).toBe(404);
    const text = await response.text();
    const event = text.split('\n\n').find((message) => message.startsWith('event: next'))!;
    const result = JSON.parse(event.split('\n').find((line) => line.startsWith('data: '))!.slice(6));
    expect(result.errors[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    expect(result.errors[0].message).not.toMatch(/internal/i);
    expect(text).toContain('event: complete');
  });

  it('answers 400 naming the limit for a list literal nested thousands deep in a document', async () => {
    const literal = `${'['.repeat(2400)}1${']'.repeat(2400)}`;
    for (const query of [`{ space(id: ${literal}) { id } }`, `mutation { updateSpace(id: "${spaceId}", input: { title: ${literal} }) { id } }`]) {
      const response = await send('/graphql', 'POST', JSON.stringify({ query }), { accept: 'application/graphql-response+json' });
      expect(response.status, response.text).toBe(400);
      expect(response.json().errors[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
      expect(response.json().errors[0].message).toMatch(/nested deeper than \d+ levels/);
    }
  });

  it('refuses a JSON body that is not valid UTF-8 with 400, in REST and GraphQL, instead of storing U+FFFD', async () => {
    // The text's é as Latin-1 (0xE9, a lone byte that starts no UTF-8 sequence it could end).
    const bytes = (text: string) => new Blob(text.split('\u00e9').flatMap((part, i) => (i ? [new Uint8Array([0xe9]), part] : [part])));
    const rest = await send(`/v1/spaces/${spaceId}`, 'PATCH', bytes('{"title":"Caf\u00e9"}'));
    expect(rest.status, rest.text).toBe(400);
    expect(rest.json().error.message).toBe('Request body is not valid UTF-8');

    const mutation = JSON.stringify({ query: 'mutation($id: ID!, $t: String) { updateSpace(id: $id, input: { title: $t }) { title } }', variables: { id: spaceId, t: 'Caf\u00e9' } });
    const graphql = await send('/graphql', 'POST', bytes(mutation));
    expect(graphql.status, graphql.text).toBe(400);
    expect(graphql.json().errors[0]).toMatchObject({ message: 'Request body is not valid UTF-8', extensions: { code: 'BAD_REQUEST' } });
    // Streamed to yoga rather than read first (an event stream is asked for): refused all the same.
    const streamed = await send('/graphql', 'POST', bytes(mutation), { accept: 'text/event-stream' });
    expect(streamed.status, streamed.text).toBe(400);

    expect((await http(server.url, org.owner.token, 'GET', `/spaces/${spaceId}`)).body.title).toBe('Target');
  });

  it('ends a deeply nested OpenAPI specification, JSON or YAML, with PARSE_ERROR naming the depth, not stuck in progress', async () => {
    const depth = 20_000;
    const texts = {
      json: `{"openapi":"3.1.0","info":{"title":"Deep","version":"1"},"paths":{},"components":{"schemas":{"Deep":${'{"items":'.repeat(depth)}{}${'}'.repeat(depth)}}}}`,
      yaml: `openapi: 3.1.0\ninfo: { title: Deep, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    Deep: ${'{ items: '.repeat(depth)}{}${' }'.repeat(depth)}\n`,
    };
    for (const [slug, text] of Object.entries(texts)) {
      const created = await http(server.url, org.owner.token, 'POST', `/orgs/${org.org.id}/openapi`, { slug, source: { text } });
      expect(created.status).toBe(201);
    }
    for (const slug of Object.keys(texts)) {
      let spec: Record<string, any> = {};
      await expect
        .poll(
          async () => {
            spec = (await http(server.url, org.owner.token, 'GET', `/orgs/${org.org.id}/openapi/${slug}`)).body;
            return spec.processingState === 'complete' ? spec.lastProcessErrorCode : spec.processingState;
          },
          { timeout: 30_000, interval: 250 },
        )
        .toBe('PARSE_ERROR');
      expect(spec.lastProcessedErrors[0].message, slug).toMatch(/nested deeper than \d+ levels/);
    }
  }, 60_000);
});
