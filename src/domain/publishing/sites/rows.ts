/** Rows of sites read for the request's loaders (no caller: the resolvers check access): the section groups of many sites at once. */
import type { SiteSectionGroup } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import { bySiblingOrder } from './order.js';

/** Each site's section groups, in order: one statement for all of them (a site holds a few). */
export async function sectionGroupsOfSites(db: Db, siteIds: readonly string[]): Promise<SiteSectionGroup[][]> {
  const rows = await db.siteSectionGroup.findMany({ where: { siteId: { in: [...siteIds] } } });
  return siteIds.map((id) => rows.filter((r) => r.siteId === id).sort(bySiblingOrder));
}
