/**
 * Git sync (4.18): `POST /spaces/{spaceId}/git/import` and `…/git/export` answer 204 once the
 * operation is queued (the public document's contract; the job is `GET /v1/jobs/{id}` and the
 * `job` subscription, found through `git/info`'s operation or `Space.gitSync`), and
 * `GET …/git/info` the GitSyncState, 404 before the space's first git operation.
 */
import { parseGitBody, type GitDirection } from '../../domain/git-sync/input.js';
import { route, type Route } from '../route.js';

const SPACE = '/spaces/{spaceId}/git';

const STATE = `installationId installationProvider installationStatus provider repoName url ref projectDirectory commitId updatedAt operationTimeout
  operation { state direction startedAt endedAt error errorAction { label url } changeRequestId }`;

const queueRoute = (direction: GitDirection, mutation: 'importGitRepository' | 'exportToGitRepository', inputType: string): Route =>
  route({
    method: 'POST',
    path: `${SPACE}/${direction}`,
    operation: `mutation RestGit${direction}($spaceId: ID!, $input: ${inputType}!) { job: ${mutation}(spaceId: $spaceId, input: $input) { id } }`,
    variables: (input) => ({ spaceId: input.params.spaceId, input: parseGitBody(direction, input.body) }),
    status: 204,
  });

/** The document's GitSyncState: absent values left out rather than null. */
function presentState(state: Record<string, any>) {
  const { operation, ...rest } = state;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== null));
  if (operation) out.operation = Object.fromEntries(Object.entries(operation).filter(([, v]) => v !== null));
  return out;
}

export const gitSyncRoutes: Route[] = [
  queueRoute('import', 'importGitRepository', 'ImportGitRepositoryInput'),
  queueRoute('export', 'exportToGitRepository', 'ExportToGitRepositoryInput'),
  route({
    method: 'GET',
    path: `${SPACE}/info`,
    operation: `query RestGitInfo($spaceId: ID!) { gitSync(spaceId: $spaceId) { ${STATE} } }`,
    variables: (input) => ({ spaceId: input.params.spaceId }),
    result: (data) => presentState(data.gitSync),
  }),
];
