/**
 * Who may read a published site, by its visibility: anyone (`public`, `unlisted`); whoever holds
 * an active share link's key (`share-link`: `?shareKey=`, then a cookie); whoever brings a JWT
 * signed (HS256) with the site's visitor-auth key (`visitor-auth`: `?jwt_token=`, then a cookie),
 * whose claims the site's conditions read. The key and token are kept in an HttpOnly cookie
 * scoped to the site, so links between pages need not carry them.
 */
import type { RequestTarget } from '../http/request-target.js';
import type { IncomingMessage } from 'node:http';
import { jwtVerify } from 'jose';
import type { Site } from '../generated/prisma/client.js';
import type { Db } from '../db/client.js';

/** `preview`: opened by a site preview link (preview.ts), not by the site's visibility. */
export type Visitor = { claims: Record<string, unknown>; shareKey?: string; cookies: string[]; preview?: true };

export type Admission = { ok: true; visitor: Visitor } | { ok: false; status: 401 | 404; redirect?: string };

/**
 * Where a visitor-auth site sends a visitor without a valid token: its fallback URL, with the
 * path they asked for (under the site) as `location`, so the upstream sign-in can bring them back.
 */
function fallbackOf(site: Site, url: RequestTarget, sitePath: string): string | undefined {
  if (!site.visitorAuthFallbackUrl) return undefined;
  const target = new URL(site.visitorAuthFallbackUrl);
  const path = url.pathname.startsWith(sitePath) ? url.pathname.slice(sitePath.length) : url.pathname;
  target.searchParams.set('location', path.startsWith('/') ? path : `/${path}`);
  return target.toString();
}

/** The cookie's value; none when its percent-encoding is broken (the visitor is asked again, not answered a 500). */
export function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined; // URIError
    }
  }
  return undefined;
}

/** Over HTTPS (`secure`), the key and token cookies never travel in clear afterwards. */
export const setCookie = (name: string, value: string, path: string, secure: boolean) =>
  `${name}=${encodeURIComponent(value)}; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=86400${secure ? '; Secure' : ''}`;

/**
 * `sitePath`: the site's path prefix (`/sites/{id}`, or `/` on its own hostname), the cookies' scope;
 * `secure`: the request came over HTTPS (this server's TLS, or a trusted proxy's X-Forwarded-Proto);
 * `activeShareKeys`: the site's active share links' keys when known (the published cache's), else read.
 */
export async function admitVisitor(db: Db, site: Site, req: IncomingMessage, url: RequestTarget, sitePath: string, secure: boolean, activeShareKeys?: ReadonlySet<string>): Promise<Admission> {
  const visitor: Visitor = { claims: {}, cookies: [] };
  if (site.visibility === 'public' || site.visibility === 'unlisted') return { ok: true, visitor };
  if (site.visibility === 'share_link') {
    const name = `quire_share_${site.id}`;
    const given = url.searchParams.get('shareKey');
    const key = given ?? cookie(req, name);
    // Without a valid key the site does not exist, as far as the visitor can tell.
    if (!key || key.length > 200) return { ok: false, status: 404 };
    const active = activeShareKeys ? activeShareKeys.has(key) : !!(await db.siteShareLink.findFirst({ where: { siteId: site.id, key, active: true }, select: { id: true } }));
    if (!active) return { ok: false, status: 404 };
    if (given) visitor.cookies.push(setCookie(name, key, sitePath, secure));
    return { ok: true, visitor: { ...visitor, shareKey: key } };
  }
  const name = `quire_visitor_${site.id}`;
  const given = url.searchParams.get('jwt_token');
  const token = given ?? cookie(req, name);
  const refused: Admission = { ok: false, status: 401, redirect: fallbackOf(site, url, sitePath === '/' ? '' : sitePath) };
  if (!token || token.length > 8192) return refused;
  try {
    // The site's current key: a token signed with a key since rotated fails here, cookie or not.
    const { payload } = await jwtVerify(token, new TextEncoder().encode(site.visitorAuthKey), { algorithms: ['HS256'] });
    if (given) visitor.cookies.push(setCookie(name, token, sitePath, secure));
    return { ok: true, visitor: { ...visitor, claims: payload as Record<string, unknown> } };
  } catch {
    return refused;
  }
}
