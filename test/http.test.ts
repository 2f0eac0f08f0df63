import { describe, expect, it } from 'vitest';
import { useServer } from './helpers/server.js';

const server = useServer();

describe('HTTP surface', () => {
  it('serves liveness and readiness', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
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
    expect(method.headers.get('allow')).toBe('GET');
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
});
