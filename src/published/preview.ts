/**
 * Site previews on the published server: a link made by `GET …/publishing/preview`
 * (domain/publishing/sites/visitors/preview.ts) as `?preview=`, then a cookie scoped to the site, opens the
 * site — published or not, whatever its visibility — as a visitor with the link's claims, while
 * the link has not expired and its user still may preview the site. Answers are then private and
 * not indexed.
 */
import type { RequestTarget } from '../http/request-target.js';
import type { IncomingMessage } from 'node:http';
import type { Site } from '../generated/prisma/client.js';
import { signingSecret } from '../domain/kernel/signing-secret.js';
import { verifyPreviewToken } from '../domain/publishing/sites/visitors/preview.js';
import type { PublishedDeps } from './deps.js';
import { cookie, setCookie, type Visitor } from './visitor.js';

/** The preview visitor, or null when the request brings no valid preview of this site. */
export async function previewVisitor(deps: PublishedDeps, site: Site, req: IncomingMessage, url: RequestTarget, sitePath: string, secure: boolean): Promise<Visitor | null> {
  if (!deps.accessOf) return null;
  const name = `quire_preview_${site.id}`;
  const given = url.searchParams.get('preview');
  const token = given ?? cookie(req, name);
  if (!token) return null;
  const preview = await verifyPreviewToken({ secret: await signingSecret(deps.db, deps.config.secret), issuer: deps.config.publicUrl }, token);
  if (!preview || preview.siteId !== site.id) return null;
  try {
    await deps.accessOf(preview.userId).requireSite(site.id, 'preview');
  } catch {
    return null;
  }
  return { claims: preview.claims, cookies: given ? [setCookie(name, token, sitePath, secure)] : [], preview: true };
}
