/**
 * The rate limit — per token (per address without one), stated on every answer in the real
 * service's headers, a 429 with Retry-After beyond it, shared by instances (PostgreSQL here;
 * Redis when configured) — and CORS for browsers.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPrismaClient } from '../src/db/client.js';
import { createOrg } from './helpers/factories.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const db = createPrismaClient(testDatabaseUrl());
const apps: App[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
  await db.$disconnect();
});

async function instance(limit: number) {
  const app = buildApp({ db, config: { ...loadConfig({ PORT: '0', QUIRE_RATE_LIMIT: String(limit), QUIRE_RATE_LIMIT_WINDOW_SECONDS: '60' }), databaseUrl: testDatabaseUrl() } });
  apps.push(app);
  return (await app.start(0, '127.0.0.1')).url;
}

describe('the rate limit', () => {
  it('counts each token across instances, states it in headers, and answers 429 with Retry-After beyond it', async () => {
    const [a, b] = [await instance(5), await instance(5)];
    const { org, owner } = await createOrg(db);
    const other = await createOrg(db);
    const get = (base: string, token: string) => fetch(`${base}/v1/orgs/${org.id}`, { headers: { authorization: `Bearer ${token}` } });

    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await get(i % 2 ? b : a, owner.token)); // alternating instances: one budget
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
    expect(answers[0].headers.get('x-ratelimit-limit')).toBe('5');
    const reset = Number(answers[0].headers.get('x-ratelimit-reset'));
    expect(reset * 1000).toBeGreaterThan(Date.now());
    expect(reset * 1000).toBeLessThanOrEqual(Date.now() + 61_000);

    const refused = await get(b, owner.token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: { code: 429, message: expect.stringContaining('Rate limit of 5 requests per 60 s exceeded') } });
    // GraphQL shares the budget; another token has its own.
    expect((await fetch(`${a}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: '{"query":"{ viewer { id } }"}' })).status).toBe(429);
    expect((await fetch(`${a}/v1/orgs/${other.org.id}`, { headers: { authorization: `Bearer ${other.owner.token}` } })).status).toBe(200);
    // Liveness and metrics are not counted.
    expect((await fetch(`${a}/healthz`)).status).toBe(200);
    // The token itself is not stored: the counters hold its digest.
    const keys = await db.$queryRawUnsafe<{ key: string }[]>('SELECT key FROM quire_rate_limits');
    expect(keys.some((k) => k.key.includes(owner.token))).toBe(false);
  });
});

describe('CORS', () => {
  it('answers preflights on every path for allowed origins, and exposes the headers clients read', async () => {
    const app = buildApp({ db, config: { ...loadConfig({ PORT: '0', QUIRE_CORS_ORIGINS: 'https://docs.example, https://admin.example/' }), databaseUrl: testDatabaseUrl() } });
    apps.push(app);
    const { url } = await app.start(0, '127.0.0.1');
    const preflight = (origin: string, path: string) =>
      fetch(`${url}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization, content-type' } });
    for (const path of ['/v1/spaces/spc_x', '/graphql']) {
      const ok = await preflight('https://docs.example', path);
      expect(ok.status).toBe(204);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://docs.example');
      expect(ok.headers.get('access-control-allow-methods')).toContain('PATCH');
      expect(ok.headers.get('access-control-allow-headers')).toContain('authorization');
    }
    const stranger = await preflight('https://evil.example', '/v1/spaces/spc_x');
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    const { owner } = await createOrg(db);
    const answer = await fetch(`${url}/graphql`, { method: 'POST', headers: { origin: 'https://admin.example', authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: '{"query":"{ viewer { id } }"}' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://admin.example');
    expect(answer.headers.get('access-control-expose-headers')).toContain('x-ratelimit-remaining');
    expect(answer.headers.get('vary')).toContain('Origin');
  });
});
