/**
 * Queueing deliveries: for a batch of committed events (the outbox dispatcher's claim), one
 * statement makes a delivery per (event, active endpoint of its organization that wants its kind),
 * in event order — `seq` is then each endpoint's queue order — and each endpoint touched gets its
 * drain job (`deliver_webhooks`, jobs/webhooks). Run inside the claim's transaction: deliveries
 * exist exactly when the events are marked dispatched. A claim that fails leaves both undone and
 * the events come again, so an event is queued once per endpoint (a redelivery through the API is
 * a new delivery of the same event, `redeliveryOf`).
 *
 * The drain job of an endpoint has one key and one named queue (`webhook:<id>`): one drain runs at
 * a time per endpoint, in order, and adding to a drain waiting for a retry keeps its time
 * (`preserve_run_at`): the head of the queue is not overtaken.
 */
import { Prisma } from '../../generated/prisma/client.js';
import type { RawSql } from '../kernel/sql.js';
import { webhookPayload, type WebhookEvent } from './payload.js';

/** Raw statements only: a transaction, or the outbox dispatcher's claim (events/raw-sql.ts). */
type Tx = RawSql;

export const DELIVER_WEBHOOKS_TASK = 'deliver_webhooks';

/** Makes the deliveries of `events` (oldest first); answers the endpoints that got some. */
export async function queueWebhookDeliveries(tx: Tx, events: readonly WebhookEvent[]): Promise<string[]> {
  if (!events.length) return [];
  const rows = await tx.$queryRaw<{ endpointId: string }[]>`
    WITH e AS (
      SELECT * FROM unnest(${events.map((e) => e.id)}::text[], ${events.map((e) => e.organizationId)}::text[], ${events.map((e) => e.kind)}::text[], ${events.map(webhookPayload)}::text[])
        WITH ORDINALITY AS e("id", "organizationId", "kind", "payload", "ord")
    ), made AS (
      INSERT INTO "WebhookDelivery" ("id", "endpointId", "eventId", "kind", "payload")
      SELECT 'whdl_' || substr(md5(gen_random_uuid()::text), 1, 20), w."id", e."id", e."kind", e."payload"
      FROM e JOIN "WebhookEndpoint" w ON w."organizationId" = e."organizationId" AND w."active"
        AND (cardinality(w."events") = 0 OR e."kind" = ANY(w."events"))
      ORDER BY e."ord", w."id"
      RETURNING "endpointId"
    )
    SELECT DISTINCT "endpointId" FROM made`;
  const endpointIds = rows.map((r) => r.endpointId);
  await scheduleDrains(tx, endpointIds);
  return endpointIds;
}

/**
 * Makes sure each endpoint's drain job exists: at `at` (a retry's time: it replaces the job's
 * time), now (`now`: a re-activation, a redelivery), or else keeping the time of a waiting one.
 */
export async function scheduleDrains(tx: Tx, endpointIds: readonly string[], when: { at?: Date; now?: boolean } = {}): Promise<void> {
  if (!endpointIds.length) return;
  const mode = when.at || when.now ? 'replace' : 'preserve_run_at';
  await tx.$queryRaw`
    SELECT count(graphile_worker.add_job(${DELIVER_WEBHOOKS_TASK}::text, json_build_object('endpointId', id),
      queue_name := 'webhook:' || id, run_at := ${when.at ?? null}::timestamptz, job_key := 'webhook:' || id, job_key_mode := ${mode}::text))
    FROM unnest(${[...endpointIds]}::text[]) AS id`;
}

/** The endpoint's drain, now (a drain that yields after a batch; a re-activation; a redelivery). */
export const scheduleDrainNow = (tx: Tx, endpointId: string) => scheduleDrains(tx, [endpointId], { now: true });
