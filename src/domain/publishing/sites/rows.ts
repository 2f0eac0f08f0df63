/** Rows of sites read for the request's loaders: sites with the caller's role on each, the section groups and external links of many sites at once. */
import { Prisma, type Site, type SiteExternalLink, type SiteSectionGroup } from '../../../generated/prisma/client.js';
import { siteRoleSql } from '../../access/role-sql.js';
import type { Role } from '../../access/roles.js';
import type { Db } from '../../../db/client.js';
import { bySiblingOrder } from './order.js';

const { sql } = Prisma;

/** Each site's section groups, in order: one statement for all of them (a site holds a few). */
export async function sectionGroupsOfSites(db: Db, siteIds: readonly string[]): Promise<SiteSectionGroup[][]> {
  const rows = await db.siteSectionGroup.findMany({ where: { siteId: { in: [...siteIds] } } });
  return siteIds.map((id) => rows.filter((r) => r.siteId === id).sort(bySiblingOrder));
}

/** A site with the caller's role on it (role-sql.ts siteRoleSql; null: the caller cannot see it). */
export type SiteRow = Site & { viewerRole: Role | null };

/** `SELECT` sites `s` with the role of `viewerId` as "viewerRole". */
export const selectSites = (viewerId: string) => sql`SELECT s.*, ${siteRoleSql('viewer', 's')} AS "viewerRole"
  FROM "Site" s LEFT JOIN "Member" viewer ON viewer."organizationId" = s."organizationId" AND viewer."userId" = ${viewerId}`;

/** Sites by ID with the caller's role, one statement for all of them. */
export async function loadSites(db: Db, viewerId: string, ids: readonly string[]): Promise<(SiteRow | null)[]> {
  const rows = await db.$queryRaw<SiteRow[]>(sql`${selectSites(viewerId)} WHERE s."id" = ANY(${[...ids]}::text[])`);
  const found = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => found.get(id) ?? null);
}

/** Each site's external links, in order: one statement for all of them (a site holds a few). */
export async function externalLinksOfSites(db: Db, siteIds: readonly string[]): Promise<SiteExternalLink[][]> {
  const rows = await db.siteExternalLink.findMany({ where: { siteId: { in: [...siteIds] } } });
  return siteIds.map((id) => rows.filter((r) => r.siteId === id).sort(bySiblingOrder));
}
