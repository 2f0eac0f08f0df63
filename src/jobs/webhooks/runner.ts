/**
 * Webhook deliveries run on a graphile-worker runner of their own, beside the jobs' runner
 * (worker.ts): only the `deliver_webhooks` task and the delivery log's retention, with their own
 * concurrency (QUIRE_WEBHOOK_CONCURRENCY), so a slow receiver never holds a slot an import needs,
 * and imports never hold up deliveries.
 */
import { parseCronItems, run, type Logger, type Runner, type TaskList } from 'graphile-worker';
import type pg from 'pg';
import { deleteOldDeliveries } from '../../domain/webhooks/delivery.js';
import { DELIVER_WEBHOOKS_TASK } from '../../domain/webhooks/queue.js';
import type { JobServices } from '../handler.js';
import { drainEndpoint } from './drain.js';

const RETENTION_TASK = 'delete_old_webhook_deliveries';

function webhookTasks(services: JobServices): TaskList {
  return {
    [DELIVER_WEBHOOKS_TASK]: async (payload, helpers) => {
      const endpointId = (payload as { endpointId?: unknown } | null)?.endpointId;
      if (typeof endpointId !== 'string') return helpers.logger.error(`${DELIVER_WEBHOOKS_TASK} without an endpoint ID: ${JSON.stringify(payload)}`);
      await drainEndpoint(services, endpointId);
    },
    [RETENTION_TASK]: async () => {
      const count = await deleteOldDeliveries(services.db, services.config.webhooks.logRetentionMs);
      if (count) services.logger.info({ count }, 'deleted webhook deliveries past their retention');
    },
  };
}

const CRON = [{ task: RETENTION_TASK, match: '17 * * * *', options: { backfillPeriod: 0 } }];

export function startWebhookRunner(pgPool: pg.Pool, services: JobServices, logger: Logger): Promise<Runner> {
  return run({
    pgPool,
    concurrency: services.config.webhooks.concurrency,
    noHandleSignals: true,
    // Retries are jobs scheduled for later, found by this poll.
    pollInterval: 1000,
    logger,
    taskList: webhookTasks(services),
    parsedCronItems: parseCronItems(CRON),
  });
}
