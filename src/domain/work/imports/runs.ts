/**
 * Import runs (the public document's `imports` paths, `POST /org/{id}/imports` and the rest): the
 * 0.202 way to import, mapped onto the import jobs (start.ts, jobs/handlers/import.ts). A run is
 * an `import` job: its ID, progress and cancellation are the job's. Its target is a space, and
 * optionally a change request and a page in it; without a change request, one is opened for the
 * import ("Import from …"), so the space's content changes only once it is merged, as for any edit.
 * A run's source is a website (`{type: "website", url}`); uploaded files (`{type: "file"}`) are
 * not taken yet. Who may see a run is who may see its job (Access.requireJob): who can view its
 * space, who started it, organization admins.
 */
import { z } from 'zod';
import { Prisma, type JobState } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import { badRequest, notFound } from '../../../lib/errors.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import type { Access } from '../../access/access.js';
import { guestSpaceIds } from '../../access/role-sql.js';
import { countRows } from '../../kernel/pagination/count.js';
import { counted, type CountedPage } from '../../kernel/pagination/counted.js';
import { byTimeThenId, readPage, type PageArgs } from '../../kernel/pagination/keyset.js';
import { createChangeRequest, SUBJECT_MAX } from '../../versions/change-requests/create.js';
import { cancelJob } from '../jobs/cancel.js';
import { isFinished, type JobRow } from '../jobs/rows.js';
import { parseImportInput, requireImportPage, startImport } from './start.js';

const { sql } = Prisma;

/** What a run's job input holds besides the import's own (start.ts ImportInput). */
export type ImportRunInput = { url: string; source: string; pageId?: string; siteId?: string; run?: boolean };

const id = lazySchema(() => z.string().min(1).max(64));

const startSchema = lazySchema(() => z
  .object({
    source: z.discriminatedUnion('type', [
      z.object({ type: z.literal('website'), url: z.string().max(2048).refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http or https URL') }).strict(),
      z.object({ type: z.literal('file'), files: z.array(z.string().max(512)).max(50) }).strict(),
    ]),
    target: z.object({ space: id, changeRequest: id.optional(), page: id.optional() }).strict(),
    site: id.optional(),
    // AI enhancement of the imported content: this server has no AI; the import is the same either way.
    enhance: z.boolean().optional(),
  })
  .strict());

export type StartImportRunInput = z.input<typeof startSchema>;

/** A run of the organization (404 for anything else: a job of another kind, another organization's). */
export async function findImportRun(db: Db, access: Access, organizationId: string, runId: string): Promise<JobRow> {
  await access.requireOrganization(organizationId, 'view');
  const job = await db.job.findUnique({ where: { id: runId } });
  if (!job || job.kind !== 'import' || job.organizationId !== organizationId) throw notFound('Import run');
  return access.requireJob(job).catch(() => {
    throw notFound('Import run');
  });
}

/** The one site a space belongs to, when it belongs to exactly one. */
async function siteOfSpace(db: Db, spaceId: string): Promise<string | undefined> {
  const sites = await db.siteSpace.findMany({ where: { spaceId }, select: { siteId: true }, distinct: ['siteId'], take: 2 });
  return sites.length === 1 ? sites[0].siteId : undefined;
}

export async function startImportRun(db: Db, access: Access, organizationId: string, raw: unknown): Promise<JobRow> {
  const input = parseInput(startSchema, raw);
  await access.requireOrganization(organizationId, 'view');
  if (input.source.type === 'file') {
    throw badRequest('Invalid value for "source.type": importing uploaded files is not supported by this server yet; import from a URL (`{type: "website", url}`)', 'source.type');
  }
  const { space } = await access.requireSpace(input.target.space, 'edit');
  if (space.organizationId !== organizationId) throw notFound('Space');
  if (input.site) {
    const site = await access.requireSite(input.site);
    if (site.organizationId !== organizationId) throw notFound('Site');
  }
  const url = input.source.url;
  const importInput = { url, source: 'website' };
  parseImportInput(importInput);
  // Checked before a change request is opened for it (the new request starts from the space's revision).
  if (input.target.page && !input.target.changeRequest) await requireImportPage(db, space.revisionId, input.target.page, 'target.page');
  const changeRequest = input.target.changeRequest ?? (await createChangeRequest(db, access, space.id, { subject: `Import from ${url}`.slice(0, SUBJECT_MAX) }));
  const siteId = input.site ?? (await siteOfSpace(db, space.id));
  return startImport(db, access, space.id, changeRequest, importInput, input.target.page, { ...(siteId ? { siteId } : {}), run: true });
}

/** The documented statuses of a run, from its job's state (`active`: pending or in progress). */
export const RUN_STATUSES = ['active', 'pending', 'in-progress', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const STATES: Record<RunStatus, JobState[]> = {
  active: ['queued', 'running'],
  pending: ['queued'],
  'in-progress': ['running'],
  completed: ['succeeded'],
  failed: ['failed'],
  cancelled: ['cancelled'],
};

export type ImportRunFilter = { space?: string | null; changeRequest?: string | null; site?: string | null; status?: RunStatus | null };

/**
 * The organization's runs the caller may see, newest first, paged on the index of the
 * organization's jobs by kind. Members with an organization role see every run of a live space;
 * guests those of the spaces their grants reach; everyone the runs they started; admins all.
 */
export async function importRunsPage(db: Db, access: Access, organizationId: string, filter: ImportRunFilter, args: PageArgs): Promise<CountedPage<JobRow>> {
  const org = await access.requireOrganization(organizationId, 'view');
  const admin = org.viewerRole === 'admin';
  const visible = admin
    ? []
    : [
        sql`(j."createdById" = ${access.userId} OR (EXISTS (SELECT 1 FROM "Space" s WHERE s."id" = j."spaceId" AND s."deletedAt" IS NULL)
          ${org.viewerRole === null ? sql`AND j."spaceId" IN (${guestSpaceIds(access.userId)})` : sql``}))`,
      ];
  const conditions = [
    sql`j."organizationId" = ${organizationId}`,
    sql`j."kind" = 'import'::"JobKind"`,
    ...visible,
    ...(filter.space ? [sql`j."spaceId" = ${filter.space}`] : []),
    ...(filter.changeRequest ? [sql`j."changeRequestId" = ${filter.changeRequest}`] : []),
    ...(filter.site
      ? [sql`(j."input"->>'siteId' = ${filter.site} OR j."spaceId" IN (SELECT ss."spaceId" FROM "SiteSpace" ss JOIN "Site" t ON t."id" = ss."siteId" WHERE ss."siteId" = ${filter.site} AND t."organizationId" = ${organizationId}))`]
      : []),
    ...(filter.status ? [sql`j."state" = ANY(${STATES[filter.status]}::"JobState"[])`] : []),
  ];
  const key = byTimeThenId<JobRow>(`import-runs:${organizationId}`, 'j."createdAt"', 'j."id"', (j) => [j.createdAt, j.id], { descending: true });
  const page = await readPage<JobRow>(db, sql`SELECT j.* FROM "Job" j`, conditions, key, args);
  return counted(page, () => countRows(db, sql`"Job" j WHERE ${Prisma.join(conditions, ' AND ')}`));
}

/** Cancels a run that has not ended (400 once it has; cancelling needs `edit` on its space, or an admin, or who started it). */
export async function cancelImportRun(db: Db, access: Access, organizationId: string, runId: string): Promise<JobRow> {
  const run = await access.requireJob(await findImportRun(db, access, organizationId, runId), 'cancel');
  if (isFinished(run.state)) throw badRequest(`The import run has already ${run.state === 'succeeded' ? 'completed' : run.state === 'failed' ? 'failed' : 'been cancelled'}`);
  return cancelJob(db, access, run.id);
}
