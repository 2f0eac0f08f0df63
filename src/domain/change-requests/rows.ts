/** Reading change requests: one by ID or number within its space, and a space's list in pages. */
import { Prisma, type ChangeRequest, type ChangeRequestStatus } from '../../generated/prisma/client.js';
import { readPage, type Page, type PageArgs, type Queryable, type SortKey } from '../pagination/keyset.js';
import { countRows } from '../pagination/count.js';

const { sql, raw } = Prisma;

export type ChangeRequestRow = ChangeRequest;

/** `{changeRequestId}` of a path: the change request's ID, or its number within the space. */
export async function findChangeRequest(db: Queryable, spaceId: string, idOrNumber: string): Promise<ChangeRequestRow | null> {
  const number = /^[1-9]\d{0,8}$/.test(idOrNumber) ? Number(idOrNumber) : null;
  const [row] = await db.$queryRaw<ChangeRequestRow[]>(
    number !== null
      ? sql`SELECT * FROM "ChangeRequest" WHERE "spaceId" = ${spaceId} AND "number" = ${number}`
      : sql`SELECT * FROM "ChangeRequest" WHERE "spaceId" = ${spaceId} AND "id" = ${idOrNumber}`,
  );
  return row ?? null;
}

export type ChangeRequestFilter = { status: ChangeRequestStatus; contributor?: string | null };

/** Newest first: numbers only grow within a space. */
const newestFirst = (spaceId: string, status: string): SortKey<ChangeRequestRow> => ({
  tag: `change-requests:${spaceId}:${status}`,
  columns: [{ sql: raw('r."number"'), type: 'int' }],
  descending: true,
  keyOf: (r) => [r.number],
});

function conditions(spaceId: string, filter: ChangeRequestFilter): Prisma.Sql[] {
  return [
    sql`r."spaceId" = ${spaceId}`,
    sql`r."status" = ${filter.status}::"ChangeRequestStatus"`,
    // A contributor wrote at least one of the request's revisions (its author wrote the first).
    ...(filter.contributor ? [sql`EXISTS (SELECT 1 FROM "Revision" v WHERE v."lineId" = r."id" AND v."createdById" = ${filter.contributor})`] : []),
  ];
}

export function changeRequestsPage(db: Queryable, spaceId: string, filter: ChangeRequestFilter, args: PageArgs): Promise<Page<ChangeRequestRow>> {
  return readPage(db, sql`SELECT r.* FROM "ChangeRequest" r`, conditions(spaceId, filter), newestFirst(spaceId, filter.status), args);
}

export function countChangeRequests(db: Queryable, spaceId: string, filter: ChangeRequestFilter): Promise<number> {
  return countRows(db, sql`"ChangeRequest" r WHERE ${Prisma.join(conditions(spaceId, filter), ' AND ')}`);
}
