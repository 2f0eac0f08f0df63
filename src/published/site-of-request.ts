/** Which published site a request is for: `/sites/{siteId}/…`, or a host that is a site's own hostname. */
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Site } from '../generated/prisma/client.js';
import { PUBLISHED_PREFIX } from './urls.js';
import { SITE_HOSTNAME } from '../domain/publishing/sites/sites.js';

/**
 * Which site answers on a hostname: only a verified claim's (custom-hostnames.ts), remembered
 * until its site's row stops saying so. The row decides, read with every use (from the published
 * cache's site state, exact, or from the database): a site's `hostnameVerifiedAt` is set only
 * while it holds the hostname's VerifiedHostname row, and is cleared in the write that lets it go
 * (removed, changed, taken over), which changes the site's state. So nothing remembered here needs
 * to expire, and a kept page served on the hostname reads nothing, ever (kept-answer.ts). A
 * hostname with none is looked up again each time (a primary-key read), so a claim answers as
 * soon as it is verified.
 */
const hostSites = new LRUCache<string, string>({ max: 10_000 });

/**
 * The site verified on `host`: the remembered site's row (which says whether its claim still holds,
 * so a hostname removed or changed stops at once), else the hostname's verified claim, remembered.
 */
async function verifiedSite(db: Db, host: string, remembered: string | undefined, siteById: SiteById): Promise<Site | null> {
  let siteId = remembered;
  if (siteId === undefined) {
    hostSites.delete(host);
    siteId = (await db.verifiedHostname.findUnique({ where: { hostname: host }, select: { siteId: true } }))?.siteId;
    if (!siteId) return null;
    hostSites.set(host, siteId);
  }
  const site = await siteById(siteId);
  return site?.hostname === host && site.hostnameVerifiedAt ? site : null;
}

/** The ID of the site remembered on `host`, without a lookup (undefined: not remembered now). */
export const rememberedSiteOn = (host: string): string | undefined => hostSites.get(host);

/** The request's host as sites are claimed on: lowercase, without the port. */
export const hostOf = (req: IncomingMessage) => (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');

/** Reads a site's row (the published cache's, when serving). */
export type SiteById = (siteId: string) => Promise<Site | null>;

/** The site a request names, and the rest of its path (segments, decoded). */
export function siteOf(db: Db, req: IncomingMessage, pathname: string, config: Config, siteById?: SiteById) {
  return siteAt(db, hostOf(req), pathname, config, siteById);
}

/** The site a URL's host (without port) and path name: `/sites/{siteId}/…` on any host, or the root of a verified custom hostname. */
export async function siteAt(db: Db, host: string, pathname: string, config: Config, siteById: SiteById = (id) => db.site.findUnique({ where: { id } })): Promise<{ site: Site | null; sitePath: string; segments: string[] } | null> {
  const decode = (s: string) => decodeURIComponent(s);
  if (pathname.startsWith(`${PUBLISHED_PREFIX}/`)) {
    const [siteId = '', ...segments] = pathname.slice(PUBLISHED_PREFIX.length + 1).split('/').filter(Boolean).map(decode);
    const site = siteId.length <= 64 ? await siteById(siteId) : null;
    return { site, sitePath: `${PUBLISHED_PREFIX}/${siteId}`, segments };
  }
  // Site hostnames have three labels or more (the public document's pattern): any other host
  // (the API's own, an address, localhost) is not looked up.
  if (!SITE_HOSTNAME.test(host) || host === new URL(config.publicUrl).hostname) return null;
  const site = (await verifiedSite(db, host, hostSites.get(host), siteById)) ?? (hostSites.has(host) ? await verifiedSite(db, host, undefined, siteById) : null);
  return site ? { site, sitePath: '', segments: pathname.split('/').filter(Boolean).map(decode) } : null;
}
