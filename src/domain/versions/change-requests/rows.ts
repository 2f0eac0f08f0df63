/** Reading change requests: one by ID or number within its space, and a space's list in pages. */
import { Prisma, type ChangeRequest, type ChangeRequestStatus } from '../../../generated/prisma/client.js';
import { readPages, type Page, type PageArgs, type Queryable, type SortKey } from '../../kernel/pagination/keyset.js';
import { countPerKey } from '../../kernel/pagination/count.js';

const { sql, raw } = Prisma;

export type ChangeRequestRow = ChangeRequest;

/**
 * A space's list of change requests: one status; optionally only those a user wrote revisions of
 * (`contributor`), opened (`creator`), or was asked to review (`requestedReviewer`).
 */
export type ChangeRequestFilter = {
  status: ChangeRequestStatus;
  contributor?: string | null;
  creator?: string | null;
  requestedReviewer?: string | null;
};

/** The orders of the public document's `orderBy`, newest first either way. */
export const CHANGE_REQUEST_ORDERS = ['createdAt', 'updatedAt'] as const;
export type ChangeRequestOrder = (typeof CHANGE_REQUEST_ORDERS)[number];

/**
 * Newest first. By creation: by number, which only grows within a space (index spaceId, status,
 * number). By last update: updatedAt, ties broken by number (index spaceId, status, updatedAt, number).
 */
function sortKey(spaceId: string, filter: ChangeRequestFilter, order: ChangeRequestOrder): SortKey<ChangeRequestRow> {
  const tag = `change-requests:${spaceId}:${filter.status}`;
  if (order === 'createdAt') return { tag, columns: [{ sql: raw('r."number"'), type: 'int' }], descending: true, keyOf: (r) => [r.number] };
  return {
    tag: `${tag}:updatedAt`,
    columns: [
      { sql: raw('r."updatedAt"'), type: 'timestamp' },
      { sql: raw('r."number"'), type: 'int' },
    ],
    descending: true,
    keyOf: (r) => [r.updatedAt, r.number],
  };
}

/** `spaceId`: SQL naming the space (a parameter, or the current parent of a batched read). */
function conditions(spaceId: Prisma.Sql, filter: ChangeRequestFilter): Prisma.Sql[] {
  return [
    sql`r."spaceId" = ${spaceId}`,
    sql`r."status" = ${filter.status}::"ChangeRequestStatus"`,
    // A contributor wrote at least one of the request's revisions (its author wrote the first).
    ...(filter.contributor ? [sql`EXISTS (SELECT 1 FROM "Revision" v WHERE v."lineId" = r."id" AND v."createdById" = ${filter.contributor})`] : []),
    ...(filter.creator ? [sql`r."createdById" = ${filter.creator}`] : []),
    ...(filter.requestedReviewer ? [sql`EXISTS (SELECT 1 FROM "ChangeRequestReviewer" q WHERE q."changeRequestId" = r."id" AND q."userId" = ${filter.requestedReviewer})`] : []),
  ];
}

/** The same page of the change requests of each space: one statement for all of them. */
export function changeRequestsPages(
  db: Queryable,
  spaceIds: readonly string[],
  filter: ChangeRequestFilter,
  args: PageArgs,
  order: ChangeRequestOrder = 'createdAt',
): Promise<Page<ChangeRequestRow>[]> {
  return readPages(db, spaceIds, (space) => ({ select: sql`SELECT r.* FROM "ChangeRequest" r`, conditions: conditions(space, filter) }), (id) => sortKey(id, filter, order), args);
}

export function countChangeRequests(db: Queryable, spaceIds: readonly string[], filter: ChangeRequestFilter): Promise<number[]> {
  return countPerKey(db, spaceIds, (space) => sql`"ChangeRequest" r WHERE ${Prisma.join(conditions(space, filter), ' AND ')}`);
}
