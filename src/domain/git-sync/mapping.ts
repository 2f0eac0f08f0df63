/**
 * Where each entity sits in the last synced commit (GitSyncBlob): read whole at the start of an
 * operation, written back by difference at its end — rows only for what the operation changed.
 */
import { Prisma } from '../../generated/prisma/client.js';
import type { Queryable } from '../kernel/pagination/keyset.js';
import type { EntityKind } from '../versions/revisions/entries.js';

export type BlobRecord = { kind: EntityKind; entityId: string; path: string; oid: string; fingerprint: string; parentId: string | null };

export type Mapping = {
  byEntity: Map<string, BlobRecord>;
  byPath: Map<string, BlobRecord>;
};

export async function loadMapping(db: Queryable, spaceId: string): Promise<Mapping> {
  const rows = await db.$queryRaw<BlobRecord[]>(Prisma.sql`SELECT "kind", "entityId", "path", "oid", "fingerprint", "parentId" FROM "GitSyncBlob" WHERE "spaceId" = ${spaceId}`);
  return { byEntity: new Map(rows.map((r) => [r.entityId, r])), byPath: new Map(rows.map((r) => [r.path, r])) };
}

/** The blob maps of several spaces in one statement (by space, by entity). */
export async function loadMappings(db: Queryable, spaceIds: readonly string[]): Promise<Map<string, BlobRecord>[]> {
  const rows = await db.$queryRaw<(BlobRecord & { spaceId: string })[]>(
    Prisma.sql`SELECT "spaceId", "kind", "entityId", "path", "oid", "fingerprint", "parentId" FROM "GitSyncBlob" WHERE "spaceId" = ANY(${[...spaceIds]}::text[])`,
  );
  const bySpace = new Map<string, Map<string, BlobRecord>>(spaceIds.map((id) => [id, new Map()]));
  for (const { spaceId, ...record } of rows) bySpace.get(spaceId)?.set(record.entityId, record);
  return spaceIds.map((id) => bySpace.get(id)!);
}

const same = (a: BlobRecord, b: BlobRecord) => a.kind === b.kind && a.path === b.path && a.oid === b.oid && a.fingerprint === b.fingerprint && a.parentId === b.parentId;

/** Makes the stored mapping `next` (every entity of the synced commit), writing only differences. */
export async function saveMapping(tx: Prisma.TransactionClient, spaceId: string, previous: Mapping, next: Map<string, BlobRecord>): Promise<number> {
  const removed = [...previous.byEntity.keys()].filter((id) => !next.has(id));
  const changed = [...next.values()].filter((record) => {
    const before = previous.byEntity.get(record.entityId);
    return !before || !same(before, record);
  });
  if (removed.length) await tx.gitSyncBlob.deleteMany({ where: { spaceId, entityId: { in: removed } } });
  for (let i = 0; i < changed.length; i += 1000) {
    const batch = changed.slice(i, i + 1000);
    await tx.gitSyncBlob.deleteMany({ where: { spaceId, entityId: { in: batch.map((r) => r.entityId) } } });
    await tx.gitSyncBlob.createMany({ data: batch.map((r) => ({ spaceId, ...r })) });
  }
  return removed.length + changed.length;
}
