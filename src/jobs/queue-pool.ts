/**
 * The connection pool of a graphile-worker runner, owned here rather than by graphile-worker.
 * Given only a connection string, graphile-worker removes its pool's error listener when it stops
 * and ends the pool without waiting: a connection broken meanwhile (PostgreSQL stopping, a
 * database dropped) then raised an uncaught exception. This pool keeps its listeners for its whole
 * life, and `close` resolves once every connection is gone.
 */
import pg from 'pg';
import type { Logger } from '../observability/logger.js';

export type QueuePool = { pool: pg.Pool; close(): Promise<void> };

export function createQueuePool(url: string, max: number, logger: Logger, name: string): QueuePool {
  // A connection attempt that gets no answer (a network cut) fails after 10 s rather than never:
  // a runner stopping after an outage must not wait forever (worker.ts).
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  // Idle connections that break are dropped by pg; checked-out ones raise on their next query.
  const report = (error: Error) => logger.warn({ component: name, err: { message: error.message } }, 'a queue connection broke');
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  return {
    pool,
    async close() {
      await pool.end().catch(report);
    },
  };
}
