/**
 * Whose budget a request spends in the rate limit: its token's, when its Authorization header
 * carries a token that authenticates — keyed on the token's digest, so every spelling of one
 * token (`bearer`, `BEARER  `, a tab…) is one key — and otherwise its client's address
 * (client-address.ts). A junk token, or a rotating stream of them, thus spends its sender's
 * address budget and adds no key of its own to the store.
 *
 * Deciding costs nothing for a known token (the authenticator remembers it) and one lookup for
 * an unknown one; a token that did not authenticate is remembered here for a while, so that
 * repeating it costs no lookup either. That memory only decides whose budget is spent: whether a
 * request is authenticated is still the authenticator's answer.
 */
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import { bearerDigest, type Authenticator } from '../domain/people/identity/tokens.js';
import { clientOf } from './client-address.js';

export type RateLimitKeyOf = (req: IncomingMessage, authorization?: string) => Promise<string>;

export function createRateLimitKeys(authenticate: Authenticator, trustProxy: string): RateLimitKeyOf {
  const refused = new LRUCache<string, true>({ max: 10_000, ttl: 10_000 });
  return async (req, authorization = req.headers.authorization) => {
    const digest = bearerDigest(authorization);
    if (digest && !refused.has(digest)) {
      // Not knowing (the database unreachable): the address's budget; the request itself then
      // answers 503 in the shape of its protocol, from where it authenticates.
      const holder = await authenticate(authorization).catch(() => undefined);
      if (holder) return `token:${digest}`;
      if (holder === null) refused.set(digest, true);
    }
    return addressKeyOf(req, trustProxy);
  };
}

/** The key of a request without a token (no Authorization header): its client's address. */
export const addressKeyOf = (req: IncomingMessage, trustProxy: string) => `address:${clientOf(req, trustProxy).network}`;
