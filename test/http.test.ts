import { describe, expect, it } from 'vitest';
import { sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

describe('HTTP surface', () => {
  it('serves liveness and readiness', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('compresses large answers the client accepts compressed: GraphiQL, JSON lists', async () => {
    const page = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html', 'accept-encoding': 'br' } });
    expect(page.headers.get('content-encoding')).toBe('br');
    expect((await page.text()).length).toBeGreaterThan(1024); // fetch decodes it (the page links to its assets: test/graphiql.test.ts)
    const { org, owner } = await createOrg(server.db);
    for (let i = 0; i < 10; i++) await fetch(`${server.url}/v1/orgs/${org.id}/spaces`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: '{"title":"Compressed"}' });
    const list = await fetch(`${server.url}/v1/orgs/${org.id}/spaces`, { headers: { authorization: `Bearer ${owner.token}`, 'accept-encoding': 'gzip' } });
    expect(list.headers.get('content-encoding')).toBe('gzip');
    expect((await list.json()).items).toHaveLength(10);
    const plain = await fetch(`${server.url}/healthz`, { headers: { 'accept-encoding': 'gzip' } });
    expect(plain.headers.get('content-encoding')).toBeNull(); // small answers stay as they are
  });

  it('serves GraphiQL to a browser without a token', async () => {
    const page = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('graphiql');
  });

  it('answers unknown REST paths and methods with the error shape', async () => {
    const missing = await fetch(`${server.url}/v1/nope`, { headers: { authorization: 'Bearer x' } });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe(404);
    const method = await fetch(`${server.url}/v1/orgs`, { method: 'DELETE', headers: { authorization: 'Bearer x' } });
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET, POST');
  });

  it('answers documented paths it leaves out with 501 naming why, and the caller with GET /user', async () => {
    const { org, owner } = await createOrg(server.db);
    const integrations = await fetch(`${server.url}/v1/orgs/${org.id}/integrations`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(integrations.status).toBe(501);
    expect(await integrations.json()).toEqual({ error: { code: 501, message: expect.stringMatching(/^GET \/v1\/orgs\/\{organizationId\}\/integrations is out of this server's scope \(Integrations: /) } });
    const allIntegrations = await fetch(`${server.url}/v1/integrations`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(allIntegrations.status).toBe(501);
    const user = await sdk(server.url, owner.token).user.getAuthenticatedUser();
    expect(user.data).toMatchObject({ object: 'user', id: owner.id, email: owner.email });
  });

  it('serves its own OpenAPI document at /v1/openapi.json, without a token', async () => {
    const response = await fetch(`${server.url}/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.servers).toEqual([{ url: '/v1' }]);
    expect(document.paths['/spaces/{spaceId}'].get.operationId).toBe('getSpaceById');
    expect(document.paths['/orgs/{organizationId}/integrations']).toBeUndefined(); // not served: not documented here
    expect(document.paths['/orgs/{organizationId}/sites'].get.operationId).toBe('listSites');
    expect(document.components.schemas.Space).toBeDefined();
  });

    it('refuses request bodies over 1 MiB with 413', async () => {
    const response = await fetch(`${server.url}/v1/orgs`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe(413);
  });

  it('bounds GraphQL bodies too, whether their length is declared or chunked', async () => {
    const chunked = (text: string) =>
      new ReadableStream({
        start(controller) {
          for (let i = 0; i < text.length; i += 64 * 1024) controller.enqueue(new TextEncoder().encode(text.slice(i, i + 64 * 1024)));
          controller.close();
        },
      });
    const post = (body: string | ReadableStream) =>
      fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    const huge = JSON.stringify({ query: `{ __typename } # ${'x'.repeat(2 * 1024 * 1024)}` });
    expect((await post(huge)).status).toBe(413);
    expect((await post(chunked(huge))).status).toBe(413);
    // A small chunked body is read and executed (then refused for want of a token, as any request).
    const small = await post(chunked(JSON.stringify({ query: '{ __typename }' })));
    expect(small.status).toBe(401);
    expect((await small.json()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('answers a malformed percent-encoding in a REST path with 400', async () => {
    const { owner } = await createOrg(server.db);
    const response = await fetch(`${server.url}/v1/spaces/%E0%A4%A`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(response.status).toBe(400);
  });
});
