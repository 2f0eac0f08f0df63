/**
 * Reading the audit log (organization admins: `readAuditLog`): newest first, filtered by action,
 * actor, target and time, paged in SQL by keyset on (occurredAt, id) — each filter has its index
 * in that order (prisma/schema.prisma `AuditEvent`), so a page reads `limit + 1` index entries
 * whatever the size of the log.
 */
import { createHash } from 'node:crypto';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';
import type { Access } from '../access/access.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { counted, type CountedPage } from '../kernel/pagination/counted.js';
import { byTimeThenId, readPage, type PageArgs } from '../kernel/pagination/keyset.js';
import { AUDIT_ACTION_NAMES, AUDIT_ACTIONS, isAuditAction, type AuditAction } from './actions.js';

const { sql } = Prisma;

export type AuditEventRow = {
  id: string;
  organizationId: string;
  eventId: string;
  occurredAt: Date;
  action: string;
  actorType: string;
  actorId: string;
  actorLabel: string | null;
  targetType: string;
  targetId: string;
  targetLabel: string | null;
  source: string;
  clientAddress: string | null;
  userAgent: string | null;
  payload: Record<string, unknown>;
};

export type AuditFilters = { action?: string | null; actor?: string | null; target?: string | null; from?: Date | null; to?: Date | null };

const SELECT = sql`SELECT a.* FROM "AuditEvent" a`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The filters' conditions; an unknown action is a 400 naming `action`. */
function conditionsOf(organizationId: string, f: AuditFilters): Prisma.Sql[] {
  if (f.action != null && !isAuditAction(f.action)) throw badRequest(`Invalid value for "action": no audit action is named "${f.action.slice(0, 100)}"`, 'action');
  return [
    sql`a."organizationId" = ${organizationId}`,
    ...(f.action != null ? [sql`a."action" = ${f.action}`] : []),
    ...(f.actor != null ? [sql`a."actorId" = ${f.actor}`] : []),
    ...(f.target != null ? [sql`a."targetId" = ${f.target}`] : []),
    ...(f.from ? [sql`a."occurredAt" >= ${f.from}::timestamp(3)`] : []),
    ...(f.to ? [sql`a."occurredAt" <= ${f.to}::timestamp(3)`] : []),
  ];
}

/** A cursor belongs to its organization's log under the same filters (a short digest of them). */
const filterTag = (f: AuditFilters) =>
  createHash('sha256')
    .update(JSON.stringify([f.action ?? null, f.actor ?? null, f.target ?? null, f.from?.toISOString() ?? null, f.to?.toISOString() ?? null]))
    .digest('base64url')
    .slice(0, 12);

export async function auditEventsPage(db: Db, access: Access, organizationId: string, args: PageArgs & AuditFilters): Promise<CountedPage<AuditEventRow>> {
  await access.requireOrganization(organizationId, 'readAuditLog');
  const conditions = conditionsOf(organizationId, args);
  const key = byTimeThenId<AuditEventRow>(`audit:${organizationId}:${filterTag(args)}`, 'a."occurredAt"', 'a."id"', (a) => [a.occurredAt, a.id], { descending: true });
  const page = await readPage<AuditEventRow>(db, SELECT, conditions, key, args);
  return counted(page, async () => {
    const [{ count }] = await db.$queryRaw<{ count: bigint }[]>`SELECT count(*) AS "count" FROM "AuditEvent" a WHERE ${Prisma.join(conditions, ' AND ')}`;
    return Number(count);
  });
}

export async function findAuditEvent(db: Db, access: Access, organizationId: string, id: string): Promise<AuditEventRow> {
  await access.requireOrganization(organizationId, 'readAuditLog');
  const [row] = UUID.test(id) ? await db.$queryRaw<AuditEventRow[]>`${SELECT} WHERE a."id" = ${id.toLowerCase()} AND a."organizationId" = ${organizationId}` : [];
  if (!row) throw notFound('Audit event');
  return row;
}

export type AuditActionEntry = { id: AuditAction; label: string };

/** The actions the log records, with their labels. */
export async function auditActions(access: Access, organizationId: string): Promise<AuditActionEntry[]> {
  await access.requireOrganization(organizationId, 'readAuditLog');
  return AUDIT_ACTION_NAMES.map((id) => ({ id, label: AUDIT_ACTIONS[id] }));
}
