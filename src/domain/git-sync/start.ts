/**
 * Starting a git import or export (4.18: 204, queued): checked here — the body, the caller's
 * right to sync the space (`gitSync`), and `configure` when the request points the space at
 * another repository, branch or directory — then queued as a job in the space's own git queue,
 * so one git operation per space runs at a time, in the order asked (an export waits for a
 * running import and the reverse). The sync's state says `running` from now on.
 */
import type { Db } from '../../db/client.js';
import type { Access } from '../access/access.js';
import { guardedWrite } from '../access/guarded-write.js';
import { maySpace } from '../access/capabilities.js';
import { forbidden } from '../../lib/errors.js';
import { recordEvents } from '../kernel/outbox.js';
import { enqueueJob } from '../work/jobs/enqueue.js';
import type { JobRow } from '../work/jobs/rows.js';
import { sealCredentials } from './credentials.js';
import { parseGitOperation, type GitDirection } from './input.js';

/** The queue of a space's git operations (graphile-worker named queue). */
export const gitQueueOf = (spaceId: string) => `git-sync:${spaceId}`;

/** What a git job's `input` holds: settings, never credentials (those are sealed in `secret`). */
export type GitJobInput = {
  direction: GitDirection;
  url: string;
  ref: string;
  projectDirectory: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  timestamp?: string;
  force: boolean;
  standalone: boolean;
  commitMessage?: string;
};

export async function startGitSync(
  db: Db,
  access: Access,
  spaceId: string,
  direction: GitDirection,
  raw: unknown,
  opts: { secret: Uint8Array; allowPrivateNetworks: boolean },
): Promise<JobRow> {
  const input = parseGitOperation(direction, raw, opts);
  const check = (a: Access) => a.requireSpace(spaceId, 'gitSync');
  return guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, { space, role }) => {
    const [current] = await tx.$queryRaw<{ url: string; ref: string; projectDirectory: string }[]>`
      SELECT "url", "ref", "projectDirectory" FROM "GitSync" WHERE "spaceId" = ${spaceId} FOR UPDATE`;
    const retargets = current && (current.url !== input.remote.url || current.ref !== input.ref || current.projectDirectory !== input.projectDirectory);
    // Pointing an existing sync elsewhere is the space's configuration, as its edit mode is.
    if (retargets && !maySpace('configure', role, space)) throw forbidden();
    const jobInput: GitJobInput = {
      direction,
      url: input.remote.url,
      ref: input.ref,
      projectDirectory: input.projectDirectory,
      ...(input.repoTreeURL ? { repoTreeURL: input.repoTreeURL } : {}),
      ...(input.repoCommitURL ? { repoCommitURL: input.repoCommitURL } : {}),
      ...(input.timestamp ? { timestamp: input.timestamp.toISOString() } : {}),
      force: input.force,
      standalone: input.standalone,
      ...(input.commitMessage !== undefined ? { commitMessage: input.commitMessage } : {}),
    };
    const job = await enqueueJob(tx, {
      kind: direction === 'import' ? 'git_import' : 'git_export',
      organizationId: space.organizationId,
      spaceId,
      input: jobInput,
      secret: input.remote.auth ? sealCredentials(input.remote.auth, opts.secret) : null,
      createdById: access.userId,
      queueName: gitQueueOf(spaceId),
      message: direction === 'import' ? 'Waiting to import from git' : 'Waiting to export to git',
    });
    const target = {
      url: input.remote.url,
      ref: input.ref,
      projectDirectory: input.projectDirectory,
      repoTreeURL: input.repoTreeURL ?? null,
      repoCommitURL: input.repoCommitURL ?? null,
    };
    const operation = { operationJobId: job.id, operationState: 'running', operationDirection: direction, operationStartedAt: new Date(), operationEndedAt: null, operationError: null, operationErrorCode: null };
    // A new target starts over: its commits have nothing to do with the last one's.
    const restart = retargets ? { commitOid: null, revisionId: null, lastTimestamp: null, conflictChangeRequestId: null } : {};
    await tx.gitSync.upsert({
      where: { spaceId },
      create: { spaceId, ...target, ...operation },
      update: { ...target, ...operation, ...restart },
    });
    if (retargets) await tx.gitSyncBlob.deleteMany({ where: { spaceId } });
    // A first sync, or one pointed elsewhere, sets the space's git settings (the audit log says where to).
    const configured = !current || retargets ? { configured: true, url: target.url, ref: target.ref, projectDirectory: target.projectDirectory } : {};
    await recordEvents(tx, [{ kind: 'spaceGitSyncStarted', organizationId: space.organizationId, subjectId: spaceId, spaceId, actorId: access.userId, data: { direction, jobId: job.id, ...configured } }]);
    return job;
  });
}
