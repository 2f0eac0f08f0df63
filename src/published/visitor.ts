/**
 * Who may read a published site, by its visibility: anyone (`public`, `unlisted`); whoever holds
 * an active share link's key (`share-link`: `?shareKey=`, then a cookie); whoever brings a JWT
 * signed (HS256) with the site's visitor-auth key (`visitor-auth`: `?jwt_token=`, then a cookie),
 * whose claims the site's conditions read. The key and token are kept in an HttpOnly cookie
 * scoped to the site, so links between pages need not carry them.
 */
import type { IncomingMessage } from 'node:http';
import { jwtVerify } from 'jose';
import type { Site } from '../generated/prisma/client.js';
import type { Db } from '../db/client.js';

export type Visitor = { claims: Record<string, unknown>; shareKey?: string; cookies: string[] };

export type Admission = { ok: true; visitor: Visitor } | { ok: false; status: 401 | 404 };

/** The cookie's value; none when its percent-encoding is broken (the visitor is asked again, not answered a 500). */
function cookie(req: IncomingMessage, name: string): string | undefined {
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
const setCookie = (name: string, value: string, path: string, secure: boolean) =>
  `${name}=${encodeURIComponent(value)}; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=86400${secure ? '; Secure' : ''}`;

/**
 * `sitePath`: the site's path prefix (`/sites/{id}`, or `/` on its own hostname), the cookies' scope;
 * `secure`: the request came over HTTPS (this server's TLS, or a trusted proxy's X-Forwarded-Proto).
 */
export async function admitVisitor(db: Db, site: Site, req: IncomingMessage, url: URL, sitePath: string, secure: boolean): Promise<Admission> {
  const visitor: Visitor = { claims: {}, cookies: [] };
  if (site.visibility === 'public' || site.visibility === 'unlisted') return { ok: true, visitor };
  if (site.visibility === 'share_link') {
    const name = `quire_share_${site.id}`;
    const given = url.searchParams.get('shareKey');
    const key = given ?? cookie(req, name);
    // Without a valid key the site does not exist, as far as the visitor can tell.
    if (!key || key.length > 200) return { ok: false, status: 404 };
    const link = await db.siteShareLink.findFirst({ where: { siteId: site.id, key, active: true }, select: { id: true } });
    if (!link) return { ok: false, status: 404 };
    if (given) visitor.cookies.push(setCookie(name, key, sitePath, secure));
    return { ok: true, visitor: { ...visitor, shareKey: key } };
  }
  const name = `quire_visitor_${site.id}`;
  const given = url.searchParams.get('jwt_token');
  const token = given ?? cookie(req, name);
  if (!token || token.length > 8192) return { ok: false, status: 401 };
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(site.visitorAuthKey), { algorithms: ['HS256'] });
    if (given) visitor.cookies.push(setCookie(name, token, sitePath, secure));
    return { ok: true, visitor: { ...visitor, claims: payload as Record<string, unknown> } };
  } catch {
    return { ok: false, status: 401 };
  }
}
