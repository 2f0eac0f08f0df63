/**
 * Poison-pill jobs (issue 21, item 4): a job whose run kills its worker, or never ends, must not
 * be run again and again. Through real processes, as an operator runs them: a `quire serve`
 * without a job runner and `quire worker` processes on a database of this file's own. Imports
 * fetch from a source the test controls, which never finishes answering: the job runs until its
 * worker is killed (SIGKILL) or its time budget is spent. Each time counts as an attempt; after
 * QUIRE_JOB_MAX_ATTEMPTS the job ends `failed` with a reason its user can read — over REST and
 * GraphQL — and the change request's revision is untouched. A job within its budget still succeeds.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { gqlOk, http } from './helpers/clients.js';
import { killAll, ownDatabase, SERVE_READY, startQuire, WORKER_READY } from './helpers/processes.js';
import { serveSite, type Site } from './helpers/site.js';
import { testDatabaseUrl } from './helpers/database-url.js';

let database: Awaited<ReturnType<typeof ownDatabase>>;
let db: Db;
let source: Site;
let base = '';

beforeAll(async () => {
  database = await ownDatabase(testDatabaseUrl(), 'quire_poison');
  db = createPrismaClient(database.url, { poolMax: 2 });
  source = await serveSite({
    // Headers never come: the fetch waits, until its job is stopped (or its own 15 s timeout).
    '/hangs.md': { type: 'text/markdown', body: '# Never\n', delayMs: 10 * 60_000 },
    '/quick.md': { type: 'text/markdown', body: '# Quick\n\nImported.\n' },
  });
  base = (await startQuire(['serve'], { DATABASE_URL: database.url, QUIRE_RUN_WORKER: 'false' }, SERVE_READY).matched)[1];
}, 120_000);

afterAll(async () => {
  killAll();
  await source?.close();
  await db?.$disconnect();
  await database?.drop();
});

/**
 * A `quire worker` with these job settings; resolves once it runs. It goes with its test, even one
 * that failed: the next test's jobs are run by its own workers only, with its own settings.
 */
async function worker(settings: Record<string, string>) {
  const started = startQuire(['worker'], { DATABASE_URL: database.url, QUIRE_FETCH_ALLOW_PRIVATE_NETWORKS: 'true', ...settings }, WORKER_READY);
  onTestFinished(async () => {
    if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
    await started.exited;
  });
  await started.matched;
  return started;
}

async function changeRequest() {
  const { organization, token } = await createOrganizationWithOwner(db, { title: 'Poison', ownerEmail: `poison-${Date.now()}@example.test` });
  const space = (await http(base, token, 'POST', `/orgs/${organization.id}/spaces`, { title: 'Imports' })).body;
  const cr = (await http(base, token, 'POST', `/spaces/${space.id}/change-requests`, { subject: 'Import' })).body;
  const revision: string = (await http(base, token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}`)).body.revision;
  return { token, space, cr, revision };
}

const IMPORT = `mutation($cr: ID!, $url: String!) { importContent(changeRequest: $cr, url: $url, source: markdown) { id } }`;
const JOB = `query($id: ID!) { job(id: $id) { state attempts error { code message } } }`;

async function startImport(path: string) {
  const target = await changeRequest();
  const { importContent } = await gqlOk(base, target.token, IMPORT, { cr: target.cr.id, url: `${source.url}${path}` });
  return { ...target, jobId: importContent.id as string };
}

const row = (id: string) => db.job.findUniqueOrThrow({ where: { id } });

/** Polls until the job has finished (succeeded, failed or cancelled); answers its row. */
async function finished(id: string, timeout: number) {
  await expect.poll(async () => (await row(id)).state, { timeout, interval: 200 }).toMatch(/succeeded|failed|cancelled/);
  return row(id);
}

/** What the job's user sees, over REST and GraphQL; and that the change request is as it was. */
async function expectStopped(target: Awaited<ReturnType<typeof startImport>>, times: number, reason: RegExp) {
  const rest = (await http(base, target.token, 'GET', `/jobs/${target.jobId}`)).body;
  expect(rest).toMatchObject({ state: 'failed', attempts: times, error: { code: 'JOB_STOPPED' } });
  expect(rest.error.message).toMatch(new RegExp(`^The job was stopped ${times} times: `));
  expect(rest.error.message).toMatch(reason);
  const { job } = await gqlOk(base, target.token, JOB, { id: target.jobId });
  expect(job).toEqual({ state: 'failed', attempts: times, error: rest.error });
  const cr = `/spaces/${target.space.id}/change-requests/${target.cr.id}`;
  expect((await http(base, target.token, 'GET', cr)).body.revision).toBe(target.revision);
  expect((await http(base, target.token, 'GET', `${cr}/content/pages`)).body.pages).toEqual([]);
}

describe('poison-pill jobs', () => {
  it('fails a job whose worker is killed while running it, after QUIRE_JOB_MAX_ATTEMPTS runs', async () => {
    const settings = { QUIRE_JOB_STALE_SECONDS: '1', QUIRE_JOB_MAX_ATTEMPTS: '2', QUIRE_JOB_TIME_BUDGET_SECONDS: '60' };
    const target = await startImport('/hangs.md');
    for (const attempt of [1, 2]) {
      const running = await worker(settings);
      await expect.poll(async () => (await row(target.jobId)).attempts, { timeout: 30_000, interval: 100 }).toBe(attempt);
      expect((await row(target.jobId)).state).toBe('running');
      running.child.kill('SIGKILL'); // as the kernel's OOM killer, or an operator's kill -9 of a frozen process, would
      await running.exited;
    }
    // A new worker finds the job's worker gone: the job was stopped twice, so it is not run again.
    const last = await worker(settings);
    const job = await finished(target.jobId, 30_000);
    expect(job).toMatchObject({ state: 'failed', attempts: 2, errorCode: 'JOB_STOPPED' });
    await expectStopped(target, 2, /its worker stopped responding or ran past the time budget of 60 s/);
    last.child.kill('SIGTERM');
    await last.exited;
  }, 150_000);

  it('stops a run past QUIRE_JOB_TIME_BUDGET_SECONDS, retries it, then fails it; a job within its budget succeeds', async () => {
    const running = await worker({ QUIRE_JOB_STALE_SECONDS: '5', QUIRE_JOB_MAX_ATTEMPTS: '2', QUIRE_JOB_TIME_BUDGET_SECONDS: '2' });
    const hanging = await startImport('/hangs.md');
    const quick = await startImport('/quick.md');
    expect(await finished(quick.jobId, 30_000)).toMatchObject({ state: 'succeeded', attempts: 1 });
    const pages = (await http(base, quick.token, 'GET', `/spaces/${quick.space.id}/change-requests/${quick.cr.id}/content/pages`)).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Quick']);

    const started = Date.now();
    const job = await finished(hanging.jobId, 30_000);
    expect(job).toMatchObject({ state: 'failed', attempts: 2, errorCode: 'JOB_STOPPED' });
    expect(Date.now() - started).toBeLessThan(15_000); // two runs of 2 s and a retry delay, not the fetch's own timeout
    await expectStopped(hanging, 2, /time budget of 2 s/);
    running.child.kill('SIGTERM');
    await running.exited;
  }, 120_000);

  it('leaves an OpenAPI specification whose processing was given up complete with PARSE_ERROR, not in progress', async () => {
    const settings = { QUIRE_JOB_STALE_SECONDS: '1', QUIRE_JOB_MAX_ATTEMPTS: '1', QUIRE_JOB_TIME_BUDGET_SECONDS: '60' };
    const { organization, token } = await createOrganizationWithOwner(db, { title: 'Specs', ownerEmail: `specs-${Date.now()}@example.test` });
    const put = await http(base, token, 'PUT', `/orgs/${organization.id}/openapi/hangs`, { source: { url: `${source.url}/hangs.md` } });
    expect(put.status).toBe(201);
    const job = await db.job.findFirstOrThrow({ where: { organizationId: organization.id, kind: 'openapi_process' } });
    const running = await worker(settings);
    await expect.poll(async () => (await row(job.id)).state, { timeout: 30_000, interval: 100 }).toBe('running');
    await expect.poll(async () => (await http(base, token, 'GET', `/orgs/${organization.id}/openapi/hangs`)).body.processingState, { timeout: 10_000 }).toBe('progress');
    running.child.kill('SIGKILL');
    await running.exited;
    const last = await worker(settings);
    expect(await finished(job.id, 30_000)).toMatchObject({ state: 'failed', errorCode: 'JOB_STOPPED' });
    await expect.poll(async () => (await http(base, token, 'GET', `/orgs/${organization.id}/openapi/hangs`)).body.processingState, { timeout: 10_000 }).toBe('complete');
    const spec = await db.openAPISpec.findFirstOrThrow({ where: { organizationId: organization.id, slug: 'hangs' } });
    expect(spec).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrors: [{ message: expect.stringMatching(/^The job was stopped 1 time: /) }] });
    last.child.kill('SIGTERM');
    await last.exited;
  }, 120_000);
});
