/**
 * What a drain (jobs/webhooks/drain.ts) reads and writes: the head of an endpoint's queue (its
 * oldest pending deliveries), and the outcome of an attempt — recorded with the delivery's last
 * fields atomically (one statement when delivered, one transaction otherwise), together with what
 * follows from it:
 *
 * - delivered (2xx): the endpoint is no longer failing; the drain goes on to the next delivery;
 * - failed, within the retry window (QUIRE_WEBHOOK_RETRY_HOURS from the delivery's creation): the
 *   next attempt is scheduled after a backoff and the drain stops, so nothing overtakes the head;
 * - failed past the window: the delivery is given up (`failed`) and the queue moves on — unless
 *   the endpoint has been failing for longer than QUIRE_WEBHOOK_DISABLE_AFTER_HOURS: it is then
 *   turned off (`webhookEndpointDisabled`), its pending deliveries kept until it is turned on again.
 */
import type { WebhookDelivery, WebhookEndpoint } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';
import { retryDelayMs } from '../../lib/webhooks/backoff.js';
import { newId } from '../kernel/ids.js';
import { recordEvents } from '../kernel/outbox.js';
import { scheduleDrains } from './queue.js';
import type { WebhookSettings } from './settings.js';

/** The head of an endpoint's queue: its next pending deliveries, oldest first. */
export type QueueHead = { endpoint: WebhookEndpoint; deliveries: WebhookDelivery[] };

/** The endpoint (null when gone or turned off: nothing to send) and its `limit` oldest pending deliveries. */
export async function queueHead(db: Db, endpointId: string, limit: number): Promise<QueueHead | null> {
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: endpointId } });
  if (!endpoint?.active) return null;
  const deliveries = await db.$queryRaw<WebhookDelivery[]>`
    SELECT * FROM "WebhookDelivery" WHERE "endpointId" = ${endpointId} AND "status" = 'pending' ORDER BY "seq" LIMIT ${limit}`;
  return { endpoint, deliveries };
}

/** Waits for a delivery's next attempt: its time, in the job queue. */
export const scheduleRetry = (db: Db, endpointId: string, at: Date) => db.$transaction((tx) => scheduleDrains(tx, [endpointId], { at }));

/** What one attempt came to. `error`: why it failed, in words fit for the delivery log (no internal detail). */
export type AttemptOutcome = { ok: boolean; statusCode: number | null; latencyMs: number; error: string | null };

export type FailureResult =
  | { next: 'continue' }
  | { next: 'stop' }
  | { next: 'stop'; disabled: { organizationId: string; endpointId: string; url: string; reason: string } };

const hours = (ms: number) => `${Math.round((ms / 3600_000) * 10) / 10} h`;

/**
 * A delivery that succeeded, in one statement (the common case, kept cheap): the attempt, the
 * delivery's last fields, and the endpoint no longer failing. False when the delivery was no
 * longer pending (its endpoint deleted meanwhile).
 */
export async function recordDelivered(db: Db, delivery: WebhookDelivery, outcome: AttemptOutcome): Promise<boolean> {
  const [{ n }] = await db.$queryRaw<{ n: number }[]>`
    WITH d AS (
      UPDATE "WebhookDelivery" SET "status" = 'delivered', "deliveredAt" = now(), "attempts" = "attempts" + 1,
        "lastStatusCode" = ${outcome.statusCode}, "lastLatencyMs" = ${outcome.latencyMs}, "lastError" = NULL
      WHERE "id" = ${delivery.id} AND "status" = 'pending' RETURNING "id", "attempts"
    ), a AS (
      INSERT INTO "WebhookAttempt" ("id", "deliveryId", "attempt", "statusCode", "latencyMs")
      SELECT ${newId('WebhookAttempt')}, d."id", d."attempts", ${outcome.statusCode}, ${outcome.latencyMs} FROM d
    ), e AS (
      UPDATE "WebhookEndpoint" SET "failingSince" = NULL WHERE "id" = ${delivery.endpointId} AND "failingSince" IS NOT NULL AND EXISTS (SELECT 1 FROM d)
    )
    SELECT count(*)::int AS "n" FROM d`;
  return n === 1;
}

/** A delivery that failed: the attempt, and what follows (a retry scheduled, or the delivery given up, or the endpoint turned off). */
export async function recordFailure(db: Db, head: { endpoint: WebhookEndpoint; delivery: WebhookDelivery }, outcome: AttemptOutcome, settings: Pick<WebhookSettings, 'retryBaseMs' | 'retryWindowMs' | 'disableAfterMs'>): Promise<FailureResult> {
  const { endpoint, delivery } = head;
  return db.$transaction(async (tx) => {
    const now = new Date();
    const attempt = delivery.attempts + 1;
    const last = { attempts: attempt, lastStatusCode: outcome.statusCode, lastLatencyMs: outcome.latencyMs, lastError: outcome.error };
    await tx.webhookAttempt.create({ data: { id: newId('WebhookAttempt'), deliveryId: delivery.id, attempt, at: now, statusCode: outcome.statusCode, latencyMs: outcome.latencyMs, error: outcome.error } });
    const [{ failingSince }] = await tx.$queryRaw<{ failingSince: Date }[]>`
      UPDATE "WebhookEndpoint" SET "failingSince" = COALESCE("failingSince", ${now}) WHERE "id" = ${endpoint.id} RETURNING "failingSince"`;
    if (now.getTime() - delivery.createdAt.getTime() < settings.retryWindowMs) {
      const at = new Date(now.getTime() + retryDelayMs(attempt, settings.retryBaseMs));
      await tx.webhookDelivery.update({ where: { id: delivery.id }, data: { ...last, nextAttemptAt: at } });
      await scheduleDrains(tx, [endpoint.id], { at });
      return { next: 'stop' };
    }
    await tx.webhookDelivery.update({ where: { id: delivery.id }, data: { ...last, status: 'failed' } });
    if (now.getTime() - failingSince.getTime() < settings.disableAfterMs) return { next: 'continue' };
    const reason = `Every delivery failed for more than ${hours(settings.disableAfterMs)} (the last: ${outcome.error ?? `HTTP ${outcome.statusCode}`})`;
    await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { active: false, disabledAt: now, disabledReason: reason } });
    await recordEvents(tx, { kind: 'webhookEndpointDisabled', organizationId: endpoint.organizationId, subjectId: endpoint.id, actorId: null, data: { reason } });
    return { next: 'stop', disabled: { organizationId: endpoint.organizationId, endpointId: endpoint.id, url: endpoint.url, reason } };
  });
}

/** Who is told that an endpoint was turned off: the organization's active admins, and its name. */
export async function endpointAdmins(db: Db, organizationId: string): Promise<{ organizationTitle: string; emails: string[] }> {
  const [organization, admins] = await Promise.all([
    db.organization.findUnique({ where: { id: organizationId }, select: { title: true } }),
    db.member.findMany({ where: { organizationId, role: 'admin', disabled: false }, select: { user: { select: { email: true } } }, take: 100 }),
  ]);
  return { organizationTitle: organization?.title ?? '', emails: admins.map((m) => m.user.email) };
}

/**
 * Deletes deliveries (and their attempts) older than the log's retention, whatever their state, a
 * batch at a time (each endpoint's oldest, through its log index); answers how many.
 */
export async function deleteOldDeliveries(db: Db, retentionMs: number, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM "WebhookDelivery" WHERE "id" IN (
        SELECT d."id" FROM "WebhookEndpoint" w CROSS JOIN LATERAL (
          SELECT "id" FROM "WebhookDelivery" WHERE "endpointId" = w."id" AND "createdAt" < now() - make_interval(secs => ${retentionMs / 1000})
          ORDER BY "createdAt" LIMIT ${batch}) d
        LIMIT ${batch})`;
    total += deleted;
    if (deleted < batch) return total;
  }
}
