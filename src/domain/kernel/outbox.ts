/**
 * The outbox: a write records its events in its own transaction, so an event exists exactly when
 * the write committed (a rolled-back write announces nothing). Dispatch happens after commit, by
 * whichever instance claims the row first (src/events/outbox-dispatcher.ts), to every consumer.
 * Events carry IDs, never content; `spaceId`/`siteId` say whose readers may see one.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { OrganizationEventKind } from './event-kinds.js';
import { newId } from './ids.js';

/** The channel a recording transaction notifies: delivered by PostgreSQL only when it commits. */
export const OUTBOX_CHANNEL = 'quire_outbox';

export type EventRecord = {
  kind: OrganizationEventKind;
  organizationId: string;
  subjectId: string;
  /** The space (or site) it belongs to: only those who can read that space (site) are told. */
  spaceId?: string | null;
  siteId?: string | null;
  /** Who made the write; null when the server did (a job without creator, the purge). */
  actorId: string | null;
  /** Small facts beside the IDs: `{ pageIds }`, `{ status }`, `{ toOrganizationId }`. */
  data?: Prisma.InputJsonObject;
};

/** Records events in `tx` (the write's own transaction). Returns their stable IDs. */
export async function recordEvents(tx: Prisma.TransactionClient, events: EventRecord | EventRecord[]): Promise<string[]> {
  const list = Array.isArray(events) ? events : [events];
  if (list.length === 0) return [];
  const rows = list.map((e) => ({
    id: newId('OutboxEvent'),
    kind: e.kind,
    organizationId: e.organizationId,
    subjectId: e.subjectId,
    spaceId: e.spaceId ?? null,
    siteId: e.siteId ?? null,
    actorId: e.actorId,
    data: e.data,
  }));
  await tx.outboxEvent.createMany({ data: rows });
  await tx.$executeRaw`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`;
  return rows.map((r) => r.id);
}
