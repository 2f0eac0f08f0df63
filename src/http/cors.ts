/**
 * CORS for browsers calling the API from other origins: QUIRE_CORS_ORIGINS lists the origins
 * allowed (`*`: any; empty: none). Tokens travel in the Authorization header, never in cookies, so
 * credentials are not involved. Preflights are answered here for every path (REST included); the
 * headers a client needs to read (request ID, rate limit) are exposed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOWED_HEADERS = 'authorization, content-type, accept, x-request-id';
const EXPOSED_HEADERS = 'x-request-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after';
const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

export type Cors = {
  /** Adds the CORS headers to the answer; true when the request was a preflight, now answered. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
};

export function createCors(origins: readonly string[]): Cors {
  const any = origins.includes('*');
  const allowed = new Set(origins.map((o) => o.replace(/\/$/, '').toLowerCase()));
  return {
    handle(req, res) {
      const origin = req.headers.origin;
      if (!origin) return false;
      res.appendHeader('vary', 'Origin');
      const permitted = any || allowed.has(origin.toLowerCase());
      if (permitted) {
        res.setHeader('access-control-allow-origin', any ? '*' : origin);
        res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
      }
      if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return false;
      if (permitted) {
        res.setHeader('access-control-allow-methods', METHODS);
        res.setHeader('access-control-allow-headers', ALLOWED_HEADERS);
        res.setHeader('access-control-max-age', '600');
      }
      res.writeHead(204);
      res.end();
      return true;
    },
  };
}
