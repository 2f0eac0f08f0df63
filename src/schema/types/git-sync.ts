/**
 * Git sync in the graph (4.18): `Space.gitSync` (the public document's GitSyncState),
 * `Revision.git`, `Page.git`, `RevisionFile.git`, `ReusableContent.git`, and the mutations that
 * queue an import or an export (answering the job; watch it with `subscription { job(id) }`).
 *
 * `installationProvider` must be one of the document's `github | gitlab | github-legacy`: quire
 * speaks plain git to any server, so it answers `github` for github.com (and its subdomains) and
 * `gitlab` for every other server — GitLab's self-hosted servers being the usual generic git
 * server — and says the truth in its own `provider` (`github`, `gitlab` or `git`).
 */
import { startGitSync } from '../../domain/git-sync/start.js';
import { readGitSync, type GitBlob, type GitSyncView } from '../../domain/git-sync/read.js';
import { signingSecret } from '../../domain/kernel/signing-secret.js';
import { jobEvent } from '../../domain/work/jobs/rows.js';
import { builder } from '../builder.js';
import { forgetLoaded, type Context } from '../context.js';
import { JobRef } from './job.js';
import { PageRef } from './page.js';
import { ReusableContentRef, RevisionFileRef } from './revision-content.js';
import { RevisionRef } from './revision.js';
import { SpaceRef } from './space.js';
import { appUrl } from '../urls.js';

export const GitSyncProviderEnum = builder.enumType('GitSyncProvider', {
  description: 'The kind of git host a space syncs with.',
  values: {
    github: { value: 'github', description: 'github.com (or one of its subdomains).' },
    gitlab: { value: 'gitlab', description: 'Any other git server (GitLab or a plain smart-HTTP server).' },
    github_legacy: { value: 'github-legacy', description: 'Named by the public API; never answered by this server.' },
  } as const,
});
const GitSyncInstallationStatusEnum = builder.enumType('GitSyncInstallationStatus', { description: 'Whether a space\'s git sync is set up and authenticated.', values: {
    unauthenticated: { description: "The server refused the last operation's credentials." },
    active: { description: 'Set up; the last operation was not refused for its credentials.' },
    pending: { description: 'Named by the public API; never answered by this server.' },
  } as const });
const GitSyncOperationStateEnum = builder.enumType('GitSyncOperationState', { description: 'Where a git sync operation stands: running, or how it ended.', values: { running: { description: 'Under way.' }, failure: { description: 'Ended with an error.' }, success: { description: 'Ended with the content synced.' }, timeout: { description: 'Stopped after taking too long.' } } as const });
const GitSyncOperationDirectionEnum = builder.enumType('GitSyncOperationDirection', { description: 'Whether a git sync operation imported from the repository or exported to it.', values: { import: { description: 'From the repository into the space.' }, export: { description: 'From the space to the repository.' } } as const });

type Operation = { state: 'running' | 'failure' | 'success' | 'timeout'; direction: 'import' | 'export'; startedAt: Date; endedAt: Date | null; error: string | null; changeRequestId: string | null };

/** A job that ended without its operation ending (its worker died, it was cancelled) ends the operation. */
export function operationOf(sync: GitSyncView): Operation | null {
  if (!sync.operationState || !sync.operationDirection || !sync.operationStartedAt) return null;
  let state = sync.operationState as Operation['state'];
  let error = sync.operationError;
  let endedAt = sync.operationEndedAt;
  if (state === 'running' && sync.job && ['failed', 'cancelled'].includes(sync.job.state)) {
    state = sync.job.errorCode === 'FETCH_TIMEOUT' ? 'timeout' : 'failure';
    error = sync.job.state === 'cancelled' ? 'The operation was cancelled' : (sync.job.errorMessage ?? 'The operation failed');
    endedAt = sync.job.finishedAt;
  }
  return { state, direction: sync.operationDirection as Operation['direction'], startedAt: sync.operationStartedAt, endedAt, error, changeRequestId: state === 'failure' ? sync.conflictChangeRequestId : null };
}

/** `owner/name` of the remote (`https://host/owner/name.git`). */
export const repoNameOf = (url: string) => new URL(url).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');

export function providerOf(url: string): 'github' | 'gitlab' | 'git' {
  const host = new URL(url).hostname.toLowerCase();
  if (host === 'github.com' || host.endsWith('.github.com')) return 'github';
  if (host === 'gitlab.com' || host.startsWith('gitlab.')) return 'gitlab';
  return 'git';
}

const GitSyncOperationErrorActionRef = builder.simpleObject('GitSyncOperationErrorAction', {
  description: 'A suggested next step after a failed git sync operation: a label and a link.',
  fields: (t) => ({ label: t.string({ description: 'What to do, for people.' }), url: t.string({ description: 'Where to do it: the change request in the app.' }) }),
});

const GitSyncOperationRef = builder.objectRef<Operation>('GitSyncOperation').implement({
  description: 'The latest git operation of a space.',
  fields: (t) => ({
    state: t.field({ description: 'Whether it is running, or how it ended.', type: GitSyncOperationStateEnum, resolve: (o) => o.state }),
    direction: t.field({ description: 'Whether it imported or exported.', type: GitSyncOperationDirectionEnum, resolve: (o) => o.direction }),
    startedAt: t.field({ description: 'When it started.', type: 'DateTime', resolve: (o) => o.startedAt }),
    endedAt: t.field({ description: 'When it ended; null while it runs.', type: 'DateTime', nullable: true, resolve: (o) => o.endedAt }),
    error: t.string({ nullable: true, description: 'Why it failed: the file and line when the repository is at fault, the change request holding a conflict.', resolve: (o) => o.error }),
    errorAction: t.field({
      type: GitSyncOperationErrorActionRef,
      nullable: true,
      description: 'A conflict: the change request that holds the repository\'s side.',
      resolve: async (o, _a, ctx) => {
        if (!o.changeRequestId) return null;
        const changeRequest = await ctx.loaders.changeRequest.load(o.changeRequestId);
        return changeRequest ? { label: `Resolve the conflicts in change request #${changeRequest.number}`, url: appUrl(ctx, `/s/${changeRequest.spaceId}/~/changes/${changeRequest.number}`) } : null;
      },
    }),
    changeRequestId: t.id({ nullable: true, description: 'A conflict: the change request that holds the repository\'s side (a quire addition).', resolve: (o) => o.changeRequestId }),
  }),
});

export const GitSyncStateRef = builder.objectRef<GitSyncView>('GitSyncState').implement({
  description: 'The git repository a space syncs with, and its latest operation. Credentials are never kept or shown.',
  fields: (t) => ({
    installationId: t.id({ description: 'The sync of this space (its ID is the space\'s: one repository per space).', resolve: (s) => s.spaceId }),
    installationProvider: t.field({ type: GitSyncProviderEnum, description: '`github` for github.com, `gitlab` for any other git server (see `provider`).', resolve: (s) => (providerOf(s.url) === 'github' ? 'github' : 'gitlab') }),
    installationStatus: t.field({
      type: GitSyncInstallationStatusEnum,
      description: '`unauthenticated` when the server refused the last operation\'s credentials, `active` otherwise.',
      resolve: (s) => (s.operationErrorCode === 'GIT_AUTH_FAILED' ? 'unauthenticated' : 'active'),
    }),
    provider: t.string({ description: 'What the server is: `github`, `gitlab` or `git` (any other smart-HTTP server). A quire addition.', resolve: (s) => providerOf(s.url) }),
    repoName: t.string({ description: "The repository's path on its server (`owner/name`).", resolve: (s) => repoNameOf(s.url) }),
    url: t.string({ description: 'The repository\'s tree URL (`repoTreeURL`), else its address — never with credentials.', resolve: (s) => s.repoTreeURL ?? s.url }),
    ref: t.string({ description: 'The branch (`refs/heads/<name>`). A quire addition.', resolve: (s) => s.ref }),
    projectDirectory: t.string({ description: 'The part of the repository the space is (`repoProjectDirectory`). A quire addition.', resolve: (s) => s.projectDirectory }),
    commitId: t.string({ nullable: true, description: 'The last commit imported or exported. A quire addition.', resolve: (s) => s.commitOid }),
    operation: t.field({ description: 'Its latest operation; null before any.', type: GitSyncOperationRef, nullable: true, resolve: (s) => operationOf(s) }),
    operationTimeout: t.int({ description: 'How long one operation may run, in ms.', resolve: (_s, _a, ctx) => Math.min(ctx.config.gitLimits.totalTimeMs, ctx.config.jobTimeBudgetMs) }),
    updatedAt: t.field({ description: 'When it last changed.', type: 'DateTime', resolve: (s) => s.updatedAt }),
  }),
});

const GitSyncCommitRef = builder.simpleObject('GitSyncCommit', {
  description: 'The git commit a revision came from (an import) or went to (an export).',
  fields: (t) => ({
    oid: t.string({ description: "The commit's ID (its SHA-1)." }),
    message: t.string({ description: "The commit's message." }),
    createdByGitBook: t.boolean({ description: 'Whether the commit was written by an export (of this server).' }),
    url: t.string({ description: "The commit's web URL (`repoCommitURL` followed by its ID); null without `repoCommitURL`.", nullable: true }),
    ref: t.string({ description: 'The branch it is on (`refs/heads/<name>`); null when unknown.', nullable: true }),
  }),
});

const GitSyncBlobRef = builder.simpleObject('GitSyncBlob', {
  description: 'Where a page, file or reusable content sits in the last synced commit.',
  fields: (t) => ({ oid: t.string({ description: 'The ID (SHA-1) of its blob in that commit.' }), path: t.string({ description: 'Its path in the repository.' }) }),
});

builder.objectFields(SpaceRef, (t) => ({
  gitSync: t.field({
    type: GitSyncStateRef,
    nullable: true,
    description: 'The git repository the space syncs with (null before its first git operation).',
    resolve: (space, _a, ctx) => ctx.loaders.gitSync.load(space.id),
  }),
}));

builder.objectFields(RevisionRef, (t) => ({
  git: t.field({ description: 'The commit it came from (an import) or went to (an export); null for other revisions.',
    type: GitSyncCommitRef,
    nullable: true,
    resolve: (r) => (r.git && typeof r.git === 'object' ? (r.git as { oid: string; message: string; createdByGitBook: boolean; url?: string; ref?: string }) : null),
  }),
}));

const blobOf = (ctx: Context, spaceId: string, entityId: string): Promise<GitBlob | null> => ctx.loaders.gitBlob.load(`${spaceId}:${entityId}`);

builder.objectFields(PageRef, (t) => ({
  git: t.field({ type: GitSyncBlobRef, nullable: true, description: 'Its file in the last synced commit.', resolve: (p, _a, ctx) => blobOf(ctx, p.node.entry.spaceId, p.node.entry.entityId) }),
}));
builder.objectFields(RevisionFileRef, (t) => ({
  git: t.field({ type: GitSyncBlobRef, nullable: true, description: 'Its file in the last synced commit.', resolve: (f, _a, ctx) => blobOf(ctx, f.entry.spaceId, f.entry.entityId) }),
}));
builder.objectFields(ReusableContentRef, (t) => ({
  git: t.field({ type: GitSyncBlobRef, nullable: true, description: 'Its file in the last synced commit.', resolve: (r, _a, ctx) => blobOf(ctx, r.entry.spaceId, r.entry.entityId) }),
}));

const GitOperationInput = (name: string, exporting: boolean) =>
  builder.inputType(name, {
    description: exporting ? "Where and how to export a space's content as a commit to a git repository." : "Where to import a space's content from: a git repository and its branch.",
    fields: (t) => ({
      url: t.string({ required: true, description: 'The repository (`https://…`, `http://…` where private networks are allowed); basic-auth credentials in it are used for this operation only.' }),
      ref: t.string({ required: true, description: '`refs/heads/<branch>`.' }),
      ...(exporting ? { commitMessage: t.string({ required: true, description: 'The commit message; `{n}` and `{subject}` take the merged change request\'s number and subject.' }) } : {}),
      repoTreeURL: t.string({ description: "The web URL of the branch's tree, for people (no credentials); `Space.gitSync.url` shows it.", required: false }),
      repoCommitURL: t.string({ description: "The web URL of the repository's commits, for people (no credentials): a revision's `git.url` is this followed by the commit's ID.", required: false }),
      repoProjectDirectory: t.string({ description: "The folder of the repository the space is (a monorepo's docs); it may not climb out (`..`) or name `.git`. Left out: the whole repository.", required: false }),
      timestamp: t.string({ required: false, description: 'When the event that triggered it happened (ISO 8601): an import older than the last applied one is dropped.' }),
      force: t.boolean({
        required: false,
        description: exporting ? 'Push over the branch instead of merging it first when it moved.' : 'Import even a commit already synced, or older than the last one applied (`timestamp`).',
      }),
      standalone: t.boolean({
        required: false,
        description: exporting ? 'Ignored by exports.' : "Import into a revision of its own (the job's `result.revisionId`) that never becomes the space's content: a preview of a branch.",
      }),
    }),
  });

const ImportGitRepositoryInput = GitOperationInput('ImportGitRepositoryInput', false);
const ExportToGitRepositoryInput = GitOperationInput('ExportToGitRepositoryInput', true);

/** Fields given (GraphQL nulls dropped), as the REST body would hold them. */
const bodyOf = (input: Record<string, unknown>) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));

async function queue(ctx: Context, spaceId: string, direction: 'import' | 'export', input: Record<string, unknown>) {
  const job = await startGitSync(ctx.db, ctx.access, spaceId, direction, bodyOf(input), {
    secret: await signingSecret(ctx.db, ctx.config.secret),
    allowPrivateNetworks: ctx.config.fetchAllowPrivateNetworks,
  });
  ctx.events.publishJob(jobEvent(job));
  forgetLoaded(ctx);
  return job;
}

builder.mutationFields((t) => ({
  importGitRepository: t.field({
    type: JobRef,
    description: 'Queues an import of the branch tip into the space, merged three ways with what the space changed since the last sync; a conflict is parked in a change request. Needs `edit` on the space (and admin to point it at another repository).',
    args: { spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), input: t.arg({ description: 'The repository, branch and options of the import.', type: ImportGitRepositoryInput, required: true }) },
    resolve: (_root, { spaceId, input }, ctx) => queue(ctx, String(spaceId), 'import', input),
  }),
  exportToGitRepository: t.field({
    type: JobRef,
    description: 'Queues an export of the space\'s content as one commit on the branch (created when missing), merging the branch first when it moved. Needs `edit` on the space (and admin to point it at another repository).',
    args: { spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), input: t.arg({ description: 'The repository, branch, commit message and options of the export.', type: ExportToGitRepositoryInput, required: true }) },
    resolve: (_root, { spaceId, input }, ctx) => queue(ctx, String(spaceId), 'export', input),
  }),
}));

builder.queryFields((t) => ({
  gitSync: t.field({
    type: GitSyncStateRef,
    description: "A space's git sync (`GET /spaces/{spaceId}/git/info`); NOT_FOUND before its first operation.",
    args: { spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }) },
    resolve: (_root, { spaceId }, ctx) => readGitSync(ctx.access, String(spaceId)),
  }),
}));
