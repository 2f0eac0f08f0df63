/**
 * The outbox keeps dispatched events for a while (QUIRE_OUTBOX_RETENTION_DAYS, 7 by default) —
 * the audit log will read them — and then deletes them, a batch at a time so that no sweep holds
 * many locks or a long transaction. Undispatched rows are never deleted.
 */
import type { RawSql } from '../domain/kernel/sql.js';

const BATCH = 5000;

/** Deletes rows dispatched more than `retentionMs` ago; answers how many. */
export async function deleteDispatchedEvents(db: RawSql, retentionMs: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionMs);
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM "OutboxEvent" WHERE "id" IN (
        SELECT "id" FROM "OutboxEvent" WHERE "dispatchedAt" < ${cutoff} LIMIT ${BATCH})`;
    total += deleted;
    if (deleted < BATCH) return total;
  }
}
