/**
 * The git jobs (`git_import`, `git_export`): the credentials unsealed from the job row, a bare
 * clone in a temporary folder of the data directory (removed at the end, whatever happens), and
 * the domain's import or export (domain/git-sync). A failure ends the sync's operation too —
 * `timeout` when time ran out, `failure` with the reason otherwise — and the next operation
 * starts clean: nothing of a failed one is kept but its message.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { forbidden } from '../../lib/errors.js';
import { AppError } from '../../lib/errors.js';
import { ImportError } from '../../lib/import-readers/import-error.js';
import { GitRepository } from '../../lib/git/repository.js';
import { DEFAULT_GIT_LIMITS } from '../../lib/git/limits.js';
import { redactCredentials } from '../../lib/git/remote.js';
import { signingSecret } from '../../domain/kernel/signing-secret.js';
import { blobStore } from '../../domain/versions/files/blob-store.js';
import { openCredentials } from '../../domain/git-sync/credentials.js';
import { runGitOperation } from '../../domain/git-sync/run.js';
import { recordFailure, type GitOperation } from '../../domain/git-sync/operation.js';
import type { GitJobInput } from '../../domain/git-sync/start.js';
import type { JobHandler } from '../handler.js';

/**
 * Clones a crashed process left behind: older than any run may last (so never a live one of
 * another worker sharing the data directory).
 */
async function sweepStaleClones(tempRoot: string, olderThanMs: number): Promise<void> {
  const names = await readdir(tempRoot).catch(() => [] as string[]);
  for (const name of names) {
    const folder = path.join(tempRoot, name);
    const info = await stat(folder).catch(() => null);
    if (info && Date.now() - info.mtimeMs > olderThanMs) await rm(folder, { recursive: true, force: true }).catch(() => undefined);
  }
}

export const runGitSync: JobHandler = async (context) => {
  const { job, services, access } = context;
  if (!access || !job.spaceId) throw forbidden();
  const input = job.input as unknown as GitJobInput;
  const ends = { jobId: job.id, spaceId: job.spaceId, organizationId: job.organizationId, actorId: job.createdById };
  let repo: GitRepository | undefined;
  const tempRoot = path.join(services.config.dataDir, 'tmp', 'git');
  try {
    // A run after a failed one is the operation running again.
    await services.db.$executeRaw`UPDATE "GitSync" SET "operationState" = 'running', "operationEndedAt" = NULL, "operationError" = NULL, "operationErrorCode" = NULL WHERE "spaceId" = ${job.spaceId} AND "operationJobId" = ${job.id}`;
    await sweepStaleClones(tempRoot, 2 * services.config.jobTimeBudgetMs);
    // The creator's right, as of now: a member who lost it syncs nothing.
    await access.requireSpace(job.spaceId, 'gitSync');
    const auth = openCredentials(job.secret, await signingSecret(services.db, services.config.secret));
    const limits = { ...DEFAULT_GIT_LIMITS, ...services.config.gitLimits, totalTimeMs: Math.min(services.config.gitLimits.totalTimeMs, services.config.jobTimeBudgetMs) };
    repo = await GitRepository.open({
      remote: { url: input.url, ...(auth ? { auth } : {}) },
      projectDirectory: input.projectDirectory,
      tempRoot,
      limits,
      signal: context.signal,
      allowPrivateNetworks: services.config.fetchAllowPrivateNetworks,
    });
    const op: GitOperation = {
      db: services.db,
      ...ends,
      input,
      repo,
      store: blobStore(services.config, services.db),
      signal: context.signal,
      timeLimitMs: limits.totalTimeMs,
      progress: (done, total, message) => context.progress(done, total, message),
      complete: (tx, result) => context.complete(tx, result),
      committer: services.config.gitCommitter,
    };
    await runGitOperation(op);
  } catch (error) {
    const expected = error instanceof ImportError || (error instanceof AppError && error.status < 500);
    const timedOut = error instanceof ImportError && error.code === 'FETCH_TIMEOUT';
    const message = expected ? redactCredentials((error as Error).message) : 'An internal error stopped the operation; it is retried a few times';
    const code = expected ? (error as ImportError | AppError).code : null;
    await recordFailure(services.db, ends, input.direction, timedOut ? 'timeout' : 'failure', message, code).catch(() => undefined);
    throw error;
  } finally {
    await repo?.close();
  }
};
