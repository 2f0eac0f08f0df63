/**
 * Hot reads run straight on the pool under the Prisma client, as one named prepared statement,
 * without Prisma's per-query pipeline (its request building, argument serialization, tracing
 * hooks and result mapping cost more CPU than PostgreSQL spends on a read by ID). Only for
 * statements whose rows the caller can revive itself (`RowMaker`: each column's text into the
 * value Prisma's raw query would have given), and only on the client itself: inside a
 * transaction the statement must run on the transaction's connection, so it goes through Prisma.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Turns a row's columns, as PostgreSQL's text (null for NULL), into the row Prisma would give. */
export type RowMaker<Row> = {
  /** The statement's columns, in order (checked against the first result's). */
  readonly columns: readonly string[];
  readonly make: (values: readonly (string | null)[]) => Row;
};

/** What the client under a queryable offers for direct reads (set by db/client.ts). */
export type DirectPool = {
  pool: pg.Pool;
  /** Named statements (prepared once per connection), unless turned off (a transaction-mode pooler). */
  named: boolean;
  /** The client's statement listener (tests and the benchmark count statements through it). */
  onQuery?: (sql: string) => void;
};

const directPools = new WeakMap<object, DirectPool>();

export const registerDirectPool = (client: object, direct: DirectPool): void => void directPools.set(client, direct);

/** Every column as the text PostgreSQL sends: the RowMaker revives it (one parser for all). */
const asText = (value: string) => value;
const TEXT_TYPES = { getTypeParser: () => asText };

/** Values node-postgres binds as Prisma would (a Date it would bind in local time: not taken). */
const bindsAsIs = (value: unknown): boolean =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));

export type DirectStatement<Row> = {
  /**
   * Runs the statement on `queryable`'s pool and resolves with its rows, or returns undefined
   * when it cannot (a transaction, or values it does not bind as Prisma would): the caller then
   * runs it through Prisma.
   */
  run(queryable: object, values: readonly unknown[]): Promise<Row[]> | undefined;
};

/** A statement of fixed `text` whose rows `rows` revives. */
export function directStatement<Row>(text: string, rows: RowMaker<Row>): DirectStatement<Row> {
  const name = `d${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
  let checked = false;
  const revive = (result: pg.QueryResult<(string | null)[]>): Row[] => {
    if (!checked) {
      const columns = result.fields.map((field) => field.name).join();
      if (columns !== rows.columns.join()) throw new Error(`direct statement: columns ${columns}, expected ${rows.columns.join()}`);
      checked = true;
    }
    const out = new Array<Row>(result.rows.length);
    for (let i = 0; i < out.length; i++) out[i] = rows.make(result.rows[i]);
    return out;
  };
  return {
    run(queryable, values) {
      const direct = directPools.get(queryable);
      if (!direct || !values.every(bindsAsIs)) return undefined;
      direct.onQuery?.(text);
      return direct.pool
        .query<(string | null)[]>({ name: direct.named ? name : undefined, text, values: values as unknown[], rowMode: 'array', types: TEXT_TYPES })
        .then(revive);
    },
  };
}
