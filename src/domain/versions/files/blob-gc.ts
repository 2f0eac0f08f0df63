/**
 * Garbage collection of file bytes nothing names any more (a rolled-back batch, a deleted space),
 * in any store. Bytes are stored BEFORE the transaction that names them commits (store-files.ts),
 * so "unreferenced" alone would delete the bytes of a write in flight. Hence a grace period, on
 * the database's clock: a write records its key in FileBlobTouch (blob-touch.ts) before it looks
 * for or commits the bytes, and bytes are deleted only when unreferenced AND last touched longer
 * ago than the grace period (24 h by default: far past the longest job, QUIRE_JOB_TIME_BUDGET_SECONDS).
 * The deletion holds the touch row locked until the bytes are gone, so a concurrent write of the
 * same bytes either touched first (and the row is too recent to delete) or waits, then finds
 * the bytes gone and stores them again. Bytes without a touch row (stored before it existed) get
 * one when first seen, and so a full grace period too.
 */
import type { Db } from '../../../db/client.js';
import type { BlobBackend } from './blob-backend.js';
import { referencedKeys } from './blob-references.js';

export type GcResult = { scanned: number; deleted: number; stagedSwept: number };

export async function collectGarbage(db: Db, backend: BlobBackend, opts: { graceMs: number; pageSize?: number }): Promise<GcResult> {
  const graceSeconds = opts.graceMs / 1000;
  const result: GcResult = { scanned: 0, deleted: 0, stagedSwept: 0 };
  let after = '';
  for (;;) {
    const keys = await backend.list(after, opts.pageSize ?? 500);
    if (keys.length === 0) break;
    after = keys[keys.length - 1];
    result.scanned += keys.length;
    const referenced = await referencedKeys(db, keys);
    const candidates = keys.filter((k) => !referenced.has(k));
    if (candidates.length === 0) continue;
    await db.$executeRaw`INSERT INTO "FileBlobTouch" ("sha256", "touchedAt") SELECT k, LOCALTIMESTAMP FROM unnest(${candidates}::text[]) AS k ON CONFLICT ("sha256") DO NOTHING`;
    // Read first without locks: most unreferenced bytes are recent ones, and need no transaction.
    const stale = await db.$queryRaw<{ sha256: string }[]>`SELECT "sha256" FROM "FileBlobTouch" WHERE "sha256" = ANY(${candidates}::text[]) AND "touchedAt" < LOCALTIMESTAMP - make_interval(secs => ${graceSeconds})`;
    for (const { sha256 } of stale) if (await deleteIfStale(db, backend, sha256, graceSeconds)) result.deleted++;
  }
  result.stagedSwept = await backend.sweepStaged(opts.graceMs);
  return result;
}

async function deleteIfStale(db: Db, backend: BlobBackend, key: string, graceSeconds: number): Promise<boolean> {
  return db.$transaction(
    async (tx) => {
      // SKIP LOCKED: a write touching this key right now keeps it.
      const stale = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "FileBlobTouch" WHERE "sha256" = ${key} AND "touchedAt" < LOCALTIMESTAMP - make_interval(secs => ${graceSeconds}) FOR UPDATE SKIP LOCKED`;
      if (stale.length === 0) return false;
      if ((await referencedKeys(tx, [key])).size > 0) return false;
      await backend.delete(key);
      await tx.$executeRaw`DELETE FROM "FileBlobTouch" WHERE "sha256" = ${key}`;
      return true;
    },
    { timeout: 60_000 },
  );
}
