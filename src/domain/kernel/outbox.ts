/**
 * The outbox: a write records its events in its own transaction, so an event exists exactly when
 * the write committed (a rolled-back write announces nothing). Dispatch happens after commit, by
 * a dispatcher (src/events/outbox-dispatcher.ts), to every consumer, at least once: each event
 * keeps its row's ID end to end, so a consumer drops one it has already seen.
 * Events carry IDs, never content; `spaceId`/`siteId` say whose readers may see one.
 *
 * The notification names who should dispatch: the dispatcher of the app (or process) that made
 * the write, when it runs one (`outboxOrigin`), so that its own subscribers hear of its writes
 * at once even without Redis; anyone when it runs none (the CLI, a worker without Redis). It
 * also names the rows, so a dispatcher takes exactly those; rows whose notification was lost are
 * taken by any dispatcher's poll a few seconds later.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { OrganizationEventKind } from './event-kinds.js';
import { newId } from './ids.js';
import { requestOrigin } from './request-origin.js';

/** The channel a recording transaction notifies: delivered by PostgreSQL only when it commits. */
export const OUTBOX_CHANNEL = 'quire_outbox';

export type EventRecord = {
  kind: OrganizationEventKind;
  organizationId: string;
  subjectId: string;
  /** The space (or site) it belongs to: only those who can read that space (site) are told. */
  spaceId?: string | null;
  siteId?: string | null;
  /** Who made the write; null when the server did (a job without creator, the purge, the CLI). */
  actorId: string | null;
  /** Small facts beside the IDs: `{ pageIds }`, `{ status }`, `{ toOrganizationId }`. */
  data?: Prisma.InputJsonObject;
};

/** Where a database client names the dispatcher of its writes (a transaction client reads through to it). */
const DISPATCHER = Symbol.for('quire.outboxDispatcher');
type Marked = { [DISPATCHER]?: string };
/** This process's running dispatchers: the first one is named by writes of an unmarked client. */
const processDispatchers: string[] = [];

/**
 * Which dispatcher a write's notification names: the one started over the writing database
 * client (an app's), else the first one running in the process, else none (anyone dispatches).
 */
export const outboxOrigin = {
  /** A dispatcher `tag` started over `db` (any object whose transactions read through to it); returns its withdrawal. */
  register(tag: string, db: object): () => void {
    processDispatchers.push(tag);
    (db as Marked)[DISPATCHER] = tag;
    return () => {
      const at = processDispatchers.indexOf(tag);
      if (at >= 0) processDispatchers.splice(at, 1);
      if ((db as Marked)[DISPATCHER] === tag) delete (db as Marked)[DISPATCHER];
    };
  },
  of: (tx: object): string => (tx as Marked)[DISPATCHER] ?? processDispatchers[0] ?? '',
};

/** Notifications name at most this many rows (a payload stays far below PostgreSQL's 8000 bytes). */
const NAMED_ROWS = 100;

/** `<tag> <id>,<id>…`: who dispatches (empty: anyone) and which rows (none named: the oldest waiting). */
export function notification(tag: string, ids: readonly string[]): string {
  return `${tag} ${ids.length <= NAMED_ROWS ? ids.join(',') : ''}`;
}

export function parseNotification(payload: string): { tag: string; ids: string[] } {
  const [tag = '', ids = ''] = payload.split(' ', 2);
  return { tag, ids: ids ? ids.split(',') : [] };
}

/**
 * Records events in `tx` (the write's own transaction), with where the write came from (the
 * origin `tx` was opened with, kernel/request-origin.ts `transactionFrom`). Returns their stable IDs.
 */
export async function recordEvents(tx: Prisma.TransactionClient, events: EventRecord | EventRecord[]): Promise<string[]> {
  const list = Array.isArray(events) ? events : [events];
  if (list.length === 0) return [];
  const origin = requestOrigin.ofTransaction(tx);
  const rows = list.map((e) => ({
    id: newId('OutboxEvent'),
    kind: e.kind,
    organizationId: e.organizationId,
    subjectId: e.subjectId,
    spaceId: e.spaceId ?? null,
    siteId: e.siteId ?? null,
    actorId: e.actorId,
    data: e.data,
    clientAddress: origin?.clientAddress ?? null,
    userAgent: origin?.userAgent ?? null,
    source: origin?.source ?? null,
  }));
  await tx.outboxEvent.createMany({ data: rows });
  const ids = rows.map((r) => r.id);
  await tx.$executeRaw`SELECT pg_notify(${OUTBOX_CHANNEL}, ${notification(outboxOrigin.of(tx), ids)})`;
  return ids;
}
