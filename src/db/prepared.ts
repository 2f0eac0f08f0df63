/**
 * Statements whose text is built once, at module load, instead of on every call.
 *
 * The row modules compose their SQL from `Prisma.sql` fragments (roles, columns, joins). Composing
 * a 2 KB statement costs more CPU than PostgreSQL spends executing a by-ID read, and each call
 * makes a new string, which the named-statement cache (db/client.ts) then hashes and compares
 * in full. A prepared statement is composed once with a placeholder per parameter; each call then
 * passes the same string object and only binds its values, through the same Prisma client.
 */
import { Prisma } from '../generated/prisma/client.js';
import { directStatement, type RowMaker } from './direct.js';

/** What runs a prepared statement: the Prisma client or a transaction of it. */
export type RawQueryable = { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> };

/** Marks where parameter `index` goes among the composed statement's values. */
class Slot {
  constructor(readonly index: number) {}
}

export type Prepared<Args extends readonly unknown[]> = {
  /** The statement's text ($1, $2… placeholders). */
  readonly text: string;
  /** Runs it with `args`, in the order `compose` received their placeholders. */
  query<Row>(db: RawQueryable, ...args: Args): Promise<Row[]>;
};

/**
 * Composes a statement once: `compose` gets one placeholder per parameter (a `Prisma.Sql` that
 * binds it; each may appear any number of times). The statement's shape must not depend on
 * the parameters' values: statements of other shapes are other prepared statements. With `rows`
 * (how to revive its columns' text), it runs straight on the client's pool (db/direct.ts).
 */
export function prepare<Args extends readonly unknown[]>(arity: Args['length'], compose: (...params: Prisma.Sql[]) => Prisma.Sql, rows?: RowMaker<unknown>): Prepared<Args> {
  const placeholders = Array.from({ length: arity }, (_, i) => Prisma.sql`${new Slot(i)}`);
  const { text, values } = compose(...placeholders);
  const bindings = values.map((value) => (value instanceof Slot ? value.index : { constant: value }));
  const used = new Set(bindings.filter((b): b is number => typeof b === 'number'));
  if (used.size !== arity) throw new Error(`prepare: the statement binds ${used.size} of its ${arity} parameters`);
  const direct = rows && directStatement(text, rows);
  return {
    text,
    query: <Row>(db: RawQueryable, ...args: Args) => {
      const values = bindings.map((b) => (typeof b === 'number' ? args[b] : b.constant));
      return (direct?.run(db, values) as Promise<Row[]> | undefined) ?? db.$queryRawUnsafe<Row[]>(text, ...values);
    },
  };
}
