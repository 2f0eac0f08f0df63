/**
 * API tokens: remembered briefly by each instance, never when unknown; listed, issued with a name
 * and an expiry, and revoked by their owner (GraphQL) or an operator (CLI, in cli.test.ts); a
 * removed member's token no longer reaches the organization.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '../src/db/client.js';
import { createAuthenticator, digestToken } from '../src/domain/people/identity/tokens.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { gql } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const queries: string[] = [];
const db = createPrismaClient(testDatabaseUrl(), { onQuery: (sql) => queries.push(sql) });
afterAll(() => db.$disconnect());
const tokenLookups = () => queries.filter((q) => q.includes('"ApiToken"') && q.trimStart().startsWith('SELECT')).length;

describe('token authentication', () => {
  it('looks a known token up once per TTL, and stops accepting it once revoked and expired', async () => {
    const { owner } = await createOrg(db);
    // Long enough that a loaded CI machine cannot pass it between remembering and the delete below.
    const authenticate = createAuthenticator(db, { ttlMs: 3000 });
    const before = tokenLookups();
    expect(await authenticate(`Bearer ${owner.token}`)).toEqual({ userId: owner.id, confinedTo: null, ssoOrganizationId: null, ssoBound: false });
    expect((await authenticate(`bearer  ${owner.token} `))?.userId).toBe(owner.id);
    expect(tokenLookups() - before).toBe(1);

    await db.apiToken.delete({ where: { digest: digestToken(owner.token) } });
    expect((await authenticate(`Bearer ${owner.token}`))?.userId).toBe(owner.id); // still remembered
    await new Promise((resolve) => setTimeout(resolve, 3100));
    expect(await authenticate(`Bearer ${owner.token}`)).toBeNull();
  });

  it('never remembers unknown tokens or malformed headers, and can be told to remember nothing', async () => {
    const authenticate = createAuthenticator(db, { ttlMs: 60_000 });
    expect(await authenticate('Bearer quire_unknown')).toBeNull();
    expect(await authenticate('Basic abc')).toBeNull();
    expect(await authenticate(undefined)).toBeNull();

    const { owner } = await createOrg(db);
    const uncached = createAuthenticator(db, { ttlMs: 0 });
    const before = tokenLookups();
    await uncached(`Bearer ${owner.token}`);
    await uncached(`Bearer ${owner.token}`);
    expect(tokenLookups() - before).toBe(2);
  });
});

describe('managing tokens', () => {
  it('lists, issues (named, expiring) and revokes the caller\'s own tokens, and records their use', async () => {
    // An instance that remembers no token: a revoked one stops at once.
    const app = buildApp({ db, config: { ...loadConfig({ PORT: '0', QUIRE_TOKEN_CACHE_SECONDS: '0', QUIRE_RATE_LIMIT: '0' }), databaseUrl: testDatabaseUrl() } });
    const { url } = await app.start(0, '127.0.0.1');
    try {
      const { owner } = await createOrg(db);
      const stranger = (await createOrg(db)).owner;
      const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
      const issued = await gql(url, owner.token, 'mutation($e: DateTime) { createApiToken(input: { name: "CI", expiresAt: $e }) { token apiToken { id name expiresAt lastUsedAt } } }', { e: expiresAt });
      const { token, apiToken } = issued.data.createApiToken;
      expect(token).toMatch(/^quire_/);
      expect(apiToken).toMatchObject({ name: 'CI', expiresAt, lastUsedAt: null });

      expect((await gql(url, token, '{ viewer { id } }')).data.viewer.id).toBe(owner.id);
      await new Promise((resolve) => setTimeout(resolve, 100)); // lastUsedAt is written after answering
      const listed = (await gql(url, owner.token, '{ apiTokens { id name lastUsedAt expiresAt } }')).data.apiTokens;
      expect(listed).toHaveLength(2); // the owner's first token and this one; no secret in sight
      expect(listed.find((t: { id: string }) => t.id === apiToken.id).lastUsedAt).not.toBeNull();
      expect(JSON.stringify(listed)).not.toContain(token);

      // Nobody else's token can be revoked (or seen) by id.
      const foreign = await gql(url, stranger.token, 'mutation($id: ID!) { revokeApiToken(id: $id) }', { id: apiToken.id });
      expect(foreign.errors?.[0].extensions?.code).toBe('NOT_FOUND');
      expect((await gql(url, owner.token, 'mutation($id: ID!) { revokeApiToken(id: $id) }', { id: apiToken.id })).data.revokeApiToken).toBe(true);
      expect((await fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);

      const past = await gql(url, owner.token, 'mutation { createApiToken(input: { expiresAt: "2020-01-01T00:00:00Z" }) { token } }');
      expect(past.errors?.[0].message).toContain('expiresAt');
      const soon = (await gql(url, owner.token, 'mutation($e: DateTime) { createApiToken(input: { expiresAt: $e }) { token } }', { e: new Date(Date.now() + 1500).toISOString() })).data.createApiToken.token;
      expect((await fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${soon}` } })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1700));
      expect((await fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${soon}` } })).status).toBe(401);
    } finally {
      await app.stop();
    }
  });

  it('stops reaching an organization once its user is removed from it', async () => {
    const app = buildApp({ db, config: { ...loadConfig({ PORT: '0', QUIRE_RATE_LIMIT: '0' }), databaseUrl: testDatabaseUrl() } });
    const { url } = await app.start(0, '127.0.0.1');
    try {
      const { org, owner } = await createOrg(db);
      const member = await createActor(db, { org: org.id, role: 'edit' });
      const get = () => fetch(`${url}/v1/orgs/${org.id}`, { headers: { authorization: `Bearer ${member.token}` } });
      expect((await get()).status).toBe(200);
      expect((await fetch(`${url}/v1/orgs/${org.id}/members/${member.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${owner.token}` } })).status).toBe(205);
      expect((await get()).status).toBe(404);
      expect((await fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${member.token}` } })).status).toBe(200); // still their own token
    } finally {
      await app.stop();
    }
  });
});

