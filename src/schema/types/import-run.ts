/**
 * Import runs (the public document's `imports` tag): `Organization.importRuns`, `importRun(id)`,
 * `startImportRun`, `cancelImportRun`. A run is an import job seen the way the public document
 * shows it (domain/work/imports/runs.ts): its status, source and target; `job` is the job itself,
 * to watch with `subscription { job(id) }`.
 */
import { cancelImportRun, findImportRun, importRunsPage, RUN_STATUSES, startImportRun, type ImportRunInput } from '../../domain/work/imports/runs.js';
import { jobEvent, type JobRow } from '../../domain/work/jobs/rows.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { optionalId } from '../optional-id.js';
import { forgetLoaded } from '../context.js';
import { apiUrl } from '../urls.js';
import { JobProgressRef, JobRef } from './job.js';
import { OrganizationRef } from './organization.js';
import { UserRef } from './user.js';

const STATUS_OF = { queued: 'pending', running: 'in_progress', succeeded: 'completed', failed: 'failed', cancelled: 'cancelled' } as const;

const ImportRunStatusEnum = builder.enumType('ImportRunStatus', {
  description: 'Where an import run stands.',
  values: {
    pending: { value: 'pending', description: 'Waiting for a worker.' },
    in_progress: { value: 'in_progress', description: 'Being imported (`in-progress` in REST).' },
    completed: { value: 'completed', description: 'Imported: its change request has the content.' },
    failed: { value: 'failed', description: 'Ended without importing anything (see `reason`).' },
    cancelled: { value: 'cancelled', description: 'Cancelled before it ended; nothing was written.' },
  } as const,
});

const ImportRunStatusFilterEnum = builder.enumType('ImportRunStatusFilter', {
  description: 'Which import runs a list keeps, by status.',
  values: {
    active: { value: 'active', description: 'Pending or in progress.' },
    pending: { value: 'pending', description: 'Waiting for a worker.' },
    in_progress: { value: 'in-progress', description: 'Being imported.' },
    completed: { value: 'completed', description: 'Imported.' },
    failed: { value: 'failed', description: 'Failed.' },
    cancelled: { value: 'cancelled', description: 'Cancelled.' },
  } as const,
});

const inputOf = (job: JobRow) => job.input as ImportRunInput;

const ImportRunSourceRef = builder.simpleObject('ImportRunSource', {
  description: 'Where an import run reads its content from.',
  fields: (t) => ({
    type: t.string({ description: '`website` (the 0.202 import runs), or the source named by an import of a change request (`markdown`, `html`, `docx`, `zip`).' }),
    url: t.string({ description: 'The URL read.' }),
  }),
});

const ImportRunTargetRef = builder.simpleObject('ImportRunTarget', {
  description: 'Where an import run writes its content.',
  fields: (t) => ({
    space: t.string({ description: "The space's ID." }),
    changeRequest: t.string({ nullable: true, description: 'The change request it writes into.' }),
    page: t.string({ nullable: true, description: 'The page it imports into, when one was named.' }),
  }),
});

export const ImportRunRef = builder.objectRef<JobRow>('ImportRun').implement({
  description: 'An import of content into a space, the way the public API shows it: an import job, by the same ID.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "Its ID (its job's)." }),
    status: t.field({ type: ImportRunStatusEnum, description: 'Where it stands.', resolve: (j) => STATUS_OF[j.state] }),
    reason: t.string({ nullable: true, description: 'Why it failed: a reason code and its explanation.', resolve: (j) => (j.state === 'failed' ? `${j.errorCode ?? 'FAILED'}: ${j.errorMessage ?? j.message ?? ''}`.replace(/: $/, '') : null) }),
    source: t.field({ type: ImportRunSourceRef, description: 'Where it reads from.', resolve: (j) => ({ type: inputOf(j).source, url: inputOf(j).url }) }),
    target: t.field({
      type: ImportRunTargetRef,
      description: 'Where it writes.',
      resolve: (j) => ({ space: j.spaceId ?? '', changeRequest: j.changeRequestId, page: inputOf(j).pageId ?? null }),
    }),
    siteId: t.string({ nullable: true, description: 'The site it is for: the one its space belongs to, or the one named when it started.', resolve: (j) => inputOf(j).siteId ?? null }),
    progress: t.field({ type: JobProgressRef, description: 'How far it has got.', resolve: (j) => ({ done: j.progressDone, total: j.progressTotal }) }),
    createdBy: t.field({ type: UserRef, nullable: true, description: 'Who started it.', resolve: (j, _a, ctx) => (j.createdById ? ctx.loaders.user.load(j.createdById) : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was asked for.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true, description: 'When a worker started it.' }),
    completedAt: t.field({ type: 'DateTime', nullable: true, description: 'When it completed (null unless completed).', resolve: (j) => (j.state === 'succeeded' ? j.finishedAt : null) }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    job: t.field({ type: JobRef, description: 'The job that runs it (its state, error and result, to watch with `subscription { job(id) }`).', resolve: (j) => j }),
    urls: t.field({
      description: 'Its URLs in this API.',
      type: builder.simpleObject('ImportRunUrls', { description: 'Where an import run is, in this API.', fields: (u) => ({ location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }) }) }),
      resolve: (j, _a, ctx) => ({ location: apiUrl(ctx, `/org/${j.organizationId}/imports/${j.id}`) }),
    }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  importRuns: t.connection({
    type: ImportRunRef,
    description: 'Its import runs the caller may see (who can view their space, who started them, admins), newest first.',
    args: {
      space: t.arg.id({ required: false, description: 'Only those into this space.' }),
      changeRequest: t.arg.id({ required: false, description: 'Only those into this change request.' }),
      site: t.arg.id({ required: false, description: 'Only those for this site (or into its spaces).' }),
      status: t.arg({ type: ImportRunStatusFilterEnum, required: false, description: 'Only those in this status.' }),
    },
    resolve: async (org, args, ctx) => {
      const id = optionalId;
      const filter = { space: id(args.space), changeRequest: id(args.changeRequest), site: id(args.site), status: args.status as (typeof RUN_STATUSES)[number] | null | undefined };
      return pageConnection(await importRunsPage(ctx.db, ctx.access, org.id, filter, args));
    },
  }),
  importRun: t.field({
    type: ImportRunRef,
    description: 'One of its import runs, by ID (NOT_FOUND unless the caller may see it).',
    args: { id: t.arg.id({ required: true, description: "The run's ID." }) },
    resolve: (org, { id }, ctx) => findImportRun(ctx.db, ctx.access, org.id, String(id)),
  }),
}));

const ImportRunSourceInput = builder.inputType('ImportRunSourceInput', {
  description: 'Where to import from: `{type: "website", url}` (`{type: "file", files}` is refused: not supported by this server yet).',
  fields: (t) => ({
    type: t.string({ required: true, description: '`website` (or `file`, refused).' }),
    url: t.string({ description: 'The page to start from (website).' }),
    files: t.stringList({ description: 'Keys of uploaded files (file): not supported yet.' }),
  }),
});

const ImportRunTargetInput = builder.inputType('ImportRunTargetInput', {
  description: 'Where to import into.',
  fields: (t) => ({
    space: t.id({ required: true, description: "The space's ID." }),
    changeRequest: t.id({ description: 'A change request of the space to write into; without one, a change request is opened for the import.' }),
    page: t.id({ description: 'A page to import into (its body, and its children for a website).' }),
  }),
});

builder.mutationFields((t) => ({
  startImportRun: t.field({
    type: ImportRunRef,
    description: 'Starts importing a website into a space (into a change request: the given one, or one opened for the import). Answers the run at once; watch its `job`.',
    args: {
      organizationId: t.arg.id({ required: true, description: "The organization's ID." }),
      source: t.arg({ type: ImportRunSourceInput, required: true, description: 'Where to import from.' }),
      target: t.arg({ type: ImportRunTargetInput, required: true, description: 'Where to import into.' }),
      site: t.arg.id({ required: false, description: 'The site it is for, when its space is not in one yet.' }),
      enhance: t.arg.boolean({ required: false, description: 'AI enhancement: this server has none; accepted, and changes nothing.' }),
    },
    resolve: async (_r, { organizationId, source, target, site, enhance }, ctx) => {
      const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v != null));
      const job = await startImportRun(ctx.db, ctx.access, String(organizationId), defined({ source: defined(source), target: defined(target), site, enhance }));
      ctx.events.publishJob(jobEvent(job));
      forgetLoaded(ctx);
      return job;
    },
  }),
  cancelImportRun: t.field({
    type: ImportRunRef,
    description: 'Cancels an import run that has not ended: a pending one at once, one in progress within a second or so (it writes nothing).',
    args: { organizationId: t.arg.id({ required: true, description: "The organization's ID." }), id: t.arg.id({ required: true, description: "The run's ID." }) },
    resolve: async (_r, { organizationId, id }, ctx) => {
      const job = await cancelImportRun(ctx.db, ctx.access, String(organizationId), String(id));
      ctx.events.publishJob(jobEvent(job));
      return job;
    },
  }),
}));
