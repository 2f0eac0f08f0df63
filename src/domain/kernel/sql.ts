/** Small SQL helpers shared by the row modules. */
import { Prisma } from '../../generated/prisma/client.js';
import { prepare, type RawQueryable } from '../../db/prepared.js';
import type { RowMaker } from '../../db/direct.js';

/**
 * What a function that sends only raw statements needs of its database: a Prisma client or
 * transaction, or the outbox dispatcher's raw connection (events/raw-sql.ts).
 */
export type RawSql = {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
};

/**
 * Reads rows by ID as the caller `viewerId` sees them: `select(viewer)` is the statement before its
 * `WHERE`, `idColumn` the column the IDs are of. Both statements are prepared once (db/prepared.ts).
 * A single ID is compared with `=`: PostgreSQL then settles on one plan for the statement after a
 * few executions, where `= ANY($array)` (an array of unknown length) makes it plan every execution
 * anew. Most loads are of one row. With `rows` (how to revive the selected columns), both run
 * straight on the pool, without Prisma's per-query work (db/direct.ts).
 */
export function rowsById<Row>(idColumn: string, select: (viewer: Prisma.Sql) => Prisma.Sql, rows?: RowMaker<Row>) {
  const column = Prisma.raw(idColumn);
  const one = prepare<[viewerId: string, id: string]>(2, (viewer, id) => Prisma.sql`${select(viewer)} WHERE ${column} = ${id}`, rows);
  const many = prepare<[viewerId: string, ids: string[]]>(2, (viewer, ids) => Prisma.sql`${select(viewer)} WHERE ${column} = ANY(${ids}::text[])`, rows);
  return (db: RawQueryable, viewerId: string, ids: readonly string[]): Promise<Row[]> =>
    ids.length === 1 ? one.query<Row>(db, viewerId, ids[0]) : many.query<Row>(db, viewerId, [...ids]);
}
