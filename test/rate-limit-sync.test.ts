/**
 * The rate limit counted locally and synced to the shared store in batches: instances sharing a
 * store learn each other's counts, a fresh instance does not hand out a new budget, the total stays
 * within the limit plus the documented bound, a burst on one instance stops at the limit, and an
 * unreachable store serves requests without throwing — with PostgreSQL, and with Redis.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRateLimiter, type RateLimiter, type RateLimitVerdict } from '../src/http/rate-limit.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const LIMIT = 100;
const SHARE = LIMIT * 0.05; // unconfirmed admissions one instance may hold (see rate-limit-sync.ts)
const SYNC_MS = 50;
const REDIS_URL = 'redis://127.0.0.1:6379';

const pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 4 });
const deadPool = new pg.Pool({ connectionString: 'postgresql://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 2000 });
const limiters: RateLimiter[] = [];
afterAll(async () => {
  await Promise.all(limiters.map((l) => l.close()));
  await Promise.all([pool.end(), deadPool.end()]);
});

const redisUp = await new Promise<boolean>((resolve) => {
  const socket = net.connect(6379, '127.0.0.1', () => (socket.destroy(), resolve(true)));
  socket.on('error', () => resolve(false));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A request's budget key, as rate-limit-key.ts names an authenticated token's. */
const requestOf = (token: string) => `token:${token}`;
const remaining = (v: RateLimitVerdict) => Number(v.headers['x-ratelimit-remaining']);
const storeKey = (token: string) => `quire-rl:token:${token}`;

type Store = { redisUrl?: string; pool?: pg.Pool };
function limiter(store: Store, opts: { points?: number; syncMs?: number } = {}) {
  const l = createRateLimiter({ points: LIMIT, windowSeconds: 60, syncMs: SYNC_MS, ...store, ...opts })!;
  limiters.push(l);
  return l;
}

/** Requests on one instance until its headers state the whole count across instances, i.e. it has synced. */
async function untilSynced(l: RateLimiter, req: string, total: { admitted: number }) {
  for (let i = 0; i < 200; i++) {
    const v = await l.check(req);
    expect(v.allowed).toBe(true);
    total.admitted++;
    if (remaining(v) === LIMIT - total.admitted) return;
    await sleep(20);
  }
  throw new Error('the instance never learned the count of the other');
}

function sharedStoreTests(store: Store, storeCount: (token: string) => Promise<number>) {
  it('a fresh instance consults the store first, and instances learn each other’s counts after a flush', async () => {
    const [a, b] = [limiter(store), limiter(store)];
    const token = randomUUID();
    const req = requestOf(token);
    const total = { admitted: 0 };
    for (let i = 1; i <= 10; i++) {
      const v = await a.check(req);
      expect([v.allowed, remaining(v)]).toEqual([true, LIMIT - i]);
      total.admitted++;
    }
    for (let i = 0; i < 200 && (await storeCount(token)) < 10; i++) await sleep(20);
    expect(await storeCount(token)).toBe(10);
    // B has never seen the key: it asks the store before answering, so its budget is what A left.
    for (let i = 1; i <= 5; i++) expect(remaining(await b.check(req))).toBe(LIMIT - 10 - i);
    total.admitted += 5;
    await untilSynced(a, req, total); // A learns B's 5 once B has sent them
    await untilSynced(b, req, total); // and B learns A's latest
  });

  it('two instances bursting on one key admit the limit, plus at most their unconfirmed shares, and the store counts each admission once', async () => {
    const [a, b] = [limiter(store), limiter(store)];
    const token = randomUUID();
    const req = requestOf(token);
    const burst = (l: RateLimiter) => Array.from({ length: 150 }, () => l.check(req));
    const verdicts = await Promise.all([...burst(a), ...burst(b)]);
    const admitted = verdicts.filter((v) => v.allowed).length;
    expect(admitted).toBeGreaterThanOrEqual(LIMIT);
    // The documented bound for N busy instances: N × share, plus what they admit during one round trip (≤ one share each here).
    expect(admitted).toBeLessThanOrEqual(LIMIT + 2 * 2 * SHARE);
    await Promise.all([a.close(), b.close()]); // close sends what is pending
    expect(await storeCount(token)).toBe(admitted);
    // A third instance sees the spent budget at once.
    const c = limiter(store);
    const refused = await c.check(req);
    expect(refused.allowed).toBe(false);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('a burst on one instance is refused once the limit is reached, with the 429 headers', async () => {
    const a = limiter(store);
    const req = requestOf(randomUUID());
    const verdicts = await Promise.all(Array.from({ length: LIMIT + 30 }, () => a.check(req)));
    const allowed = verdicts.filter((v) => v.allowed);
    const refused = verdicts.filter((v) => !v.allowed);
    expect(allowed).toHaveLength(LIMIT);
    expect(allowed.map(remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    expect(refused).toHaveLength(30);
    for (const v of refused) {
      expect(v.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(v.headers['x-ratelimit-remaining']).toBe('0');
      const reset = Number(v.headers['x-ratelimit-reset']);
      expect(reset * 1000).toBeGreaterThan(Date.now());
      expect(reset * 1000).toBeLessThanOrEqual(Date.now() + 61_000);
      const retryAfter = Number(v.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    expect(allowed.every((v) => v.headers['retry-after'] === undefined)).toBe(true);
  });

  it('a limit too small to batch is counted exactly across instances', async () => {
    const [a, b] = [limiter(store, { points: 5 }), limiter(store, { points: 5 })];
    const req = requestOf(randomUUID());
    const verdicts = [];
    for (let i = 0; i < 6; i++) verdicts.push(await (i % 2 ? b : a).check(req));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, true, true, false]);
    expect(verdicts.map((v) => v.headers['x-ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0', '0']);
  });
}

function unreachableStoreTests(store: Store) {
  let unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => void ((unhandled = []), process.on('unhandledRejection', onUnhandled)));
  afterEach(() => void process.off('unhandledRejection', onUnhandled));

  it('serves requests, never throws, and closes', async () => {
    const l = limiter(store);
    const req = requestOf(randomUUID());
    for (let i = 0; i < 20; i++) expect(await l.check(req)).toEqual({ allowed: true, headers: {} });
    const concurrent = await Promise.all(Array.from({ length: 20 }, () => l.check(requestOf(randomUUID()))));
    expect(concurrent.every((v) => v.allowed)).toBe(true);
    await sleep(1200); // past the back-off: the timed flush tries the store again, and fails quietly
    expect((await l.check(req)).allowed).toBe(true);
    await l.close();
    await sleep(50);
    expect(unhandled).toEqual([]);
  });

  it('still stops one instance from passing the limit on its own', async () => {
    const l = limiter(store, { points: 20 });
    const req = requestOf(randomUUID());
    const verdicts = [];
    for (let i = 0; i < 21; i++) verdicts.push(await l.check(req));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(20);
    expect(verdicts[20].allowed).toBe(false);
    expect(Number(verdicts[20].headers['retry-after'])).toBeGreaterThan(0);
    await l.close();
    expect(unhandled).toEqual([]);
  });
}

describe('the rate limit synced to PostgreSQL', () => {
  sharedStoreTests({ pool }, async (token) => {
    const { rows } = await pool.query<{ points: number }>('SELECT points FROM quire_rate_limits WHERE key = $1', [storeKey(token)]);
    return rows[0]?.points ?? 0;
  });
  describe('with PostgreSQL unreachable', () => unreachableStoreTests({ pool: deadPool }));
});

describe.skipIf(!redisUp && process.env.CI !== 'true')('the rate limit synced to Redis', () => {
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  afterAll(() => redis.quit());
  sharedStoreTests({ redisUrl: REDIS_URL }, async (token) => Number((await redis.get(storeKey(token))) ?? 0));
  describe('with Redis unreachable', () => unreachableStoreTests({ redisUrl: 'redis://127.0.0.1:1' }));
});
