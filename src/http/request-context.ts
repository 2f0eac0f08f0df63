/**
 * Who a request speaks for and what its operations receive: one place for every transport that
 * runs GraphQL operations — yoga (/graphql over HTTP, SSE and WebSocket, http/yoga.ts), its fast
 * path (http/graphql-fast-path.ts) and REST (/v1, rest/router.ts).
 *
 * The caller is the holder of the bearer token the Authorization header carries
 * (domain/people/identity/tokens.ts). A missing, malformed, unknown, expired or revoked token
 * holds nothing, and the request is refused with UNAUTHENTICATED (401) in the same words on every
 * transport, each in its own shape: REST `{"error": {"code": 401, "message"}}`, GraphQL
 * `errors[0].extensions.code`. A database that does not answer rejects the lookup instead
 * (503, worded by each transport).
 *
 * Known tokens are remembered for QUIRE_TOKEN_CACHE_SECONDS, so the rate limit's look at the
 * token (rate-limit-key.ts, made before the request is routed) and the transport's cost one
 * query at most. The context (schema/context.ts) is built once per operation: its loaders cache
 * for that operation only.
 */
import type { IncomingMessage } from 'node:http';
import type { Access } from '../domain/access/access.js';
import { createAuthenticator, type Authenticator, type TokenHolder } from '../domain/people/identity/tokens.js';
import { unauthenticated } from '../lib/errors.js';
import { createContext, type Context, type Services, type Viewer } from '../schema/context.js';
import { originOfRequest } from './request-origin.js';

export type RequestContexts = {
  /**
   * The holder of the token an Authorization header carries, or null. For who must not wait
   * for a refusal to be built (the fast path hands such a request to yoga; the rate limit spends
   * the address's budget instead).
   */
  authenticate: Authenticator;
  /** The caller an Authorization header speaks for; rejects with UNAUTHENTICATED (401) when none. */
  callerOf(authorization: string | null | undefined): Promise<TokenHolder>;
  /** The context of one operation of a caller, made for `req` (whose client its writes record) when there is one. */
  contextOf(caller: Viewer, req?: IncomingMessage): Context;
  /** The access checks of a user: the one a signed link (file download, PDF export) was made for. */
  accessOf(userId: string): Access;
};

export function createRequestContexts({ db, config, events, mailer }: Services): RequestContexts {
  const authenticate = createAuthenticator(db, { ttlMs: config.tokenCacheMs });
  const contextOf = (caller: Viewer, req?: IncomingMessage) => createContext({ db, config, events, mailer }, caller, req ? originOfRequest(req, config.trustProxy) : null);
  return {
    authenticate,
    async callerOf(authorization) {
      const caller = await authenticate(authorization);
      if (!caller) throw unauthenticated();
      return caller;
    },
    contextOf,
    accessOf: (userId) => contextOf({ userId }).access,
  };
}
