/**
 * /healthz (liveness) and /readyz (readiness), for load balancers and orchestrators.
 *
 * /healthz: can this process do its job, so that restarting it would not help? 200 unless
 * - it is shutting down (SIGTERM received: it finishes what it has, then exits);
 * - its event loop was blocked for more than BLOCKED_MS within the last two windows of WINDOW_MS
 *   (the answer itself coming back proves the loop turns now, not that it keeps turning);
 * - the database it runs itself (the embedded PostgreSQL) exited and could not be restarted.
 * An external database being unreachable does NOT fail it: the pool reconnects by itself once the
 * database is back, and restarting every instance during a database outage helps nobody.
 *
 * /readyz: should requests be sent here now? 200 when the database answers within
 * READY_TIMEOUT_MS with every migration applied; 503 otherwise, and while shutting down. Redis is
 * optional: without it this instance still serves (events reach its own subscribers), so it
 * answers 200 with `"status": "degraded"`.
 */
import type { ServerResponse } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Db } from '../db/client.js';
import { isMigrated } from '../db/database.js';
import type { EventBus } from '../events/bus.js';
import { sendJson } from './error-reply.js';

const WINDOW_MS = 5_000;
const BLOCKED_MS = 5_000;
const READY_TIMEOUT_MS = 2_000;

export type Health = {
  liveness(res: ServerResponse): void;
  readiness(res: ServerResponse): Promise<void>;
  /** From now on both answer 503 (the process is stopping). */
  stopping(): void;
  close(): void;
};

export function createHealth({ db, events, databaseFailed = () => false }: { db: Db; events?: EventBus; databaseFailed?: () => boolean }): Health {
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  let previousMaxMs = 0;
  const window = setInterval(() => {
    previousMaxMs = delay.max / 1e6;
    delay.reset();
  }, WINDOW_MS).unref();
  let stopping = false;

  function problem(): string | undefined {
    if (stopping) return 'stopping';
    const blockedMs = Math.max(previousMaxMs, delay.max / 1e6);
    if (blockedMs > BLOCKED_MS) return `event loop blocked for ${Math.round(blockedMs)} ms`;
    if (databaseFailed()) return 'the embedded PostgreSQL could not be restarted';
    return undefined;
  }

  /** The database's state, bounded in time: a database that hangs is as unready as one that refuses. */
  type State = 'up' | 'unreachable' | 'migrations pending';
  async function database(): Promise<State> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<State>((resolve) => (timer = setTimeout(() => resolve('unreachable'), READY_TIMEOUT_MS)));
    const checked = isMigrated(db).then(
      (migrated): State => (migrated ? 'up' : 'migrations pending'),
      (): State => 'unreachable',
    );
    return Promise.race([checked, late]).finally(() => clearTimeout(timer));
  }

  return {
    liveness(res) {
      const reason = problem();
      sendJson(res, reason ? 503 : 200, reason ? { status: 'unhealthy', reason } : { status: 'ok' });
    },
    async readiness(res) {
      if (stopping) return sendJson(res, 503, { status: 'stopping' });
      const state = await database();
      if (state !== 'up') return sendJson(res, 503, { status: 'unavailable', database: state });
      if (events?.redisState() === 'unavailable') return sendJson(res, 200, { status: 'degraded', redis: 'unavailable' });
      sendJson(res, 200, { status: 'ready' });
    },
    stopping() {
      stopping = true;
    },
    close() {
      clearInterval(window);
      delay.disable();
    },
  };
}
