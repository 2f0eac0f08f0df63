/**
 * Prometheus metrics at /metrics: request durations by route template and status, GraphQL
 * operation durations, the database pool, the job queue, and Node's own (event loop, heap, GC).
 * Labels are templates and bounded names, never raw paths or IDs.
 */
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type pg from 'pg';
import type { Db } from '../db/client.js';

/** GraphQL operation names are the client's to choose: the first ones seen get a label each. */
const MAX_OPERATION_LABELS = 200;

export type Metrics = {
  registry: Registry;
  /** Arguments rather than an object of labels: called on every request, it makes the labels once per route and status. */
  observeRequest(method: string, route: string, status: number, operation: string | undefined, seconds: number): void;
};

export function createMetrics(opts: { db: Db; pool?: pg.Pool }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'quire_' });
  const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  const requests = new Histogram({ name: 'quire_http_request_duration_seconds', help: 'HTTP requests by route template and status', labelNames: ['method', 'route', 'status'], buckets, registers: [registry] });
  const operations = new Histogram({ name: 'quire_graphql_operation_duration_seconds', help: 'GraphQL operations over HTTP by operation name', labelNames: ['operation'], buckets, registers: [registry] });
  const named = new Set<string>();
  // The histogram of each label set, made once (prom-client makes an observer per unlabelled call).
  const byLabels = new Map<string, { observe(seconds: number): void }>();

  const { pool } = opts;
  if (pool) {
    new Gauge({ name: 'quire_db_pool_connections', help: 'Database pool connections by state', labelNames: ['state'], registers: [registry], collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    } });
  }
  new Gauge({
    name: 'quire_jobs',
    help: 'Background jobs by state (graphile-worker)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const rows = await opts.db
        .$queryRawUnsafe<{ ready: number; scheduled: number; running: number; failed: number }[]>(
          // Ready: due now, waiting for a worker; scheduled: due later (retries, the file garbage collection's next run).
          `SELECT count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts AND run_at <= now())::int AS ready,
                  count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts AND run_at > now())::int AS scheduled,
                  count(*) FILTER (WHERE locked_at IS NOT NULL)::int AS running,
                  count(*) FILTER (WHERE attempts >= max_attempts)::int AS failed
           FROM graphile_worker.jobs`,
        )
        .catch(() => []); // no queue yet (no worker has run), or no database: no figures
      for (const [state, value] of Object.entries(rows[0] ?? {})) this.set({ state }, Number(value));
    },
  });

  return {
    registry,
    observeRequest(method, route, status, operation, seconds) {
      // Routes are templates and statuses few: the label sets are bounded.
      const id = `${status} ${method} ${route}`;
      let labelled = byLabels.get(id);
      if (!labelled) byLabels.set(id, (labelled = requests.labels({ method, route, status: String(status) })));
      labelled.observe(seconds);
      if (operation) {
        if (!named.has(operation) && named.size < MAX_OPERATION_LABELS) named.add(operation);
        operations.observe({ operation: named.has(operation) ? operation : 'other' }, seconds);
      }
    },
  };
}
