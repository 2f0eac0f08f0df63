/**
 * Garbage collection of stored documents (page and reusable-content bodies) no content entry names
 * any more: a deleted space's, an edit's superseded body that no revision kept, a change request's
 * discarded drafts. Documents are shared by content (documents.ts), so one is deleted only when no
 * entry of any space names it.
 *
 * A write that stores a body that already exists takes a lock on its row in the statement that
 * stores it (`putDocuments`), and keeps it until it commits the entries naming it; the collection
 * skips locked rows (SKIP LOCKED). A write that finds the row deleted under it stores it again.
 * The grace period (QUIRE_FILE_GC_GRACE_HOURS) keeps documents younger than it whatever names
 * them. In the one remaining race — a write commits its entries between the collection's reading of
 * a page and its lock — the foreign key refuses the deletion: that page is left to the next run.
 */
import type { Db } from '../../../db/client.js';
import { hasSqlState } from '../../../db/unavailable.js';

export type DocumentGcResult = { scanned: number; deleted: number };

const PAGE_SIZE = 1_000;
const FOREIGN_KEY_VIOLATION = '23503';

export async function collectDocuments(db: Db, opts: { graceMs: number; pageSize?: number }): Promise<DocumentGcResult> {
  const graceSeconds = opts.graceMs / 1000;
  const result: DocumentGcResult = { scanned: 0, deleted: 0 };
  let after = '';
  for (;;) {
    // Keyset pages of IDs read from the primary key's index: each run reads the table once.
    const page = await db.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Document" WHERE "id" > ${after} ORDER BY "id" LIMIT ${opts.pageSize ?? PAGE_SIZE}`;
    if (page.length === 0) break;
    after = page[page.length - 1].id;
    result.scanned += page.length;
    result.deleted += await deleteUnnamed(db, page.map((row) => row.id), graceSeconds);
  }
  return result;
}

async function deleteUnnamed(db: Db, ids: string[], graceSeconds: number): Promise<number> {
  try {
    return await db.$executeRaw`DELETE FROM "Document" WHERE "id" IN (
        SELECT d."id" FROM "Document" d
        WHERE d."id" = ANY(${ids}::text[]) AND d."createdAt" < LOCALTIMESTAMP - make_interval(secs => ${graceSeconds})
          AND NOT EXISTS (SELECT 1 FROM "ContentEntry" e WHERE e."documentId" = d."id")
        FOR UPDATE SKIP LOCKED)`;
  } catch (error) {
    if (hasSqlState(error, FOREIGN_KEY_VIOLATION)) return 0;
    throw error;
  }
}
