import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { createEventBus } from '../events/bus.js';
import { busConsumer } from '../events/outbox-consumer.js';
import { startOutboxDispatcher } from '../events/outbox-dispatcher.js';
import { webhookConsumer } from '../events/webhook-consumer.js';
import { auditConsumer } from '../events/audit-consumer.js';
import { startWorker } from '../jobs/worker.js';
import { createLogger } from '../observability/logger.js';
import { collectStartupGarbage } from '../observability/startup-collection.js';
import { startupSummary } from '../observability/startup-summary.js';

/** Runs background jobs without serving HTTP (scale workers separately from gateways). */
export async function worker(config: Config): Promise<void> {
  const logger = createLogger({ level: config.logLevel, format: config.logFormat });
  const summary = startupSummary(config, 'worker');
  logger.info({ startup: summary.fields }, summary.message);
  const database = await openDatabase(config, { progress: (line) => logger.info(line), logger });
  // Job progress goes out through Redis (REDIS_URL) to the subscribers of every server instance.
  const events = createEventBus({ redisUrl: config.redisUrl, logger });
  if (!config.redisUrl) logger.warn('REDIS_URL is not set: subscribers on other processes will not see job progress as it happens');
  // With Redis, this worker dispatches the events of its writes itself (to every instance's
  // subscribers). Without it, it could tell no subscriber: the servers dispatch them instead.
  const dispatcher = config.redisUrl ? startOutboxDispatcher({ db: database.db, consumers: [auditConsumer(), webhookConsumer(), busConsumer(events)], logger, retentionMs: config.outboxRetentionMs, auditRetentionMs: config.auditRetentionMs }) : null;
  const runner = await startWorker(database.url, { db: database.db, events, logger, config });
  logger.debug({ ms: Math.round(collectStartupGarbage()) }, 'start-up garbage collected');
  logger.info('worker running');
  const shutdown = async () => {
    await runner.stop();
    await dispatcher?.stop();
    await events.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await runner.promise;
}
