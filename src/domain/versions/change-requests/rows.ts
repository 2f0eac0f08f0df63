/** Reading change requests: one by ID or number within its space, and a space's list in pages. */
import { Prisma, type ChangeRequest, type ChangeRequestStatus } from '../../../generated/prisma/client.js';
import { readPages, type Page, type PageArgs, type Queryable, type SortKey } from '../../kernel/pagination/keyset.js';
import { countPerKey } from '../../kernel/pagination/count.js';

const { sql, raw } = Prisma;

export type ChangeRequestRow = ChangeRequest;

export type ChangeRequestFilter = { status: ChangeRequestStatus; contributor?: string | null };

/** Newest first: numbers only grow within a space. */
const newestFirst = (spaceId: string, status: string): SortKey<ChangeRequestRow> => ({
  tag: `change-requests:${spaceId}:${status}`,
  columns: [{ sql: raw('r."number"'), type: 'int' }],
  descending: true,
  keyOf: (r) => [r.number],
});

/** `spaceId`: SQL naming the space (a parameter, or the current parent of a batched read). */
function conditions(spaceId: Prisma.Sql, filter: ChangeRequestFilter): Prisma.Sql[] {
  return [
    sql`r."spaceId" = ${spaceId}`,
    sql`r."status" = ${filter.status}::"ChangeRequestStatus"`,
    // A contributor wrote at least one of the request's revisions (its author wrote the first).
    ...(filter.contributor ? [sql`EXISTS (SELECT 1 FROM "Revision" v WHERE v."lineId" = r."id" AND v."createdById" = ${filter.contributor})`] : []),
  ];
}

/** The same page of the change requests of each space: one statement for all of them. */
export function changeRequestsPages(db: Queryable, spaceIds: readonly string[], filter: ChangeRequestFilter, args: PageArgs): Promise<Page<ChangeRequestRow>[]> {
  return readPages(db, spaceIds, (space) => ({ select: sql`SELECT r.* FROM "ChangeRequest" r`, conditions: conditions(space, filter) }), (id) => newestFirst(id, filter.status), args);
}

export function countChangeRequests(db: Queryable, spaceIds: readonly string[], filter: ChangeRequestFilter): Promise<number[]> {
  return countPerKey(db, spaceIds, (space) => sql`"ChangeRequest" r WHERE ${Prisma.join(conditions(space, filter), ' AND ')}`);
}
