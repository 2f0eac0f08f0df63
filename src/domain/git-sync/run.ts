/** One git operation, by direction: an import of the branch tip, or an export onto it. */
import { exportSpace } from './export.js';
import { conflictMessage, importCommit } from './import.js';
import { endOperation, type GitOperation } from './operation.js';
import { syncError } from './sync-error.js';

export async function runGitOperation(op: GitOperation): Promise<void> {
  if (op.input.direction === 'export') {
    await exportSpace(op);
    return;
  }
  op.progress(0, null, 'Fetching the branch');
  const tip = await op.repo.fetchBranch(op.input.ref);
  if (!tip) throw syncError('GIT_REF_NOT_FOUND', `The branch ${op.input.ref.replace(/^refs\/heads\//, '')} does not exist in the repository`);
  const outcome = await importCommit(op, tip, { force: op.input.force });
  if (outcome.kind === 'still-conflicting') {
    await op.db.$transaction(async (tx) => {
      await endOperation(tx, op, 'import', { state: 'failure', error: conflictMessage(undefined, outcome.number), commitId: tip, changeRequestId: outcome.changeRequestId });
      await op.complete(tx, { commit: tip, changeRequestId: outcome.changeRequestId, skipped: outcome.kind });
    });
  } else if (outcome.kind === 'up-to-date' || outcome.kind === 'older') {
    // Nothing to write: the commit is already the space's, or an operation asked later has run.
    await op.db.$transaction(async (tx) => {
      await endOperation(tx, op, 'import', { state: 'success', commitId: tip });
      await op.complete(tx, { commit: tip, skipped: outcome.kind });
    });
  }
}
