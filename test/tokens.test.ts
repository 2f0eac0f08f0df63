/** API tokens: remembered briefly by each instance, never when unknown. */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createPrismaClient } from '../src/db/client.js';
import { createAuthenticator, digestToken } from '../src/domain/identity/tokens.js';
import { createOrg } from './helpers/factories.js';

const queries: string[] = [];
const db = createPrismaClient(inject('databaseUrl'), { onQuery: (sql) => queries.push(sql) });
afterAll(() => db.$disconnect());
const tokenLookups = () => queries.filter((q) => q.includes('"ApiToken"')).length;

describe('token authentication', () => {
  it('looks a known token up once per TTL, and stops accepting it once revoked and expired', async () => {
    const { owner } = await createOrg(db);
    const authenticate = createAuthenticator(db, { ttlMs: 200 });
    const before = tokenLookups();
    expect(await authenticate(`Bearer ${owner.token}`)).toBe(owner.id);
    expect(await authenticate(`bearer  ${owner.token} `)).toBe(owner.id);
    expect(tokenLookups() - before).toBe(1);

    await db.apiToken.delete({ where: { digest: digestToken(owner.token) } });
    expect(await authenticate(`Bearer ${owner.token}`)).toBe(owner.id); // still remembered
    await new Promise((resolve) => setTimeout(resolve, 300));
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
