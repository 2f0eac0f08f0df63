/**
 * Who contributed to a change request (API `GET …/change-requests/{id}/contributors`): the users
 * who wrote its revisions (`edit`: how many, and when last) and those who commented on it
 * (`comment`), most recent first. One statement; the list is as long as the request has people.
 */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';

export type Contributor = { userId: string; actionType: 'edit' | 'comment'; count: number; updatedAt: Date };

export function changeRequestContributors(db: Queryable, changeRequestId: string): Promise<Contributor[]> {
  return db.$queryRaw<Contributor[]>(Prisma.sql`
    SELECT c."userId", c."actionType", c."count", c."updatedAt" FROM (
      SELECT v."createdById" AS "userId", 'edit' AS "actionType", count(*)::int AS "count", max(v."createdAt") AS "updatedAt"
      FROM "Revision" v WHERE v."lineId" = ${changeRequestId} AND v."createdById" IS NOT NULL GROUP BY v."createdById"
      UNION ALL
      SELECT m."authorId", 'comment', count(*)::int, max(m."createdAt")
      FROM "Comment" m WHERE m."changeRequestId" = ${changeRequestId} GROUP BY m."authorId"
    ) c ORDER BY c."updatedAt" DESC, c."userId", c."actionType"`);
}
