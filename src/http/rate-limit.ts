/**
 * Requests per token (per client address without one) and window, counted where every instance
 * sees the same counts: Redis when REDIS_URL is set, otherwise PostgreSQL (the `quire_rate_limits`
 * table). Every answer states the budget in the headers the real service uses — X-RateLimit-Limit,
 * X-RateLimit-Remaining, X-RateLimit-Reset (epoch seconds) — and a request over it is a 429
 * `{error: {code, message}}` with Retry-After. Tokens are counted by digest, never stored.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export type RateLimitVerdict = { allowed: boolean; headers: Record<string, string> };

export type RateLimiter = {
  check(req: IncomingMessage): Promise<RateLimitVerdict>;
  close(): Promise<void>;
};

function keyOf(req: IncomingMessage): string {
  const authorization = req.headers.authorization;
  if (authorization) return `token:${createHash('sha256').update(authorization).digest('base64url')}`;
  return `address:${req.socket.remoteAddress ?? 'unknown'}`;
}

export function createRateLimiter(opts: { points: number; windowSeconds: number; redisUrl?: string; pool?: pg.Pool }): RateLimiter | undefined {
  if (opts.points <= 0) return undefined;
  let redis: Redis | undefined;
  let limiter: RateLimiterAbstract;
  const common = { points: opts.points, duration: opts.windowSeconds, keyPrefix: 'quire-rl' };
  if (opts.redisUrl) {
    redis = new Redis(opts.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    redis.on('error', () => {}); // counted as unavailable below; the bus logs Redis trouble
    limiter = new RateLimiterRedis({ ...common, storeClient: redis });
  } else if (opts.pool) {
    limiter = new RateLimiterPostgres({ ...common, storeClient: opts.pool, storeType: 'pool', tableName: 'quire_rate_limits', tableCreated: true, clearExpiredByTimeout: true });
  } else {
    return undefined;
  }

  const headersOf = (state: RateLimiterRes) => ({
    'x-ratelimit-limit': String(opts.points),
    'x-ratelimit-remaining': String(Math.max(0, state.remainingPoints)),
    'x-ratelimit-reset': String(Math.ceil((Date.now() + state.msBeforeNext) / 1000)),
  });

  return {
    async check(req) {
      try {
        const state = await limiter.consume(keyOf(req));
        return { allowed: true, headers: headersOf(state) };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          return { allowed: false, headers: { ...headersOf(rejection), 'retry-after': String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))) } };
        }
        // The store cannot be reached: requests are served rather than refused (the database
        // being down answers 503 on its own; Redis being down must not stop the API).
        return { allowed: true, headers: {} };
      }
    },
    async close() {
      await redis?.quit().catch(() => redis?.disconnect());
    },
  };
}
