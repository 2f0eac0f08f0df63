/**
 * Background jobs on graphile-worker (a Postgres-backed queue in the same database): an explicit
 * task registry and cron schedule. Handlers are idempotent; payloads carry IDs only.
 */
import { Logger, parseCronItems, run, type Runner, type TaskList } from 'graphile-worker';
import type { Db } from '../db/client.js';
import { silentLogger, type Logger as PinoLogger } from '../observability/logger.js';
import { purgeDeletedSpaces } from '../domain/spaces/trash.js';

export function taskList(db: Db, logger: PinoLogger): TaskList {
  return {
    /** Permanently removes spaces whose 7-day trash period has passed. */
    purge_deleted_spaces: async () => {
      const count = await purgeDeletedSpaces(db);
      if (count) logger.info({ count }, 'purged deleted spaces');
    },
  };
}

const CRON = [{ task: 'purge_deleted_spaces', match: '7 * * * *', options: { backfillPeriod: 0 } }];

export async function startWorker(url: string, db: Db, logger: PinoLogger = silentLogger()): Promise<Runner> {
  const workerLogger = new Logger(() => (level, message) => {
    if (level === 'error') logger.error({ component: 'graphile-worker' }, message);
    else if (level === 'warning') logger.warn({ component: 'graphile-worker' }, message);
  });
  return run({
    connectionString: url,
    concurrency: 2,
    noHandleSignals: true,
    pollInterval: 2000,
    logger: workerLogger,
    taskList: taskList(db, logger),
    parsedCronItems: parseCronItems(CRON),
  });
}
