/**
 * The record that lets the garbage collection (blob-gc.ts) delete bytes safely in any store: a
 * write stores its key's FileBlobTouch row (now) before it looks for or commits the bytes, and the
 * collection deletes bytes only while holding that row locked and finding it older than its
 * grace period. So a write either touched first (the collection sees a recent row and keeps the
 * bytes) or waits for the collection's transaction, then finds the bytes gone and stores them again.
 */
import type { Db } from '../../../db/client.js';

export async function touchBlob(db: Db, key: string): Promise<void> {
  // LOCALTIMESTAMP on both sides (here and in the collection): one clock, the database's.
  await db.$executeRaw`INSERT INTO "FileBlobTouch" ("sha256", "touchedAt") VALUES (${key}, LOCALTIMESTAMP) ON CONFLICT ("sha256") DO UPDATE SET "touchedAt" = LOCALTIMESTAMP`;
}
