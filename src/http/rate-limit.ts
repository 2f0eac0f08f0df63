/**
 * Requests per token (per client address without a valid one: rate-limit-key.ts) and window, counted where every instance
 * sees the same counts: Redis when REDIS_URL is set, otherwise PostgreSQL (the `quire_rate_limits`
 * table). Every answer states the budget in the headers the real service uses — X-RateLimit-Limit,
 * X-RateLimit-Remaining, X-RateLimit-Reset (epoch seconds) — and a request over it is a 429
 * `{error: {code, message}}` with Retry-After (`refusal` is its message). Tokens are counted by digest, never stored.
 * Requests are counted in this process and sent to the store in batches (rate-limit-sync.ts);
 * with the store unreachable, requests are served, limited only by this instance's own counts.
 */
import type { Redis } from 'ioredis';
import { loadIoredis } from '../lib/ioredis.js';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createSyncedCounter, type Take } from './rate-limit-sync.js';

export type RateLimitVerdict = { allowed: true; headers: Record<string, string> } | { allowed: false; headers: Record<string, string>; refusal: string; retryAfter: number };

export type RateLimiter = {
  /** Counts one request (or WebSocket operation) against `key`'s budget (rate-limit-key.ts). */
  check(key: string): Promise<RateLimitVerdict>;
  /**
   * check() without waiting, for a request it admits then: its headers as [name, value, …];
   * undefined, with nothing counted, when check() must decide (a refusal, the store to ask first).
   */
  admitNow(key: string): readonly string[] | undefined;
  close(): Promise<void>;
};

export function createRateLimiter(opts: {
  points: number;
  windowSeconds: number;
  redisUrl?: string;
  pool?: pg.Pool;
  /** How often counts are sent to the store (ms); 0 sends each request's (default 500). */
  syncMs?: number;
  /** Keys tracked at once (default 50,000); the least recently used go first. */
  maxKeys?: number;
}): RateLimiter | undefined {
  if (opts.points <= 0) return undefined;
  let redis: Redis | undefined;
  let limiter: RateLimiterAbstract;
  let connected: Promise<unknown> | undefined;
  const common = { points: opts.points, duration: opts.windowSeconds, keyPrefix: 'quire-rl' };
  if (opts.redisUrl) {
    redis = new (loadIoredis().Redis)(opts.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    redis.on('error', () => {}); // counted as unavailable below; the bus logs Redis trouble
    // Commands fail at once while Redis is not connected; the first requests wait for the first
    // connection (a second at most) rather than find the store down while it is being reached.
    connected = new Promise((resolve) => (redis!.once('ready', resolve), setTimeout(resolve, 1000).unref()));
    limiter = new RateLimiterRedis({ ...common, storeClient: redis });
  } else if (opts.pool) {
    limiter = new RateLimiterPostgres({ ...common, storeClient: opts.pool, storeType: 'pool', tableName: 'quire_rate_limits', tableCreated: true, clearExpiredByTimeout: true });
  } else {
    return undefined;
  }
  const counter = createSyncedCounter(limiter, { limit: opts.points, windowMs: opts.windowSeconds * 1000, syncMs: opts.syncMs ?? 500, maxKeys: opts.maxKeys ?? 50_000, connected });

  const limit = String(opts.points);
  const headersOf = (take: Take) => ({
    'x-ratelimit-limit': limit,
    'x-ratelimit-remaining': String(Math.max(0, opts.points - take.used)),
    'x-ratelimit-reset': String(Math.ceil(take.resetAt / 1000)),
  });

  return {
    async check(key) {
      const take = await counter.take(key);
      if (!take.allowed) {
        const retryAfter = Math.max(1, Math.ceil((take.resetAt - Date.now()) / 1000));
        const refusal = `Rate limit of ${opts.points} requests per ${opts.windowSeconds} s exceeded; retry after ${retryAfter} s`;
        return { allowed: false, headers: { ...headersOf(take), 'retry-after': String(retryAfter) }, refusal, retryAfter };
      }
      // The store has not answered for this window (unreachable): the budget is not known, so not
      // stated. Requests are served rather than refused (the database being down answers 503 on
      // its own; Redis being down must not stop the API).
      return { allowed: true, headers: take.confirmed ? headersOf(take) : {} };
    },
    admitNow(key) {
      const take = counter.takeNow(key);
      if (!take) return undefined;
      return take.confirmed ? ['x-ratelimit-limit', limit, 'x-ratelimit-remaining', String(Math.max(0, opts.points - take.used)), 'x-ratelimit-reset', String(Math.ceil(take.resetAt / 1000))] : [];
    },
    async close() {
      await counter.close(2000);
      await redis?.quit().catch(() => redis?.disconnect());
    },
  };
}
