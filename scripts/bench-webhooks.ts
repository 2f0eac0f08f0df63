/**
 * Webhook benchmark (issue 25): a burst of events to 10 endpoints. 10 local receivers (node:http
 * on 127.0.0.1, answering 204 at once), one organization with an endpoint on each, then
 * `--events` events (10,000) recorded as writes record them (`recordEvents`, in transactions of
 * `--batch` events), dispatched by an outbox dispatcher with the webhooks' consumer and delivered
 * by the worker's webhook runner (QUIRE_WEBHOOK_CONCURRENCY), in this one process. Prints the time
 * from the first event to the last delivery received, deliveries per second, the lag of each
 * delivery (received − the event's time) at p50/p95/p99/max, the peak RSS of the process, and
 * checks that each endpoint received every event once, in order. Figures, no assertions. Usage:
 *   npx tsx scripts/bench-webhooks.ts [--events 10000] [--endpoints 10] [--batch 100] [--concurrency 8]
 * The database is `quire_bench_webhooks` on DATABASE_URL's server (default
 * postgresql://postgres@127.0.0.1:5432), dropped and created again on every run.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { createPrismaClient } from '../src/db/client.js';
import { migrateQueue } from '../src/db/queue-schema.js';
import { newId } from '../src/domain/kernel/ids.js';
import { recordEvents } from '../src/domain/kernel/outbox.js';
import { signingSecret } from '../src/domain/kernel/signing-secret.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { sealSecret } from '../src/domain/webhooks/secrets.js';
import { createEventBus } from '../src/events/bus.js';
import { startOutboxDispatcher } from '../src/events/outbox-dispatcher.js';
import { webhookConsumer } from '../src/events/webhook-consumer.js';
import { startWorker } from '../src/jobs/worker.js';
import { newWebhookSecret } from '../src/lib/webhooks/standard-webhooks.js';
import { createLogger } from '../src/observability/logger.js';
import { freshDatabase } from './bench-support/server-process.js';

const { values } = parseArgs({
  options: { events: { type: 'string', default: '10000' }, endpoints: { type: 'string', default: '10' }, batch: { type: 'string', default: '100' }, concurrency: { type: 'string', default: '8' } },
});
const EVENTS = Number(values.events);
const ENDPOINTS = Number(values.endpoints);
const BATCH = Number(values.batch);
const DB_NAME = 'quire_bench_webhooks';

type Receipt = { eventId: string; lagMs: number };

/** A receiver that answers 204 at once and notes what it got, and when, against the event's time. */
async function startReceiver(receipts: Receipt[][], index: number): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
      receipts[index].push({ eventId: String(req.headers['webhook-id']), lagMs: Date.now() - Date.parse(body.timestamp) });
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 5000;
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const t0 = performance.now();
  const url = await freshDatabase(DB_NAME);
  await migrateQueue(url);
  console.log(`database ${DB_NAME} created and migrated in ${seconds(performance.now() - t0)}`);
  const config = {
    ...loadConfig({ QUIRE_FETCH_ALLOW_PRIVATE_NETWORKS: 'true', QUIRE_WEBHOOK_CONCURRENCY: values.concurrency!, QUIRE_LOG_LEVEL: 'silent' }),
    databaseUrl: url,
  };
  const logger = createLogger({ level: 'silent' });
  const db = createPrismaClient(url, { poolMax: 10 });
  const workerDb = createPrismaClient(url, { poolMax: 10 });
  const events = createEventBus({ logger });

  const receipts: Receipt[][] = Array.from({ length: ENDPOINTS }, () => []);
  const receivers = await Promise.all(receipts.map((_, i) => startReceiver(receipts, i)));
  const { organization } = await createOrganizationWithOwner(db, { title: 'Bench', ownerEmail: 'bench@example.test', ownerName: 'Bench' });
  const instanceSecret = await signingSecret(db, config.secret);
  await db.webhookEndpoint.createMany({
    data: receivers.map((r, i) => ({ id: newId('WebhookEndpoint'), organizationId: organization.id, url: r.url, description: `receiver ${i}`, secret: sealSecret(newWebhookSecret(), instanceSecret) })),
  });

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const dispatcher = startOutboxDispatcher({ db, consumers: [webhookConsumer()], logger, retentionMs: 24 * 3600_000 })!;
  const worker = await startWorker(url, { db: workerDb, events, logger, config });

  const expected = EVENTS * ENDPOINTS;
  const received = () => receipts.reduce((n, r) => n + r.length, 0);
  const start = performance.now();
  const recorded: string[] = [];
  for (let i = 0; i < EVENTS; i += BATCH) {
    const kinds = Array.from({ length: Math.min(BATCH, EVENTS - i) }, (_, j) => ({
      kind: 'spaceUpdated' as const,
      organizationId: organization.id,
      subjectId: `spc_bench${i + j}`,
      spaceId: null,
      actorId: null,
      data: { n: i + j, fields: ['title'] },
    }));
    recorded.push(...(await db.$transaction((tx) => recordEvents(tx, kinds))));
  }
  const recordedMs = performance.now() - start;
  console.log(`recorded ${EVENTS} events in ${seconds(recordedMs)} (transactions of ${BATCH})`);
  let last = 0;
  let queuedMs: number | undefined;
  while (received() < expected) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = received();
    if (queuedMs === undefined && (await db.webhookDelivery.count()) === expected) {
      queuedMs = performance.now() - start;
      console.log(`all ${expected} deliveries queued (events dispatched) after ${seconds(queuedMs)}`);
    }
    if (now !== last && Math.floor(now / (expected / 10)) !== Math.floor(last / (expected / 10))) console.log(`  ${now} / ${expected} delivered after ${seconds(performance.now() - start)}`);
    if (performance.now() - start > 30 * 60_000) throw new Error(`only ${now} of ${expected} deliveries after 30 minutes`);
    last = now;
  }
  const totalMs = performance.now() - start;
  clearInterval(sampler);

  const lags = receipts.flat().map((r) => r.lagMs).sort((a, b) => a - b);
  const inOrder = receipts.every((r) => r.length === EVENTS && r.every((x, i) => x.eventId === recorded[i]));
  console.log('');
  console.log(`| events | endpoints | deliveries | concurrency | all delivered after | deliveries/s | lag p50 | lag p95 | lag p99 | lag max | peak RSS |`);
  console.log(`|---|---|---|---|---|---|---|---|---|---|---|`);
  console.log(
    `| ${EVENTS} | ${ENDPOINTS} | ${expected} | ${values.concurrency} | ${seconds(totalMs)} | ${Math.round(expected / (totalMs / 1000))} | ${seconds(percentile(lags, 50))} | ${seconds(percentile(lags, 95))} | ${seconds(percentile(lags, 99))} | ${seconds(lags[lags.length - 1])} | ${Math.round(peakRss / 1024 / 1024)} MB |`,
  );
  console.log(`each endpoint received every event once, in order: ${inOrder ? 'yes' : 'NO'}`);

  await worker.stop();
  await dispatcher.stop();
  await events.close();
  for (const r of receivers) r.server.closeAllConnections(), r.server.close();
  await workerDb.$disconnect();
  await db.$disconnect();
}

await main();
