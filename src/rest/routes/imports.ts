/**
 * Imports (4.7 `…/content/import`, `…/content/page/{pageId}/import`) and the jobs that run them.
 * An import answers as documented, `{revision, importedResources, totalResources}`, once its job
 * has finished — waiting up to QUIRE_IMPORT_WAIT_SECONDS; a longer one answers 202 with the job
 * and its `Location` (`GET /v1/jobs/{jobId}`, a quire addition, as is the job subscription).
 */
import { parseImportInput } from '../../domain/work/imports/start.js';
import { badRequest } from '../../lib/errors.js';
import { RUN_STATUSES } from '../../domain/work/imports/runs.js';
import { CONNECTION_FIELDS, enumParam, listOf, pageArgs, route, stringParam, type RestInput, type Route } from '../route.js';
import { importHeaders, importStatus, JOB_FRAGMENT, presentImport, presentJob } from '../present-jobs.js';

const CR = '/spaces/{spaceId}/change-requests/{changeRequestId}';

/** The GraphQL enum name of a source (`github-wiki` → `github_wiki`); the body validated first. */
function importVariables(input: RestInput, page?: string) {
  const { url, source } = parseImportInput(input.body);
  return { spaceId: input.params.spaceId, changeRequest: input.params.changeRequestId, url, source: source.replace(/-/g, '_'), page: page ?? null };
}

const IMPORT = `mutation RestImportContent($spaceId: ID!, $changeRequest: ID!, $url: String!, $source: ImportSource!, $page: ID) {
  job: importContent(spaceId: $spaceId, changeRequest: $changeRequest, url: $url, source: $source, page: $page, wait: true) { ...RestJob }
} ${JOB_FRAGMENT}`;

const importRoute = (path: string, page: (input: RestInput) => string | undefined): Route =>
  route({
    method: 'POST',
    path,
    operation: IMPORT,
    variables: (input) => importVariables(input, page(input)),
    status: (data) => importStatus(data.job),
    headers: (data) => importHeaders(data.job),
    result: (data) => presentImport(data.job),
  });

const RUN_FRAGMENT = `fragment RestImportRun on ImportRun {
  id status reason source { type url } target { space changeRequest page } siteId createdBy { id } createdAt startedAt completedAt updatedAt urls { location }
}`;

type RunData = {
  id: string;
  status: string;
  reason: string | null;
  source: { type: string; url: string };
  target: { space: string; changeRequest: string | null; page: string | null };
  siteId: string | null;
  createdBy: { id: string } | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  updatedAt: string;
  urls: { location: string };
};

/** The documented `ContentImportRun`. The source is documented as a website or uploaded files: an import of a change request from another source leaves it out. */
export const presentImportRun = (r: RunData) => ({
  object: 'import-run',
  id: r.id,
  status: r.status.replace('_', '-'),
  ...(r.reason ? { reason: r.reason } : {}),
  ...(r.source.type === 'website' ? { source: { type: 'website', url: r.source.url } } : {}),
  target: { space: r.target.space, ...(r.target.changeRequest ? { changeRequest: r.target.changeRequest } : {}), ...(r.target.page ? { page: r.target.page } : {}) },
  ...(r.siteId ? { site: r.siteId } : {}),
  ...(r.createdBy ? { createdBy: r.createdBy.id } : {}),
  createdAt: r.createdAt,
  ...(r.startedAt ? { startedAt: r.startedAt } : {}),
  ...(r.completedAt ? { completedAt: r.completedAt } : {}),
  updatedAt: r.updatedAt,
  urls: r.urls,
});

const RUNS = '/org/{organizationId}/imports';

/** An object given as a body field (GraphQL would refuse anything else less clearly). */
function objectField(body: Record<string, unknown>, field: string): Record<string, unknown> {
  const value = body[field];
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`Invalid value for "${field}": an object is required`, field);
  return value as Record<string, unknown>;
}

export const importRunRoutes: Route[] = [
  route({
    method: 'POST',
    path: RUNS,
    operation: `mutation RestStartImportRun($org: ID!, $source: ImportRunSourceInput!, $target: ImportRunTargetInput!, $site: ID, $enhance: Boolean) {
      run: startImportRun(organizationId: $org, source: $source, target: $target, site: $site, enhance: $enhance) { ...RestImportRun }
    } ${RUN_FRAGMENT}`,
    variables: ({ params, body }) => {
      const source = objectField(body, 'source');
      const target = objectField(body, 'target');
      for (const [field, value] of [['site', body.site], ['source.type', source.type], ['target.space', target.space]] as const) {
        if (value !== undefined && typeof value !== 'string') throw badRequest(`Invalid value for "${field}": must be a string`, field);
      }
      if (typeof source.type !== 'string') throw badRequest('Invalid value for "source.type": required', 'source.type');
      if (typeof target.space !== 'string') throw badRequest('Invalid value for "target.space": required', 'target.space');
      if (body.enhance !== undefined && typeof body.enhance !== 'boolean') throw badRequest('Invalid value for "enhance": must be a boolean', 'enhance');
      return { org: params.organizationId, source, target, site: body.site, enhance: body.enhance };
    },
    status: 201,
    result: (data) => presentImportRun(data.run),
  }),
  route({
    method: 'GET',
    path: RUNS,
    operation: `query RestListImportRuns($org: ID!, $first: Int, $after: String, $space: ID, $changeRequest: ID, $site: ID, $status: ImportRunStatusFilter) {
      organization(id: $org) { importRuns(first: $first, after: $after, space: $space, changeRequest: $changeRequest, site: $site, status: $status) { ${CONNECTION_FIELDS} edges { node { ...RestImportRun } } } }
    } ${RUN_FRAGMENT}`,
    variables: ({ params, query }) => ({
      org: params.organizationId,
      ...pageArgs(query),
      space: stringParam(query, 'space', 64) || undefined,
      changeRequest: stringParam(query, 'changeRequest', 64) || undefined,
      site: stringParam(query, 'site', 64) || undefined,
      status: enumParam(query, 'status', RUN_STATUSES)?.replace('-', '_'),
    }),
    result: (data) => listOf(data.organization.importRuns, presentImportRun),
  }),
  route({
    method: 'GET',
    path: `${RUNS}/{importRunId}`,
    operation: `query RestGetImportRun($org: ID!, $id: ID!) { organization(id: $org) { importRun(id: $id) { ...RestImportRun } } } ${RUN_FRAGMENT}`,
    variables: ({ params }) => ({ org: params.organizationId, id: params.importRunId }),
    result: (data) => presentImportRun(data.organization.importRun),
  }),
  route({
    method: 'POST',
    path: `${RUNS}/{importRunId}/cancel`,
    operation: `mutation RestCancelImportRun($org: ID!, $id: ID!) { run: cancelImportRun(organizationId: $org, id: $id) { ...RestImportRun } } ${RUN_FRAGMENT}`,
    variables: ({ params }) => ({ org: params.organizationId, id: params.importRunId }),
    result: (data) => presentImportRun(data.run),
  }),
];

export const importRoutes: Route[] = [
  importRoute(`${CR}/content/import`, () => undefined),
  importRoute(`${CR}/content/page/{pageId}/import`, (input) => input.params.pageId),
  route({
    method: 'GET',
    path: '/jobs/{jobId}',
    operation: `query RestGetJob($id: ID!) { job(id: $id) { ...RestJob } } ${JOB_FRAGMENT}`,
    variables: (input) => ({ id: input.params.jobId }),
    result: (data) => presentJob(data.job),
  }),
  route({
    method: 'POST',
    path: '/jobs/{jobId}/cancel',
    operation: `mutation RestCancelJob($id: ID!) { job: cancelJob(id: $id) { ...RestJob } } ${JOB_FRAGMENT}`,
    variables: (input) => ({ id: input.params.jobId }),
    result: (data) => presentJob(data.job),
  }),
];
