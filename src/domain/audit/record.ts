/**
 * Turning dispatched outbox events into audit rows: one statement per claimed batch, run by the
 * audit consumer (events/audit-consumer.ts) inside the claim's transaction. An audit row therefore
 * exists exactly when its event is marked dispatched — and the event exists exactly when its write
 * committed (kernel/outbox.ts): a committed write is never missing from the log, a rolled-back one
 * never in it. A batch dispatched twice (a claim that failed after this ran) makes no second row
 * (`eventId` is unique).
 *
 * Labels (the actor's name, the target's title) are captured here, so the log still reads after
 * the user is renamed or the team deleted.
 */
import { Prisma } from '../../generated/prisma/client.js';
import { kindOfId } from '../kernel/ids.js';
import type { RawSql } from '../kernel/sql.js';
import { auditActionOf } from './actions.js';

/** An outbox event as the dispatcher claimed it, with the origin its write recorded. */
export type AuditedEvent = {
  id: string;
  kind: string;
  organizationId: string;
  subjectId: string;
  actorId: string | null;
  data?: unknown;
  createdAt: Date;
  clientAddress?: string | null;
  userAgent?: string | null;
  source?: string | null;
};

/** `ApiToken` → `api-token`: a target's type, from its ID's kind (`resource` when unknown). */
export const targetTypeOf = (id: string): string => (kindOfId(id) ?? 'Resource').replace(/[a-z0-9](?=[A-Z])/g, '$&-').toLowerCase();

/** Each target type's label, read when the row is recorded (null when the target is gone). */
const TARGET_LABEL = Prisma.sql`CASE e."targetType"
  WHEN 'user' THEN (SELECT "displayName" FROM "User" WHERE "id" = e."targetId")
  WHEN 'organization' THEN (SELECT "title" FROM "Organization" WHERE "id" = e."targetId")
  WHEN 'team' THEN (SELECT "title" FROM "Team" WHERE "id" = e."targetId")
  WHEN 'space' THEN (SELECT "title" FROM "Space" WHERE "id" = e."targetId")
  WHEN 'collection' THEN (SELECT "title" FROM "Collection" WHERE "id" = e."targetId")
  WHEN 'site' THEN (SELECT "title" FROM "Site" WHERE "id" = e."targetId")
  WHEN 'site-share-link' THEN (SELECT "name" FROM "SiteShareLink" WHERE "id" = e."targetId")
  WHEN 'saml-provider' THEN (SELECT "label" FROM "SamlProvider" WHERE "id" = e."targetId")
  WHEN 'webhook-endpoint' THEN (SELECT "url" FROM "WebhookEndpoint" WHERE "id" = e."targetId")
  WHEN 'api-token' THEN (SELECT NULLIF("name", '') FROM "ApiToken" WHERE "id" = e."targetId")
END`;

/** Records the audit rows of the audited events among `events` (oldest first); answers how many were new. */
export async function recordAuditEvents(tx: RawSql, events: readonly AuditedEvent[]): Promise<number> {
  const audited = events.flatMap((e) => {
    const data = e.data && typeof e.data === 'object' && !Array.isArray(e.data) ? (e.data as Record<string, unknown>) : null;
    const action = auditActionOf(e.kind, data);
    return action ? [{ e, action, payload: JSON.stringify({ kind: e.kind, ...data }) }] : [];
  });
  if (!audited.length) return 0;
  const column = <T>(of: (a: (typeof audited)[number]) => T) => audited.map(of);
  return tx.$executeRaw`
    INSERT INTO "AuditEvent" ("id", "organizationId", "eventId", "occurredAt", "action", "actorType", "actorId", "actorLabel",
      "targetType", "targetId", "targetLabel", "source", "clientAddress", "userAgent", "payload")
    SELECT gen_random_uuid()::text, e."organizationId", e."eventId", e."occurredAt", e."action",
      CASE WHEN e."actorId" IS NULL THEN 'system' ELSE 'user' END, COALESCE(e."actorId", 'system'), u."displayName",
      e."targetType", e."targetId", ${TARGET_LABEL}, e."source", e."clientAddress", e."userAgent", e."payload"::jsonb
    FROM unnest(${column((a) => a.e.id)}::text[], ${column((a) => a.e.organizationId)}::text[], ${column((a) => a.e.createdAt)}::timestamp(3)[],
      ${column((a) => a.action)}::text[], ${column((a) => a.e.actorId)}::text[], ${column((a) => targetTypeOf(a.e.subjectId))}::text[],
      ${column((a) => a.e.subjectId)}::text[], ${column((a) => a.e.source ?? 'workflow')}::text[], ${column((a) => a.e.clientAddress ?? null)}::text[],
      ${column((a) => a.e.userAgent ?? null)}::text[], ${column((a) => a.payload)}::text[])
      WITH ORDINALITY AS e("eventId", "organizationId", "occurredAt", "action", "actorId", "targetType", "targetId", "source", "clientAddress", "userAgent", "payload", "ord")
    LEFT JOIN "User" u ON u."id" = e."actorId"
    ORDER BY e."ord"
    ON CONFLICT ("eventId") DO NOTHING`;
}

/** Deletes audit rows older than `retentionMs`, a batch at a time; answers how many. */
export async function deleteExpiredAuditEvents(db: RawSql, retentionMs: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionMs);
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM "AuditEvent" WHERE "id" IN (SELECT "id" FROM "AuditEvent" WHERE "occurredAt" < ${cutoff} LIMIT 5000)`;
    total += deleted;
    if (deleted < 5000) return total;
  }
}
