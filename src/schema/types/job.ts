/**
 * Jobs: long work (imports, space copies and purges) run by the queue, observable while it runs.
 * `job(id)`, `Space.jobs`, `Organization.jobs`, `cancelJob`, `importContent`, and the
 * subscription `job(id)` that streams every change of a job until it finishes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { changeRequestKey } from '../../domain/loaders/keys.js';
import { notFound } from '../../lib/errors.js';
import { startImport } from '../../domain/work/imports/start.js';
import { cancelJob } from '../../domain/work/jobs/cancel.js';
import { findJob, jobById, organizationJobs, spaceJobs } from '../../domain/work/jobs/read.js';
import { isFinished, jobEvent, type JobRow } from '../../domain/work/jobs/rows.js';
import { waitForJob } from '../../jobs/wait.js';
import { effectiveImportWaitMs } from '../../config.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { forgetLoaded, type Context } from '../context.js';
import { apiUrl } from '../urls.js';
import { ChangeRequestRef } from './change-request.js';
import { OrganizationRef } from './organization.js';
import { SpaceRef } from './space.js';
import { UserRef } from './user.js';

const JobKindEnum = builder.enumType('JobKind', {
  description: 'What a background job does.',
  values: {
    import: { description: 'Content imported into a change request (`importContent`).' },
    space_duplicate: { description: 'A copy of a space (`duplicateSpace`).' },
    space_purge: { description: 'A space removed for good once its 7 days in the trash have passed.' },
    openapi_process: { description: 'An OpenAPI specification fetched, parsed and validated into a version.' },
    git_import: { description: 'The branch tip of the space\'s git repository merged into the space (`importGitRepository`).' },
    git_export: { description: 'The space\'s content committed and pushed to its git repository (`exportToGitRepository`).' },
  } as const,
});

const JobStateEnum = builder.enumType('JobState', { description: 'Where a background job stands: queued, running, or how it ended.', values: { queued: { description: 'Waiting for a worker.' }, running: { description: 'Being run by a worker.' }, succeeded: { description: 'Ended with its work done.' }, failed: { description: 'Ended without it (see its error).' }, cancelled: { description: 'Cancelled before it ended.' } } as const });

export const ImportSourceEnum = builder.enumType('ImportSource', {
  description: 'Where imported content comes from: a file, a website, a GitHub (or any git) wiki, or the export of a third-party product (Confluence, Notion, Dropbox Paper, Quip, Google Docs), read into pages and files.',
  values: {
    website: { value: 'website', description: 'A web page and the same-origin pages it links to.' },
    docx: { value: 'docx', description: 'A Word document (.docx); its images become files.' },
    markdown: { value: 'markdown', description: 'One markdown file.' },
    html: { value: 'html', description: 'One HTML page (its main content).' },
    zip: { value: 'zip', description: 'A zip of markdown/HTML files and images: folders (or SUMMARY.md) give the page tree.' },
    confluence: { value: 'confluence', description: 'A Confluence space export (HTML, a zip): its page tree from index.html, titles, links between pages, attachments as files, panels as hints, code macros as code blocks with their language, expand macros as expandables, tables and task lists.' },
    github_wiki: { value: 'github-wiki', description: 'A GitHub (or any) wiki, cloned as a git repository (its `.wiki.git` URL or the wiki\'s page URL): `Home` first, `_Sidebar` as the tree, wiki links and relative links resolved, images as files, AsciiDoc and Org converted (other markup kept as code blocks, reported in the result\'s warnings).' },
    dropbox_paper: { value: 'dropbox-paper', description: 'A Dropbox Paper export: a document as markdown or .docx, or a zip of a folder of them.' },
    notion: { value: 'notion', description: 'A Notion export ("Markdown & CSV", a zip): its page tree without the IDs in names, links between pages, images and attachments as files, databases as table pages.' },
    quip: { value: 'quip', description: 'A Quip export: a document as HTML or .docx, or a zip of a folder of them (attachments in `blobs/` become files).' },
    google_docs: { value: 'google-docs', description: 'A Google Docs document: its URL (read through its .docx export; shared with anyone who has the link) or a page published to the web.' },
  } as const,
});

export const JobProgressRef = builder.simpleObject('JobProgress', {
  description: 'How far a running background job has got.',
  fields: (t) => ({
    done: t.int({ description: 'Steps done (pages read, then pages and files written).' }),
    total: t.int({ nullable: true, description: 'Steps in all, once known.' }),
  }),
});

const JobErrorRef = builder.simpleObject('JobError', {
  description: 'Why a job failed or was cancelled.',
  fields: (t) => ({
    code: t.string({
      description:
        'A stable reason: an import\'s `FETCH_TIMEOUT`, `FETCH_ERROR`, `BLOCKED_ADDRESS`, `HTTP_ERROR`, `TOO_LARGE`, `UNSUPPORTED_CONTENT_TYPE`, `PARSE_ERROR`, `ROBOTS_DISALLOWED`; git sync\'s `GIT_AUTH_FAILED`, `GIT_NOT_FOUND`, `GIT_REF_NOT_FOUND`, `GIT_UNSAFE_TREE`, `GIT_TOO_LARGE`, `GIT_PUSH_REJECTED`, `GIT_PROTOCOL`, `GIT_INVALID_REPOSITORY`, `GIT_BUSY`; `CANCELLED`; `JOB_STOPPED` (its runs were stopped QUIRE_JOB_MAX_ATTEMPTS times: its worker died or stopped responding, or a run passed its time budget); `INTERNAL_ERROR`; or the code of a refused operation (`FORBIDDEN`, `NOT_FOUND`, `CONFLICT`, `BAD_REQUEST`).',
    }),
    message: t.string({ description: 'Why, for people.' }),
  }),
});

const ImportResultRef = builder.simpleObject('ImportResult', {
  description: 'What an import job produced.',
  fields: (t) => ({
    revision: t.string({ description: "The change request's revision with the imported content." }),
    importedResources: t.int({ description: 'Pages and files written.' }),
    totalResources: t.int({ description: 'Pages and files the source offered (some may be left out by the limits).' }),
    warnings: t.stringList({ description: 'What was imported but not converted (e.g. a wiki page in a markup without a converter, kept as a code block), for people; empty when nothing.' }),
  }),
});

type ImportResult = { revision: string; importedResources: number; totalResources: number; warnings: string[] };

export const JobRef = builder.objectRef<JobRow>('Job').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: 'Long work run in the background. Watch it with `subscription { job(id) }`; its state and progress change as it runs.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    kind: t.field({ description: 'What it does.', type: JobKindEnum, resolve: (j) => j.kind }),
    state: t.field({ description: 'Where it stands: queued, running, or how it ended.', type: JobStateEnum, resolve: (j) => j.state }),
    progress: t.field({ description: 'How far it has got.', type: JobProgressRef, resolve: (j) => ({ done: j.progressDone, total: j.progressTotal }) }),
    message: t.exposeString('message', { nullable: true, description: 'What it is doing, for people.' }),
    error: t.field({ description: 'Why it failed or was cancelled; null otherwise.', type: JobErrorRef, nullable: true, resolve: (j) => (j.errorCode ? { code: j.errorCode, message: j.errorMessage ?? j.message ?? j.errorCode } : null) }),
    result: t.field({ type: 'JSON', nullable: true, description: 'What it produced, once succeeded (an import: `ImportResult`; a space copy: `{spaceId}`).', resolve: (j) => j.result }),
    importResult: t.field({ description: "An import's outcome, once it succeeded; null for other jobs and until then.",
      type: ImportResultRef,
      nullable: true,
      resolve: (j) => (j.kind === 'import' && j.state === 'succeeded' && j.result ? { warnings: [], ...(j.result as Partial<ImportResult>) } as ImportResult : null),
    }),
    attempts: t.exposeInt('attempts', { description: 'Times it was started (a job is run again after an internal error or a lost worker).' }),
    cancelRequested: t.exposeBoolean('cancelRequested', { description: 'Whether cancelling it was asked for (a running job stops at its next step).' }),
    spaceId: t.exposeID('spaceId', { description: "The ID of the space it works on; null for jobs of no space (an OpenAPI specification's processing).", nullable: true }),
    space: t.field({ description: 'The space it works on; null when it has none, or the caller cannot see it.',
      type: SpaceRef,
      nullable: true,
      resolve: async (j, _a, ctx) => (j.spaceId ? ((await ctx.access.requireSpace(j.spaceId, 'view').catch(() => null))?.space ?? null) : null),
    }),
    changeRequest: t.field({ description: 'The change request it writes into (imports); null otherwise.',
      type: ChangeRequestRef,
      nullable: true,
      resolve: (j, _a, ctx) => (j.spaceId && j.changeRequestId ? ctx.loaders.changeRequestInSpace.load(changeRequestKey(j.spaceId, j.changeRequestId)) : null),
    }),
    createdBy: t.field({ description: 'The user who started it; null for jobs the server started itself (purges).', type: UserRef, nullable: true, resolve: (j, _a, ctx) => (j.createdById ? ctx.loaders.user.load(j.createdById) : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    startedAt: t.expose('startedAt', { description: 'When a worker first started it; null while queued.', type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { description: 'When it ended; null until then.', type: 'DateTime', nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: builder.simpleObject('JobUrls', { description: 'Where a job is, in this API.', fields: (u) => ({ location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }) }) }),
      resolve: (j, _a, ctx) => ({ location: apiUrl(ctx, `/jobs/${j.id}`) }),
    }),
  }),
});

builder.queryField('job', (t) =>
  t.field({
    type: JobRef,
    description: 'A job, to whoever may see it: who may view its space, or an organization admin.',
    args: { id: t.arg.id({ description: "The job's ID.", required: true }) },
    resolve: (_root, { id }, ctx) => findJob(ctx.db, ctx.access, String(id)),
  }),
);

builder.objectFields(SpaceRef, (t) => ({
  jobs: t.connection({
    type: JobRef,
    description: 'The jobs that work on this space, newest first.',
    resolve: async (space, args, ctx) => pageConnection(await spaceJobs(ctx.db, ctx.access, space.id, args)),
  }),
}));

builder.objectFields(OrganizationRef, (t) => ({
  jobs: t.connection({
    type: JobRef,
    description: "The organization's jobs, newest first (organization admins).",
    resolve: async (org, args, ctx) => pageConnection(await organizationJobs(ctx.db, ctx.access, org.id, args)),
  }),
}));

/** Waits (bounded by QUIRE_IMPORT_WAIT_SECONDS) when asked to, then reads the job afresh. */
async function answerJob(ctx: Context, job: JobRow, wait: boolean | null | undefined): Promise<JobRow> {
  forgetLoaded(ctx);
  return wait ? waitForJob(ctx.db, ctx.events, job.id, effectiveImportWaitMs(ctx.config)) : job;
}

builder.mutationFields((t) => ({
  importContent: t.field({
    type: JobRef,
    description:
      'Imports content into a change request (or, with `page`, into one of its pages: its body, and its children for zip and website imports). Answers the job at once; watch it with `subscription { job(id) }`. The revision is written in one transaction at the end: a failed or cancelled import writes nothing.',
    args: {
      changeRequest: t.arg.id({ required: true, description: "The change request's ID (or its number, with `spaceId`)." }),
      spaceId: t.arg.id({ required: false, description: 'The space\'s ID.' }),
      url: t.arg.string({ description: 'Where to fetch the content from (http or https).', required: true }),
      source: t.arg({ description: 'What kind of content the URL holds.', type: ImportSourceEnum, required: true }),
      page: t.arg.id({ description: 'The ID of a page of the change request to import into; left out: the import adds pages to the change request.', required: false }),
      wait: t.arg.boolean({ required: false, description: 'Answer once the job has finished, or after QUIRE_IMPORT_WAIT_SECONDS (the job keeps running).' }),
    },
    resolve: async (_root, args, ctx) => {
      const spaceId = args.spaceId ? String(args.spaceId) : (await ctx.loaders.changeRequest.load(String(args.changeRequest)))?.spaceId;
      if (!spaceId) throw notFound('Change request');
      const job = await startImport(ctx.db, ctx.access, spaceId, String(args.changeRequest), { url: args.url, source: args.source }, args.page ? String(args.page) : undefined);
      ctx.events.publishJob(jobEvent(job));
      return answerJob(ctx, job, args.wait);
    },
  }),
  cancelJob: t.field({
    type: JobRef,
    description: 'Cancels a job: a queued one at once, a running one within a second or so (it writes nothing). Needs `edit` on its space, or an organization admin.',
    args: { id: t.arg.id({ description: "The job's ID.", required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const job = await cancelJob(ctx.db, ctx.access, String(id));
      ctx.events.publishJob(jobEvent(job));
      return job;
    },
  }),
}));

/**
 * The job as it is now, then after every change until it finishes. Woken by the job's events
 * (from any instance or worker, through Redis when configured), and reading the row every
 * QUIRE_JOB_POLL_SECONDS as well, so a worker whose events cannot reach this process still shows progress.
 */
async function* jobChanges(ctx: Context, id: string): AsyncGenerator<JobRow> {
  const iterator = ctx.events.subscribeJob(id)[Symbol.asyncIterator]();
  try {
    let job = await findJob(ctx.db, ctx.access, id); // subscribed first: no change is missed
    yield job;
    let next = iterator.next();
    while (!isFinished(job.state)) {
      const woke = await Promise.race([next.then(() => true), sleep(ctx.config.jobPollMs).then(() => false)]);
      if (woke) next = iterator.next();
      const now = await jobById(ctx.db, id);
      if (!now) return;
      if (now.version !== job.version) yield now;
      job = now;
    }
  } finally {
    await iterator.return?.();
  }
}

builder.subscriptionField('job', (t) =>
  t.field({
    type: JobRef,
    description: "A job's state, progress and message: as it is now, then every change until it finishes (the stream then ends). Another organization's job: not found.",
    args: { id: t.arg.id({ description: "The job's ID.", required: true }) },
    subscribe: (_root, { id }, ctx) => {
      const changes = jobChanges(ctx, String(id));
      // Authorized on subscribe: the first step (the access check and the current state) runs
      // now, so a job the caller may not see fails the subscription itself, not a later event.
      return (async () => {
        const first = await changes.next();
        return (async function* () {
          if (!first.done) yield first.value;
          yield* changes;
        })();
      })() as unknown as AsyncIterable<JobRow>;
    },
    resolve: (job) => job,
  }),
);

