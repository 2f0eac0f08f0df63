/**
 * The record that lets the garbage collection (blob-gc.ts) delete bytes safely in any store: a
 * write stores its key's FileBlobTouch row (now) before it looks for or commits the bytes, and the
 * collection deletes bytes only while holding that row locked and finding it older than its
 * grace period. So a write either touched first (the collection sees a recent row and keeps the
 * bytes) or waits for the collection's transaction, then finds the bytes gone and stores them again.
 */
import type { Db } from '../../../db/client.js';

/** Records the keys (one statement, however many: an import storing hundreds of files touches them together). */
export async function touchBlobs(db: Db, keys: readonly string[]): Promise<void> {
  // Once each: ON CONFLICT DO UPDATE may not meet a row twice in one statement.
  const unique = [...new Set(keys)];
  if (unique.length === 0) return;
  // LOCALTIMESTAMP on both sides (here and in the collection): one clock, the database's.
  await db.$executeRaw`INSERT INTO "FileBlobTouch" ("sha256", "touchedAt") SELECT k, LOCALTIMESTAMP FROM unnest(${unique}::text[]) AS k ON CONFLICT ("sha256") DO UPDATE SET "touchedAt" = LOCALTIMESTAMP`;
}
