/**
 * Every change request of an organization the caller can view (`GET /orgs/{id}/change-requests`,
 * `Organization.changeRequests`), newest first, paged in SQL. A change request carries its space's
 * organization (`ChangeRequest.organizationId`, kept by triggers), so a page is one statement over
 * the index (organizationId, status, updatedAt|createdAt, id): per asked status, the next `limit`
 * rows in index order, merged — whatever the number of spaces or change requests. Change requests
 * of spaces in the trash are left out; a guest sees those of the spaces their grants reach.
 */
import { createHash } from 'node:crypto';
import { Prisma, type ChangeRequestStatus } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guestSpaceIds } from '../../access/role-sql.js';
import { countRows } from '../../kernel/pagination/count.js';
import { counted, type CountedPage } from '../../kernel/pagination/counted.js';
import { byTimeThenId, planPage, toPage, whereAll, type PageArgs } from '../../kernel/pagination/keyset.js';
import type { ChangeRequestOrder, ChangeRequestRow } from './rows.js';

const { sql, join } = Prisma;

export type OrganizationChangeRequestFilter = {
  /** One or more statuses (default: open). */
  statuses?: readonly ChangeRequestStatus[] | null;
  creator?: string | null;
  contributor?: string | null;
  requestedReviewer?: string | null;
  /** Only those of this space, or of the spaces of this site. */
  space?: string | null;
  site?: string | null;
};

export async function organizationChangeRequests(
  db: Db,
  access: Access,
  organizationId: string,
  filter: OrganizationChangeRequestFilter,
  args: PageArgs,
  order: ChangeRequestOrder = 'updatedAt',
): Promise<CountedPage<ChangeRequestRow>> {
  await access.requireOrganization(organizationId, 'view');
  const reader = await access.reader(organizationId);
  const statuses = [...new Set(filter.statuses?.length ? filter.statuses : (['open'] as const))].sort();
  const column = order === 'createdAt' ? 'r."createdAt"' : 'r."updatedAt"';
  // A cursor belongs to the list with these filters and this order (a digest keeps it short).
  const list = createHash('sha256').update(JSON.stringify([organizationId, statuses, order, filter.creator, filter.contributor, filter.requestedReviewer, filter.space, filter.site])).digest('base64url').slice(0, 16);
  const key = byTimeThenId<ChangeRequestRow>(`org-change-requests:${list}`, column, 'r."id"', (r) => [order === 'createdAt' ? r.createdAt : r.updatedAt, r.id], {
    descending: true,
  });
  const conditions = [
    sql`r."organizationId" = ${organizationId}`,
    sql`EXISTS (SELECT 1 FROM "Space" s WHERE s."id" = r."spaceId" AND s."deletedAt" IS NULL)`,
    ...(reader.guest ? [sql`r."spaceId" IN (${guestSpaceIds(reader.userId)})`] : []),
    ...(filter.space ? [sql`r."spaceId" = ${filter.space}`] : []),
    ...(filter.site ? [sql`r."spaceId" IN (SELECT ss."spaceId" FROM "SiteSpace" ss JOIN "Site" t ON t."id" = ss."siteId" WHERE ss."siteId" = ${filter.site} AND t."organizationId" = ${organizationId})`] : []),
    ...(filter.creator ? [sql`r."createdById" = ${filter.creator}`] : []),
    ...(filter.contributor ? [sql`EXISTS (SELECT 1 FROM "Revision" v WHERE v."lineId" = r."id" AND v."createdById" = ${filter.contributor})`] : []),
    ...(filter.requestedReviewer ? [sql`EXISTS (SELECT 1 FROM "ChangeRequestReviewer" q WHERE q."changeRequestId" = r."id" AND q."userId" = ${filter.requestedReviewer})`] : []),
  ];
  const plan = planPage(key, args);
  // One index range per status, each read in order up to the page's size, then merged.
  const parts = statuses.map(
    (status) => sql`(SELECT r.* FROM "ChangeRequest" r ${whereAll([...conditions, sql`r."status" = ${status}::"ChangeRequestStatus"`, ...plan.seek])} ORDER BY ${plan.orderBy} LIMIT ${plan.limit})`,
  );
  const rows = await db.$queryRaw<ChangeRequestRow[]>(sql`SELECT r.* FROM (${join(parts, ' UNION ALL ')}) r ORDER BY ${plan.orderBy} LIMIT ${plan.limit}`);
  const page = toPage(key, plan, rows);
  return counted(page, () => countRows(db, sql`"ChangeRequest" r WHERE ${join([...conditions, sql`r."status" = ANY(${statuses}::"ChangeRequestStatus"[])`], ' AND ')}`));
}
