/** Small SQL helpers shared by the row modules. */
import { Prisma } from '../generated/prisma/client.js';

/**
 * `column` is one of `ids`. A single ID is compared with `=`: PostgreSQL then settles on one
 * plan for the prepared statement after a few executions, where `= ANY($array)` (an array of
 * unknown length) makes it plan every execution anew. Most loads are of one row.
 */
export function isOneOf(column: Prisma.Sql, ids: readonly string[]): Prisma.Sql {
  return ids.length === 1 ? Prisma.sql`${column} = ${ids[0]}` : Prisma.sql`${column} = ANY(${[...ids]}::text[])`;
}
