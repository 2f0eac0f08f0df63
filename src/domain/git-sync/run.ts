/** One git operation, by direction: an import of the branch tip, or an export onto it. */
import { exportSpace } from './export.js';
import { endStillConflicting, importCommit } from './import.js';
import { endWithoutContent, type GitOperation } from './operation.js';
import { syncError } from './sync-error.js';

/**
 * Whether the operation has nothing to do, known from the branch tip alone (no clone): an import
 * of the commit already synced, an export of the revision already exported to the tip.
 */
async function alreadySynced(op: GitOperation): Promise<string | null> {
  if (op.input.force) return null;
  const sync = await op.db.gitSync.findUnique({ where: { spaceId: op.spaceId }, select: { commitOid: true, revisionId: true } });
  if (!sync?.commitOid) return null;
  op.progress(0, null, 'Reading the branch tip');
  const tip = await op.repo.remoteTip(op.input.ref);
  if (tip !== sync.commitOid) return null;
  if (op.input.direction === 'import') return tip;
  const space = await op.db.space.findUnique({ where: { id: op.spaceId }, select: { revisionId: true } });
  return space?.revisionId === sync.revisionId ? tip : null;
}

export async function runGitOperation(op: GitOperation): Promise<void> {
  const synced = await alreadySynced(op);
  if (synced) {
    await endWithoutContent(op, op.input.direction, { state: 'success', commitId: synced }, { commit: synced, skipped: 'up-to-date' });
    return;
  }
  if (op.input.direction === 'export') {
    await exportSpace(op);
    return;
  }
  op.progress(0, null, 'Fetching the branch');
  const tip = await op.repo.fetchBranch(op.input.ref);
  if (!tip) throw syncError('GIT_REF_NOT_FOUND', `The branch ${op.input.ref.replace(/^refs\/heads\//, '')} does not exist in the repository`);
  const outcome = await importCommit(op, tip, { force: op.input.force });
  if (outcome.kind === 'still-conflicting') {
    await endStillConflicting(op, 'import', outcome);
  } else if (outcome.kind === 'up-to-date' || outcome.kind === 'older') {
    // Nothing to write: the commit is already the space's, or an operation asked later has run.
    await endWithoutContent(op, 'import', { state: 'success', commitId: tip }, { commit: tip, skipped: outcome.kind });
  }
}
