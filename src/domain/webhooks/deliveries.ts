/**
 * An endpoint's delivery log (admins: `manageWebhooks`): its deliveries newest first, each with its
 * last attempts, and re-sending one — a new delivery of the same event and body (same
 * `webhook-id`, so a receiver that got the first drops it), appended to the endpoint's queue.
 */
import { Prisma, type WebhookDelivery, type WebhookDeliveryStatus } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';
import type { Access } from '../access/access.js';
import { organizationWrite } from '../access/guarded-write.js';
import { notFound } from '../../lib/errors.js';
import { newId } from '../kernel/ids.js';
import { counted, type CountedPage } from '../kernel/pagination/counted.js';
import { byTimeThenId, readPage, type PageArgs } from '../kernel/pagination/keyset.js';
import { findEndpoint } from './endpoints.js';
import { scheduleDrainNow } from './queue.js';

const { sql } = Prisma;

/** Attempts shown with a delivery: its last ones (every attempt is counted in `attempts`). */
export const ATTEMPT_LOG_SIZE = 20;

export type WebhookAttemptEntry = { attempt: number; at: string; statusCode: number | null; latencyMs: number; error: string | null };
export type DeliveryRow = Omit<WebhookDelivery, 'seq'> & { attemptLog: WebhookAttemptEntry[] };

/** A delivery's columns and its last attempts (oldest of them first), one index read per delivery. */
const SELECT = sql`
  SELECT d."id", d."endpointId", d."eventId", d."kind", d."payload", d."status"::text AS "status", d."attempts", d."nextAttemptAt",
    d."createdAt", d."deliveredAt", d."lastStatusCode", d."lastLatencyMs", d."lastError", d."redeliveryOf",
    COALESCE((SELECT json_agg(a ORDER BY a."attempt") FROM (
      SELECT "attempt", to_char("at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "at", "statusCode", "latencyMs", "error"
      FROM "WebhookAttempt" WHERE "deliveryId" = d."id" ORDER BY "attempt" DESC LIMIT ${ATTEMPT_LOG_SIZE}) a), '[]'::json) AS "attemptLog"
  FROM "WebhookDelivery" d`;

export async function deliveriesPage(db: Db, access: Access, organizationId: string, endpointId: string, args: PageArgs & { status?: WebhookDeliveryStatus | null }): Promise<CountedPage<DeliveryRow>> {
  await findEndpoint(db, access, organizationId, endpointId);
  const key = byTimeThenId<DeliveryRow>(`webhook-deliveries:${endpointId}`, 'd."createdAt"', 'd."id"', (d) => [d.createdAt, d.id], { descending: true });
  const conditions = [sql`d."endpointId" = ${endpointId}`, ...(args.status ? [sql`d."status" = ${args.status}::"WebhookDeliveryStatus"`] : [])];
  const page = await readPage<DeliveryRow>(db, SELECT, conditions, key, args);
  return counted(page, () => db.webhookDelivery.count({ where: { endpointId, ...(args.status ? { status: args.status } : {}) } }));
}

export async function findDelivery(db: Db | Prisma.TransactionClient, access: Access, organizationId: string, endpointId: string, id: string): Promise<DeliveryRow> {
  await findEndpoint(db, access, organizationId, endpointId);
  const [row] = await db.$queryRaw<DeliveryRow[]>`${SELECT} WHERE d."id" = ${id} AND d."endpointId" = ${endpointId}`;
  if (!row) throw notFound('Webhook delivery');
  return row;
}

export function redeliver(db: Db, access: Access, organizationId: string, endpointId: string, id: string): Promise<DeliveryRow> {
  return organizationWrite(db, access, organizationId, 'manageWebhooks', async (tx) => {
    const original = await tx.webhookDelivery.findFirst({ where: { id, endpointId, endpoint: { organizationId } } });
    if (!original) throw notFound('Webhook delivery');
    const copy = await tx.webhookDelivery.create({
      data: { id: newId('WebhookDelivery'), endpointId, eventId: original.eventId, kind: original.kind, payload: original.payload, redeliveryOf: original.id },
    });
    // Sent in its turn; an endpoint that is off keeps it until it is turned on again.
    await scheduleDrainNow(tx, endpointId);
    return { ...copy, attemptLog: [] };
  });
}
