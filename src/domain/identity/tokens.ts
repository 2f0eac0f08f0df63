/** API tokens: random, shown once, stored as a SHA-256 digest. */
import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.js';
import { newId } from '../ids.js';

const PREFIX = 'quire_';

export const digestToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Issues a token for a user and returns its clear text (the only time it exists). */
export async function issueToken(db: Pick<Db, 'apiToken'>, userId: string): Promise<string> {
  const token = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  await db.apiToken.create({ data: { id: newId('ApiToken'), userId, digest: digestToken(token) } });
  return token;
}

export type Authenticator = (authorization: string | null | undefined) => Promise<string | null>;

/**
 * Resolves bearer tokens to user IDs, remembering known tokens for `ttlMs` (at most `max` of
 * them, least recently used dropped first) so a busy client does not cost a lookup per request.
 * A revoked token may therefore keep working for up to `ttlMs` on an instance that saw it; unknown
 * tokens are never remembered (a token issued a moment later works at once).
 */
export function createAuthenticator(db: Pick<Db, 'apiToken'>, { ttlMs = 10_000, max = 10_000 } = {}): Authenticator {
  const known = ttlMs > 0 ? new LRUCache<string, string>({ max, ttl: ttlMs }) : undefined;
  return async (authorization) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) return null;
    const digest = digestToken(match[1]);
    const cached = known?.get(digest);
    if (cached) return cached;
    const token = await db.apiToken.findUnique({ where: { digest }, select: { userId: true } });
    if (token) known?.set(digest, token.userId);
    return token?.userId ?? null;
  };
}
