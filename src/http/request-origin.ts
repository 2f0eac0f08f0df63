/**
 * Where a request's writes come from (domain/kernel/request-origin.ts): its client's address (as
 * the proxy setting resolves it, client-address.ts) and user agent; the pages of invitations and
 * SSO sign-in are quire's own UI, the rest its API. A WebSocket operation's is its upgrade request's.
 */
import type { IncomingMessage } from 'node:http';
import { requestOrigin, type RequestOrigin } from '../domain/kernel/request-origin.js';
import { clientOf } from './client-address.js';
import { INVITE_PATH, SSO_PATH } from './paths.js';

export function originOfRequest(req: IncomingMessage, trustProxy: string): RequestOrigin {
  const path = req.url ?? '/';
  const ui = path.startsWith(INVITE_PATH) || path.startsWith(SSO_PATH);
  const address = clientOf(req, trustProxy).address;
  return requestOrigin.of(ui ? 'ui' : 'api', address === 'unknown' ? null : address, req.headers['user-agent']);
}
