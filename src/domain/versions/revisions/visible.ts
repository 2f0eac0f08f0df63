/**
 * The content entries a revision sees, as SQL. In the space's own line: the rows whose seq range
 * holds the revision's seq. In a change request's line: the request's own rows (minus `deleted`
 * ones) and, for every entity the request did not touch, the row of the space revision it is
 * based on. Each query reads the rows it asks for (by entity, parent, kind...), never the whole
 * revision unless asked for all of it.
 */
import { Prisma } from '../../../generated/prisma/client.js';
import type { RevisionScope } from './scope.js';

type Sql = Prisma.Sql;
const { sql, join } = Prisma;

/** `alias` is the row of its line visible at `seq`. */
export const atSeq = (alias: string, seq: number) =>
  sql`${Prisma.raw(alias)}."fromSeq" <= ${seq} AND (${Prisma.raw(alias)}."toSeq" IS NULL OR ${Prisma.raw(alias)}."toSeq" > ${seq})`;

/**
 * `SELECT` of the entries (alias `e` in `where`) of `scope` meeting every condition of `where`:
 * rows of "ContentEntry" with their columns. With `first`, the first rows by `orderBy` (SQL over
 * `e`): each branch of an overlay reads only that many, and the caller orders the union again.
 */
export function visibleEntries(scope: RevisionScope, where: Sql[] = [], first?: { orderBy: Sql; limit: number | Sql }): Sql {
  const conditions = where.length ? sql` AND ${join(where, ' AND ')}` : sql``;
  const limited = first ? sql` ORDER BY ${first.orderBy} LIMIT ${first.limit}` : sql``;
  const own = (visible: Sql) => sql`SELECT e.* FROM "ContentEntry" e WHERE e."lineId" = ${scope.lineId} AND ${atSeq('e', scope.seq)}${visible}${conditions}${limited}`;
  if (scope.baseSeq === null) return own(sql``);
  return sql`(${own(sql` AND NOT e."deleted"`)})
    UNION ALL
    (SELECT e.* FROM "ContentEntry" e
    WHERE e."lineId" = ${scope.spaceId} AND ${atSeq('e', scope.baseSeq)}${conditions}
      AND NOT EXISTS (SELECT 1 FROM "ContentEntry" x WHERE x."lineId" = ${scope.lineId} AND x."entityId" = e."entityId" AND ${atSeq('x', scope.seq)})${limited})`;
}
