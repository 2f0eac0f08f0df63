/**
 * Imports (4.7 `…/content/import`, `…/content/page/{pageId}/import`) and the jobs that run them.
 * An import answers as documented, `{revision, importedResources, totalResources}`, once its job
 * has finished — waiting up to QUIRE_IMPORT_WAIT_SECONDS; a longer one answers 202 with the job
 * and its `Location` (`GET /v1/jobs/{jobId}`, a quire addition, as is the job subscription).
 */
import { parseImportInput } from '../../domain/work/imports/start.js';
import { route, type RestInput, type Route } from '../route.js';
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
