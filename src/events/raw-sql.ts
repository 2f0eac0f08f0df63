/**
 * Raw SQL on a small pg pool of its own, for the outbox dispatcher: its claims, its consumers'
 * writes and its sweeps are all `$queryRaw`/`$executeRaw` templates, and a Prisma client of its
 * own would hold a second copy of Prisma's query graph (~14 MiB of heap, docs/performance.md,
 * Memory) to send them. Values and results follow Prisma's raw conventions for the types these
 * statements use: a `Date` is sent as UTC (`timestamp(3)` has no zone), `timestamp` is read as
 * UTC, `bigint` (int8) is read as a BigInt, JSON is parsed.
 */
import pg from 'pg';
import type { RawSql } from '../domain/kernel/sql.js';
import { Prisma } from '../generated/prisma/client.js';
import { utcDateOfText } from '../domain/kernel/pagination/rows-as-json.js';

type Values = unknown[];

export type RawPool = RawSql & {
  /** Runs `work` in one transaction (committed when it resolves, rolled back when it throws). */
  transaction<T>(work: (tx: RawSql) => Promise<T>, limits: { timeoutMs: number }): Promise<T>;
  end(): Promise<void>;
};

const TIMESTAMP = 1114;
const INT8 = 20;
const parsers: Record<number, (text: string) => unknown> = {
  [TIMESTAMP]: utcDateOfText,
  [INT8]: (text) => BigInt(text),
};
const types = { getTypeParser: (oid: number, format?: string) => parsers[oid] ?? pg.types.getTypeParser(oid, format as 'text') };

/** A value as Prisma sends it: dates as UTC ISO text (pg would send local time), element by element in arrays. */
const param = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : Array.isArray(value) ? value.map(param) : value);

const statement = (query: TemplateStringsArray | Prisma.Sql, values: Values): { text: string; values: unknown[] } => {
  const sql = query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
  return { text: sql.text, values: sql.values.map(param) };
};

function over(run: (text: string, values: unknown[]) => Promise<pg.QueryResult>): RawSql {
  return {
    $queryRaw: <T>(query: TemplateStringsArray | Prisma.Sql, ...values: Values) => {
      const { text, values: params } = statement(query, values);
      return run(text, params).then((result) => result.rows as T);
    },
    $executeRaw: (query, ...values) => {
      const { text, values: params } = statement(query, values);
      return run(text, params).then((result) => result.rowCount ?? 0);
    },
  };
}

export function rawPool(connectionString: string, opts: { max: number; onConnectionLost: (error: Error) => void }): RawPool {
  const pool = new pg.Pool({ connectionString, max: opts.max, types, connectionTimeoutMillis: 10_000 });
  // An idle connection that breaks is replaced on next use; it must never take the process down.
  pool.on('error', opts.onConnectionLost);
  // A connection that breaks while checked out between statements fails its next statement, where
  // the caller handles it; pg also emits it on the client, which without a listener is an uncaught
  // exception (seen: the server exiting when its PostgreSQL was killed during a dispatch).
  pool.on('connect', (client) => client.on('error', () => {}));
  return {
    ...over((text, values) => pool.query(text, values)),
    async transaction(work, { timeoutMs }) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        await client.query(`SET LOCAL statement_timeout = ${Math.trunc(timeoutMs)}`);
        const result = await work(over((text, values) => client.query(text, values)));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
        throw error;
      } finally {
        client.release(broken);
      }
    },
    end: () => pool.end(),
  };
}
