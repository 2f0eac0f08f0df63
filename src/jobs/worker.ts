/**
 * Background jobs on graphile-worker (a Postgres-backed queue in the same database): an explicit
 * task registry and cron schedule. Handlers are idempotent; payloads carry IDs only.
 */
import { Logger, parseCronItems, run, type Runner, type TaskList } from 'graphile-worker';
import type { Db } from '../db/client.js';
import { purgeDeletedSpaces } from '../domain/spaces/trash.js';

export function taskList(db: Db, log: (...args: unknown[]) => void): TaskList {
  return {
    /** Permanently removes spaces whose 7-day trash period has passed. */
    purge_deleted_spaces: async () => {
      const count = await purgeDeletedSpaces(db);
      if (count) log(`[quire] purged ${count} deleted space(s)`);
    },
  };
}

const CRON = [{ task: 'purge_deleted_spaces', match: '7 * * * *', options: { backfillPeriod: 0 } }];

export async function startWorker(url: string, db: Db, log: (...args: unknown[]) => void = console.error): Promise<Runner> {
  const logger = new Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') log(`[graphile-worker] ${message}`);
  });
  return run({
    connectionString: url,
    concurrency: 2,
    noHandleSignals: true,
    pollInterval: 2000,
    logger,
    taskList: taskList(db, log),
    parsedCronItems: parseCronItems(CRON),
  });
}
