/**
 * Webhook deliveries run on a graphile-worker pool of their own, beside the jobs' one
 * (worker.ts): only the `deliver_webhooks` task and the delivery log's retention, with their own
 * concurrency (QUIRE_WEBHOOK_CONCURRENCY), so a slow receiver never holds a slot an import needs,
 * and imports never hold up deliveries.
 */
import { runTaskList, type Logger, type TaskList, type WorkerEvents, type WorkerPool } from 'graphile-worker';
import type pg from 'pg';
import { deleteOldDeliveries } from '../../domain/webhooks/delivery.js';
import { DELIVER_WEBHOOKS_TASK } from '../../domain/webhooks/queue.js';
import type { JobServices } from '../handler.js';
import { recurringTask, type Recurring } from '../recurring.js';
import { drainEndpoint } from './drain.js';

/** The delivery log's retention, hourly. */
export const WEBHOOK_RETENTION: Recurring = { task: 'delete_old_webhook_deliveries', everyMs: 3600_000, firstDelayMs: 600_000 };

function webhookTasks(services: JobServices): TaskList {
  return {
    [DELIVER_WEBHOOKS_TASK]: async (payload, helpers) => {
      const endpointId = (payload as { endpointId?: unknown } | null)?.endpointId;
      if (typeof endpointId !== 'string') return helpers.logger.error(`${DELIVER_WEBHOOKS_TASK} without an endpoint ID: ${JSON.stringify(payload)}`);
      await drainEndpoint(services, endpointId);
    },
    [WEBHOOK_RETENTION.task]: recurringTask(WEBHOOK_RETENTION, async () => {
      const count = await deleteOldDeliveries(services.db, services.config.webhooks.logRetentionMs);
      if (count) services.logger.info({ count }, 'deleted webhook deliveries past their retention');
    }),
  };
}

export function startWebhookRunner(pgPool: pg.Pool, services: JobServices, logger: Logger, events: WorkerEvents): WorkerPool {
  return runTaskList(
    {
      concurrency: services.config.webhooks.concurrency,
      noHandleSignals: true,
      // Retries are jobs scheduled for later, found by this poll.
      pollInterval: 1000,
      logger,
      events,
    },
    webhookTasks(services),
    pgPool,
  );
}
