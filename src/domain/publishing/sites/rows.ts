/** Rows of sites read for the request's loaders (no caller: the resolvers check access): the section groups and external links of many sites at once. */
import type { SiteExternalLink, SiteSectionGroup } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import { bySiblingOrder } from './order.js';

/** Each site's section groups, in order: one statement for all of them (a site holds a few). */
export async function sectionGroupsOfSites(db: Db, siteIds: readonly string[]): Promise<SiteSectionGroup[][]> {
  const rows = await db.siteSectionGroup.findMany({ where: { siteId: { in: [...siteIds] } } });
  return siteIds.map((id) => rows.filter((r) => r.siteId === id).sort(bySiblingOrder));
}

/** Each site's external links, in order: one statement for all of them (a site holds a few). */
export async function externalLinksOfSites(db: Db, siteIds: readonly string[]): Promise<SiteExternalLink[][]> {
  const rows = await db.siteExternalLink.findMany({ where: { siteId: { in: [...siteIds] } } });
  return siteIds.map((id) => rows.filter((r) => r.siteId === id).sort(bySiblingOrder));
}
