/**
 * Whether a request may write what the audit log records: the events a write records carry the
 * request's origin (kernel/outbox.ts, kernel/request-origin.ts), which app.ts sets around a
 * request's work with an AsyncLocalStorage run — a cost on every request, paid only by those that
 * may write.
 *
 * GET and HEAD write no event on the routes app.ts serves itself: REST's GET routes run GraphQL
 * queries (test/request-writes.test.ts checks the route table), GraphQL over GET runs no mutation
 * (yoga refuses one with 405, and the JSON fast path takes POST only), and the published sites,
 * health, metrics and GraphiQL's assets only read. The routes with handlers of their own (SSO
 * sign-in, whose GET callback signs a user in; invitations; files, exports, fonts, uploads,
 * OpenAPI specs) keep their origin whatever the method, as does every other method.
 */
import type { IncomingMessage } from 'node:http';
import { OWN_HANDLER_ROUTES } from './paths.js';

export function mayWrite(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return true;
  const url = req.url ?? '/';
  return OWN_HANDLER_ROUTES.some(([prefix]) => url.startsWith(prefix));
}
