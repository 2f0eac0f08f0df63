/** The `count` of a list when it is filtered: a COUNT with the list's own predicate, read in SQL. */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Queryable } from './keyset.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

/** Rows of `fromWhere` (`"Table" alias … WHERE …`). */
export async function countRows(db: Queryable, fromWhere: Sql): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>(sql`SELECT count(*)::int AS n FROM ${fromWhere}`);
  return row.n;
}

/**
 * For each key, the rows of `fromWhere(key)` (`key`: SQL naming the current key), or another
 * aggregate of them (`total`, e.g. a sum): one statement for all keys.
 */
export async function countPerKey(db: Queryable, keys: readonly string[], fromWhere: (key: Sql) => Sql, total = 'count(*)'): Promise<number[]> {
  const rows = await db.$queryRaw<{ key: string; n: number }[]>(sql`
    SELECT k.key, (SELECT coalesce(${raw(total)}, 0)::int FROM ${fromWhere(raw('k.key'))}) AS n FROM unnest(${[...keys]}::text[]) AS k(key)`);
  const counts = new Map(rows.map((r) => [r.key, r.n]));
  return keys.map((key) => counts.get(key) ?? 0);
}
