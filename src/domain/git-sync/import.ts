/**
 * A git import: the branch tip, read as a whole-state snapshot in the platform's layout, merged
 * into the space three ways — base: the revision of the last synced commit; ours: the space now;
 * theirs: the commit. Edits to different pages, or different blocks of one page, are all kept.
 * A real conflict is never settled silently: the space keeps its content and the repository's
 * side is parked in a change request based where the last sync left the space, whose conflicts
 * the usual merge shows (git/info reports it). One transaction writes everything: the bodies,
 * the space's revision, the revision that is the commit's content when the merge kept edits of
 * the space (the next sync's base), the blob map, the sync's state and the job's end.
 *
 * The first import (no base) makes the space the commit's content: pages keep their IDs where
 * the commit has a file where quire would write them; the revision before stays in the history.
 * An import of the commit already synced is a no-op unless `force`; one whose `timestamp` is
 * older than the last applied is dropped.
 */
import type { GitSync, Prisma } from '../../generated/prisma/client.js';
import { decodeText } from '../../lib/import-readers/zip/pages.js';
import type { JSONDocument } from '../../lib/documents/types.js';
import { readGitLayout } from '../../lib/git-layout/index.js';
import { GitError } from '../../lib/git/errors.js';
import { syncError } from './sync-error.js';
import { newId } from '../kernel/ids.js';
import { lockSpaceLine } from '../versions/change-requests/line.js';
import { changeRequestOf, recordChangeRequestEvent, writtenEntities } from '../versions/change-requests/events.js';
import { commitRevision, type EntityWrite } from '../versions/revisions/commit.js';
import { loadDocuments, loadDocumentText, putDocuments } from '../versions/revisions/documents.js';
import { revisionScope } from '../versions/revisions/load.js';
import { sameVersion } from '../versions/revisions/same-version.js';
import type { RevisionScope } from '../versions/revisions/scope.js';
import { reindexPages } from '../versions/search/index-pages.js';
import { slugLayout } from './layout.js';
import { loadMapping, saveMapping, type BlobRecord } from './mapping.js';
import { mergeSides, sideOf, type Side, type SyncMerge } from './merge.js';
import { commitUrlOf, endOperation, endWithoutContent, lockSync, type GitOperation } from './operation.js';
import type { GitDirection } from './input.js';
import { snapshotOf, type Snapshot } from './snapshot.js';
import { readTheirs, type Theirs } from './theirs.js';
import { movedPages, writeSyncRedirects } from './redirects.js';

export type ImportOutcome =
  | { kind: 'up-to-date'; commit: string }
  | { kind: 'older'; commit: string }
  | { kind: 'imported'; commit: string; revisionId: string | null; written: number; warnings: string[] }
  | { kind: 'standalone'; commit: string; revisionId: string; warnings: string[] }
  | { kind: 'conflicts'; commit: string; changeRequestId: string; number: number; conflicts: number; warnings: string[] }
  | { kind: 'still-conflicting'; commit: string; changeRequestId: string; number: number };

/** The change request a conflict was parked in: still open, or merged (its first revision holds the repository's side, the base of the next sync). */
async function parkedRequest(op: GitOperation, id: string) {
  const row = await op.db.changeRequest.findUnique({ where: { id }, select: { id: true, number: true, status: true, revisionId: true } });
  if (!row) return null;
  // The request's first revision is the repository's side as parked (later ones are the resolution).
  const parked = await op.db.revision.findFirst({ where: { lineId: row.id, seq: 1 }, select: { id: true, git: true } });
  const oid = (parked?.git as { oid?: string } | null)?.oid;
  return { id: row.id, number: row.number, revisionId: parked?.id ?? row.revisionId, oid, open: row.status === 'open' || row.status === 'draft', merged: row.status === 'merged' };
}

/** The same commit met again while its conflicts wait in their change request: the operation fails saying so, writing nothing. */
export const endStillConflicting = (op: GitOperation, direction: GitDirection, outcome: { commit: string; changeRequestId: string; number: number }) =>
  endWithoutContent(op, direction, { state: 'failure', error: conflictMessage(undefined, outcome.number), commitId: outcome.commit, changeRequestId: outcome.changeRequestId }, { commit: outcome.commit, changeRequestId: outcome.changeRequestId, skipped: 'still-conflicting' });

/** What git/info says while a conflict waits in its change request. */
export const conflictMessage = (conflicts: number | undefined, number: number) =>
  `The repository and the space both changed the same content${conflicts ? ` (${conflicts} conflict${conflicts > 1 ? 's' : ''})` : ''}: the repository's side is in change request #${number}; resolve it there and merge it, then sync again`;

const short = (oid: string) => oid.slice(0, 7);
const branchOf = (ref: string) => ref.replace(/^refs\/heads\//, '');

async function syncRow(op: GitOperation): Promise<GitSync | null> {
  return op.db.gitSync.findUnique({ where: { spaceId: op.spaceId } });
}

/**
 * `.gitbook.yaml` and SUMMARY.md, the files the layout reads on the event loop: bounded, so a
 * hostile one cannot hold it (10,000 pages make a SUMMARY.md of about 600 KB).
 */
export const MAX_LAYOUT_FILE_BYTES = 4 * 1024 * 1024;

export const layoutText = (op: Pick<GitOperation, 'repo'>) => async (oid: string) => {
  const bytes = await op.repo.readBlob(oid);
  if (bytes.byteLength > MAX_LAYOUT_FILE_BYTES) throw new GitError('GIT_TOO_LARGE', `The repository's SUMMARY.md or .gitbook.yaml is larger than ${MAX_LAYOUT_FILE_BYTES / 1024 / 1024} MiB`);
  return decodeText(bytes);
};

/** The commit's layout, refused (naming the file and line) when the repository is at fault. */
export async function readCommitLayout(op: GitOperation, commit: string) {
  const entries = await op.repo.listTree(commit);
  const layout = await readGitLayout(entries, layoutText(op));
  const errors = layout.problems.filter((p) => p.severity === 'error');
  if (errors.length) {
    const first = errors[0]!;
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
    throw syncError('GIT_INVALID_REPOSITORY', `${first.path}${first.line ? `:${first.line}` : ''}: ${first.message}${more}`);
  }
  return { entries, layout };
}

/** The content the space would hold: `side` made writes against `from` (null: absent). */
function writesBetween(from: Side, to: Map<string, { kind: EntityWrite['kind']; version: EntityWrite['version'] }>): EntityWrite[] {
  const writes: EntityWrite[] = [];
  for (const [entityId, { kind, version }] of to) if (!sameVersion(from.get(entityId)?.version ?? null, version)) writes.push({ kind, entityId, version });
  for (const [entityId, { kind }] of from) if (!to.has(entityId)) writes.push({ kind, entityId, version: null });
  return writes;
}

/** The space revision a sync's revision stands on (itself, or the one a side line overlays). */
async function spaceRevisionOf(tx: Prisma.TransactionClient, revisionId: string): Promise<RevisionScope> {
  const scope = await revisionScope(tx, revisionId);
  if (scope.lineId === scope.spaceId) return scope;
  const [row] = await tx.$queryRaw<{ baseRevisionId: string }[]>`SELECT "baseRevisionId" FROM "Revision" WHERE "id" = ${revisionId}`;
  return revisionScope(tx, row!.baseRevisionId);
}

/** The first import: the commit's content replaces the space's (what it lacks is removed). */
function replacement(head: Snapshot, theirs: Side): SyncMerge {
  const merged: SyncMerge['merged'] = new Map(theirs);
  for (const [id, entry] of head) if (!theirs.has(id)) merged.set(id, { kind: entry.kind, version: null });
  return { merged, conflicts: [] };
}

const theirsSide = (theirs: Theirs): Side => new Map([...theirs.entities].map(([id, e]) => [id, { kind: e.kind, version: e.version }]));

/**
 * Imports `commit` (already fetched). `asPartOfExport`: the export found its branch moved and
 * merges it first — the same rules, and it goes on only when this one imported cleanly.
 */
export async function importCommit(op: GitOperation, commit: string, options: { force: boolean; asPartOfExport?: boolean }): Promise<ImportOutcome> {
  const sync = await syncRow(op);
  const input = op.input;
  if (!options.force && sync?.commitOid === commit) return { kind: 'up-to-date', commit };
  const parked = sync?.conflictChangeRequestId ? await parkedRequest(op, sync.conflictChangeRequestId) : null;
  // The same commit again while its conflicts wait in their change request: nothing new to park.
  if (!options.force && parked?.open && parked.oid === commit) return { kind: 'still-conflicting', commit, changeRequestId: parked.id, number: parked.number };
  if (!options.force && !options.asPartOfExport && input.timestamp && sync?.lastTimestamp && new Date(input.timestamp) < sync.lastTimestamp) return { kind: 'older', commit };

  op.progress(0, null, 'Reading the repository');
  const info = await op.repo.readCommit(commit);
  const { layout } = await readCommitLayout(op, commit);
  const mapping = await loadMapping(op.db, op.spaceId);
  // Conflicts resolved and merged: the repository's side they held is what the space last took from it.
  const baseId = parked?.merged ? parked.revisionId : sync?.revisionId;
  const baseScope = baseId ? await revisionScope(op.db, baseId).catch(() => null) : null;
  const base: Snapshot = baseScope ? await snapshotOf(op.db, baseScope) : new Map();

  for (let attempt = 1; ; attempt++) {
    const headScope = await revisionScope(op.db, (await op.db.space.findUniqueOrThrow({ where: { id: op.spaceId }, select: { revisionId: true } })).revisionId);
    const head = await snapshotOf(op.db, headScope);
    const ours = sideOf(head);
    // The first import keeps the IDs of pages where the commit has a file where quire would write them.
    const current = baseScope ? undefined : { snapshot: head, layout: slugLayout([...head.values()]) };
    let outcome: ImportOutcome;
    try {
      outcome = await op.db.$transaction(
        async (tx) => {
          // The commit's side is read inside the transaction: its bodies are stored as they are
          // converted (theirs.ts storeBodies), so the import never holds them all, and a failure
          // (or the space moving on) stores none.
          const theirs = await readTheirs({
            layout,
            readBlob: (oid) => op.repo.readBlob(oid),
            base,
            mapping,
            ...(current ? { current } : {}),
            loadDocument: async (id) => (await loadDocuments(op.db, [id])).get(id),
            loadDocumentText: (id) => loadDocumentText(op.db, id),
            store: op.store,
            storeBodies: async (bodies) => void (await putDocuments(tx, bodies)),
            signal: op.signal,
            progress: (done, total) => op.progress(done, total, 'Reading changed files'),
          });
          // Every file the import needs was read: the merge and the writes run without the pack.
          op.repo.forgetObjects();
          op.signal.throwIfAborted();
          const gitInfo = { oid: commit, message: info.message, createdByGitBook: false, ...(commitUrlOf(input, commit) ? { url: commitUrlOf(input, commit) } : {}), ref: input.ref };
          const theirsById = theirsSide(theirs);
          if (input.standalone && !options.asPartOfExport) return standalone(tx, op, { headScope, ours, theirsById, gitInfo, commit, warnings: theirs.warnings });

          op.progress(0, null, 'Merging');
          // The transaction sees the bodies it stored: the merge reads theirs as it reads ours.
          const merge = baseScope ? await mergeSides(sideOf(base), ours, theirsById, (ids) => loadDocuments(tx, ids)) : replacement(head, theirsById);
          const locked = await lockSpaceLine(tx, op.spaceId);
          if (locked.id !== headScope.id) throw new SpaceMoved(); // rolled back: merge again
          await lockSync(tx, op.spaceId);
          if (merge.conflicts.length) return parkConflicts(tx, op, { sync, theirs: theirsById, base, commit, gitInfo, conflicts: merge.conflicts.length, warnings: theirs.warnings });

          // The merged content: theirs where only theirs changed, ours where only ours did, both combined.
          const final = new Map(ours);
          for (const [id, entity] of merge.merged) {
            let version = entity.version;
            if (version && entity.document) [version] = [{ ...version, documentId: (await putDocuments(tx, [entity.document]))[0]! }];
            if (version) final.set(id, { kind: entity.kind, version });
            else final.delete(id);
          }
          const writes = writesBetween(ours, final);
          let spaceRevision = headScope;
          if (writes.length) {
            spaceRevision = await commitRevision(tx, { spaceId: op.spaceId, lineId: op.spaceId, head: headScope, type: 'edits', parents: [headScope.id], createdById: op.actorId, writes });
            await tx.space.update({ where: { id: op.spaceId }, data: { revisionId: spaceRevision.id } });
            await reindexPages(tx, op.spaceId, spaceRevision, writes.filter((w) => w.kind === 'page').map((w) => w.entityId));
          }
          // The commit's content as a revision: the space's own when nothing of ours was kept beside it.
          const kept = writesBetween(final as Side, theirsById);
          const syncRevision = kept.length
            ? await commitRevision(tx, { spaceId: op.spaceId, lineId: newId('Revision'), head: null, base: { id: spaceRevision.id, seq: spaceRevision.seq }, type: 'edits', parents: [spaceRevision.id], createdById: op.actorId, writes: kept })
            : spaceRevision;
          if (writes.length) await tx.revision.update({ where: { id: spaceRevision.id }, data: { git: gitInfo } });
          if (syncRevision !== spaceRevision) await tx.revision.update({ where: { id: syncRevision.id }, data: { git: gitInfo } });
          const records = new Map<string, BlobRecord>([...theirs.entities.values()].flatMap((e) => (e.record ? [[e.entityId, e.record] as const] : [])));
          await saveMapping(tx, op.spaceId, mapping, records);
          // Site redirects: `.gitbook.yaml`'s, and the old paths of pages this import moved (redirects.ts).
          const pageIdByFile = new Map([...records.values()].flatMap((r) => (r.kind === 'page' ? [[r.path, r.entityId] as const] : [])));
          const moved = baseScope ? movedPages(ours, final) : [];
          theirs.warnings.push(...(await writeSyncRedirects(tx, op.actorId, op.spaceId, layout.config.redirects, pageIdByFile, moved)));
          await tx.gitSync.update({
            where: { spaceId: op.spaceId },
            data: { commitOid: commit, revisionId: syncRevision.id, conflictChangeRequestId: null, ...(input.timestamp ? { lastTimestamp: new Date(input.timestamp) } : {}) },
          });
          const revisionId = writes.length ? spaceRevision.id : null;
          if (!options.asPartOfExport) {
            await endOperation(tx, op, 'import', { state: 'success', commitId: commit, revisionId });
            await op.complete(tx, { commit, revisionId, written: writes.length, warnings: theirs.warnings });
          }
          return { kind: 'imported' as const, commit, revisionId, written: writes.length, warnings: theirs.warnings };
        },
        // It reads and converts the commit's files too: as long as the operation may run.
        { timeout: op.timeLimitMs },
      );
    } catch (error) {
      if (!(error instanceof SpaceMoved)) throw error;
      if (attempt >= 3) throw syncError('GIT_BUSY', 'The space kept changing while the import merged it: try again');
      continue;
    }
    return outcome;
  }
}

/** The space moved on while the import read and merged: its transaction is rolled back and it merges again. */
class SpaceMoved extends Error {}

type Standalone = { headScope: RevisionScope; ours: Side; theirsById: Side; gitInfo: Prisma.InputJsonObject; commit: string; warnings: string[] };

/** A revision of its own line, laid over the space's head: it never becomes the space's content. */
async function standalone(tx: Prisma.TransactionClient, op: GitOperation, s: Standalone): Promise<ImportOutcome> {
  const revision = await commitRevision(tx, { spaceId: op.spaceId, lineId: newId('Revision'), head: null, base: { id: s.headScope.id, seq: s.headScope.seq }, type: 'edits', parents: [s.headScope.id], createdById: op.actorId, writes: writesBetween(s.ours, s.theirsById) });
  await tx.revision.update({ where: { id: revision.id }, data: { git: s.gitInfo } });
  await endOperation(tx, op, 'import', { state: 'success', commitId: s.commit, revisionId: revision.id });
  await op.complete(tx, { commit: s.commit, revisionId: revision.id, standalone: true, warnings: s.warnings });
  return { kind: 'standalone', commit: s.commit, revisionId: revision.id, warnings: s.warnings };
}

type Parking = { sync: GitSync | null; theirs: Side; base: Snapshot; commit: string; gitInfo: Prisma.InputJsonObject; conflicts: number; warnings: string[] };

/**
 * The repository's side of a conflict, as a change request laid over the space revision where
 * the last sync left the space: it holds what the commit changed there, and the merge of the
 * request shows the conflicts with what the space changed since. The sync stays at its last
 * commit, so the next import meets the same commit again (and merges once the request resolved it).
 */
async function parkConflicts(tx: Prisma.TransactionClient, op: GitOperation, parking: Parking): Promise<ImportOutcome> {
  const on = await spaceRevisionOf(tx, parking.sync!.revisionId!);
  const there = on.id === parking.sync!.revisionId ? parking.base : await snapshotOf(tx, on);
  const id = newId('ChangeRequest');
  const [{ number }] = await tx.$queryRaw<{ number: number }[]>`UPDATE "Space" SET "lastChangeRequestNumber" = "lastChangeRequestNumber" + 1 WHERE "id" = ${op.spaceId} RETURNING "lastChangeRequestNumber" AS number`;
  const writes = writesBetween(sideOf(there), parking.theirs);
  const revision = await commitRevision(tx, { spaceId: op.spaceId, lineId: id, head: null, base: { id: on.id, seq: on.seq }, type: 'edits', parents: [on.id], createdById: op.actorId, writes });
  await tx.revision.update({ where: { id: revision.id }, data: { git: parking.gitInfo } });
  const subject = `Git: ${branchOf(op.input.ref)} at ${short(parking.commit)} conflicts with the space`.slice(0, 100);
  await tx.changeRequest.create({
    data: { id, spaceId: op.spaceId, number, status: 'open', subject, createdById: op.actorId ?? (await anyAdmin(tx, op)), revisionId: revision.id, revisionInitialId: on.id },
  });
  const of = changeRequestOf({ id: op.spaceId, organizationId: op.organizationId }, id, op.actorId);
  await recordChangeRequestEvent(tx, 'changeRequestCreated', of, { number });
  await recordChangeRequestEvent(tx, 'changeRequestContentUpdated', of, { revisionId: revision.id, ...writtenEntities(writes) });
  const error = conflictMessage(parking.conflicts, number);
  await tx.gitSync.update({ where: { spaceId: op.spaceId }, data: { conflictChangeRequestId: id } });
  await endOperation(tx, op, op.input.direction, { state: 'failure', error, commitId: parking.commit, changeRequestId: id });
  await op.complete(tx, { commit: parking.commit, conflicts: parking.conflicts, changeRequestId: id, number, warnings: parking.warnings });
  return { kind: 'conflicts', commit: parking.commit, changeRequestId: id, number, conflicts: parking.conflicts, warnings: parking.warnings };
}

/** A change request needs a creator: the job's, else (a server-started sync) the organization's first admin. */
async function anyAdmin(tx: Prisma.TransactionClient, op: GitOperation): Promise<string> {
  const [row] = await tx.$queryRaw<{ userId: string }[]>`SELECT "userId" FROM "Member" WHERE "organizationId" = ${op.organizationId} AND "role" = 'admin' AND NOT "disabled" ORDER BY "joinedAt" LIMIT 1`;
  if (!row) throw syncError('GIT_CONFLICT', 'The repository conflicts with the space, and nobody can own the change request that would hold it');
  return row.userId;
}

