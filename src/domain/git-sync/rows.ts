/**
 * The rows of git sync, batched per request (domain/loaders/git-sync.ts): a space's sync and the
 * git metadata of its content (`Page.git`, `RevisionFile.git`, `ReusableContent.git`: where the
 * entity sits in the last synced commit — mutable metadata, the same for every revision).
 */
import type { GitSync, Job } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';

/** The sync with the job of its latest operation (a job that died running ends the operation). */
export type GitSyncView = GitSync & { job: Pick<Job, 'state' | 'errorCode' | 'errorMessage' | 'finishedAt'> | null };

export async function gitSyncsBySpace(db: Db, spaceIds: readonly string[]): Promise<(GitSyncView | null)[]> {
  const rows = await db.gitSync.findMany({ where: { spaceId: { in: [...spaceIds] } } });
  const jobIds = rows.flatMap((r) => (r.operationJobId ? [r.operationJobId] : []));
  const jobs = jobIds.length ? await db.job.findMany({ where: { id: { in: jobIds } }, select: { id: true, state: true, errorCode: true, errorMessage: true, finishedAt: true } }) : [];
  const jobById = new Map(jobs.map((j) => [j.id, j]));
  const bySpace = new Map(rows.map((r) => [r.spaceId, { ...r, job: (r.operationJobId && jobById.get(r.operationJobId)) || null }]));
  return spaceIds.map((id) => bySpace.get(id) ?? null);
}

export type GitBlob = { oid: string; path: string };

/** Keys: `<spaceId>:<entityId>`. */
export async function gitBlobsByEntity(db: Db, keys: readonly string[]): Promise<(GitBlob | null)[]> {
  const pairs = keys.map((key) => key.split(':') as [string, string]);
  const rows = await db.$queryRaw<{ spaceId: string; entityId: string; oid: string; path: string }[]>`
    SELECT b."spaceId", b."entityId", b."oid", b."path" FROM "GitSyncBlob" b
    JOIN unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[]) AS k("spaceId", "entityId") ON k."spaceId" = b."spaceId" AND k."entityId" = b."entityId"`;
  const found = new Map(rows.map((r) => [`${r.spaceId}:${r.entityId}`, { oid: r.oid, path: r.path }]));
  return keys.map((key) => found.get(key) ?? null);
}

