/**
 * Rows of reviews as every read gives them: with whether each is outdated (computed in SQL; see
 * reviews.ts for the rule) and the space of its request. No access here: callers check it.
 */
import { Prisma, type ChangeRequestReview } from '../../../generated/prisma/client.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';

const { sql } = Prisma;

/** A review, whether it is outdated, and the space of its request (for its URL). */
export type ReviewRow = ChangeRequestReview & { outdated: boolean; spaceId: string };

/** Whether the review `r` of the request `cr` is outdated (see reviews.ts). */
export const OUTDATED = sql`(r."revisionId" <> cr."revisionId"
  OR EXISTS (SELECT 1 FROM "ChangeRequestReview" later WHERE later."changeRequestId" = r."changeRequestId"
    AND later."reviewerId" = r."reviewerId" AND (later."createdAt", later."id") > (r."createdAt", r."id"))
  OR EXISTS (SELECT 1 FROM "ChangeRequestReviewer" q WHERE q."changeRequestId" = r."changeRequestId"
    AND q."userId" = r."reviewerId" AND q."createdAt" >= r."createdAt"))`;

/** Reviews `r` with their request `cr`; enum values by their Prisma names. */
export const SELECT_REVIEWS = sql`SELECT r."id", r."changeRequestId", r."revisionId", r."reviewerId", r."requestedById",
    replace(r."status"::text, '-', '_') AS "status", r."comment", r."createdAt", r."updatedAt",
    ${OUTDATED} AS "outdated", cr."spaceId"
  FROM "ChangeRequestReview" r JOIN "ChangeRequest" cr ON cr."id" = r."changeRequestId"`;

/** Reviews by ID, whatever their request (each row names its request and space; the caller checks access). */
export function reviewsByIds(db: Queryable, ids: readonly string[]): Promise<ReviewRow[]> {
  return db.$queryRaw<ReviewRow[]>(sql`${SELECT_REVIEWS} WHERE r."id" = ANY(${[...ids]}::text[])`);
}
