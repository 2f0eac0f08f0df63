/** The Prisma client factory: Prisma 7's query compiler over a pg pool (no native engine). */
import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { registerDirectPool } from './direct.js';

export type Db = PrismaClient;

export type QueryListener = (sql: string) => void;

/** Distinct statements given a name (prepared once per connection); later ones run unnamed. */
const MAX_NAMED_STATEMENTS = 1000;

/**
 * A statement whose text starts with this comment is never named. Sent unnamed, it is parsed and
 * planned for its parameters on every execution, whereas a named one may switch to a cached generic
 * plan after five: for statements whose best plan depends on their parameters' values (a search's
 * words, common or rare), without a transaction and a `SET LOCAL plan_cache_mode` around them.
 */
export const PLANNED_EACH_TIME = '/* planned each time */';

/**
 * Names statements after a digest of their text, so each pooled connection prepares a statement
 * once and then only binds and executes it: PostgreSQL parses it once per connection, and after a
 * few executions keeps one generic plan when that costs no more than planning each execution for
 * its parameters (a list's page for a given organization often does not: it then keeps planning
 * per execution, rightly). Statements are finitely many texts with parameters, but the
 * number of names is bounded anyway: each one holds memory in every connection of the pool.
 */
function statementNames(): (query: { sql: string }) => string | undefined {
  const names = new Map<string, string>();
  return ({ sql }) => {
    if (sql.startsWith(PLANNED_EACH_TIME)) return undefined;
    let name = names.get(sql);
    if (!name && names.size < MAX_NAMED_STATEMENTS) {
      name = `q${createHash('sha1').update(sql).digest('base64url').slice(0, 20)}`;
      names.set(sql, name);
    }
    return name;
  };
}

const pools = new WeakMap<Db, pg.Pool>();

/** The connection pool under a client (for its metrics). */
export const poolOf = (db: Db): pg.Pool | undefined => pools.get(db);

export function createPrismaClient(
  url: string,
  opts: { poolMax?: number; onQuery?: QueryListener; preparedStatements?: boolean; onConnectionLost?: (error: Error) => void; statementTimeoutMs?: number } = {},
): Db {
  const named = opts.preparedStatements !== false ? { statementNameGenerator: statementNames() as never } : {};
  // A connection that breaks while idle (the server restarting, 57P01 on shutdown) is reported in
  // one line and replaced by the pool on next use; it must never take the process down.
  const lost = opts.onConnectionLost ?? ((error: Error) => console.error(`[quire] database connection lost: ${error.message}`));
  const pool = new pg.Pool({ connectionString: url, max: opts.poolMax ?? 10, ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}) });
  // No JIT compilation: it pays only for long analytic statements, and costs an OLTP one tens to
  // hundreds of milliseconds whenever its estimated cost crosses `jit_above_cost` (measured: a
  // search over 100 spaces, 0.2 s of compiling for 20 ms of execution). Set on each new connection,
  // queued before its first statement.
  // A connection that breaks while checked out between statements fails its next one, where the
  // caller handles it; pg also emits the break on the connection, which must not go unheard.
  pool.on('connect', (connection) => {
    connection.on('error', () => {});
    void connection.query('SET jit = off').catch(lost);
  });
  const adapter = new PrismaPg(pool as never, { ...named, onPoolError: lost, onConnectionError: lost, disposeExternalPool: true });
  const client = new PrismaClient({
    adapter,
    // The default ('colorless') captures a stack trace on every call to point error messages at
    // the caller's line: a cost per statement, for messages a server masks anyway.
    errorFormat: 'minimal',
    log: opts.onQuery ? [{ emit: 'event', level: 'query' }] : [],
  });
  if (opts.onQuery) {
    const listener = opts.onQuery;
    (client as unknown as { $on(e: 'query', cb: (e: { query: string }) => void): void }).$on('query', (e) => listener(e.query));
  }
  pools.set(client, pool);
  registerDirectPool(client, { pool, named: opts.preparedStatements !== false, onQuery: opts.onQuery });
  return client;
}
