/**
 * Jobs: the runner's rules (claim, success in the handler's transaction, failure reasons, retries,
 * cancellation, a lost worker taken back), the queue and its schedule, and jobs in the API
 * (`job(id)`, `Space.jobs`, `Organization.jobs`, `cancelJob`, `GET /v1/jobs/{id}`) with their
 * access rules. Runner rules run jobs directly (rows without a queue entry), so no worker of
 * another test file can take them; the queue tests go through a real graphile-worker runner.
 */
import { quickAddJob } from 'graphile-worker';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { ImportError } from '../src/lib/import-readers/import-error.js';
import { newId } from '../src/domain/kernel/ids.js';
import type { JobKind } from '../src/generated/prisma/client.js';
import type { Db } from '../src/db/client.js';
import { createEventBus, type JobEvent } from '../src/events/bus.js';
import { runJob, type JobHandler, type JobServices } from '../src/jobs/runner.js';
import { recoverLostJobs } from '../src/jobs/sweeper.js';
import { waitForJob } from '../src/jobs/wait.js';
import { silentLogger } from '../src/observability/logger.js';
import { gql, gqlOk, http, sdk } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer({ worker: true });

function services(): JobServices & { events: ReturnType<typeof createEventBus>; seen: JobEvent[] } {
  const events = createEventBus();
  const seen: JobEvent[] = [];
  const original = events.publishJob.bind(events);
  events.publishJob = (event) => (seen.push(event), original(event));
  return { db: server.db, events, seen, logger: silentLogger(), config: loadConfig({ QUIRE_JOB_STALE_SECONDS: '1' }) };
}

/** A job row with no queue entry: only this test runs it. */
async function jobRow(kind: JobKind, opts: { organizationId: string; spaceId?: string; createdById?: string | null }) {
  return server.db.job.create({ data: { id: newId('Job'), kind, organizationId: opts.organizationId, spaceId: opts.spaceId ?? null, createdById: opts.createdById ?? null } });
}

const helpers = (workerId = 'test-worker') => ({ job: { locked_by: workerId } as never });

/** `db`, whose raw statements (in its transactions too) each wait `ms` before they are sent. */
function slowQueries(db: Db, ms: number): Db {
  const slow = <T extends object>(client: T): T =>
    new Proxy(client, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        if (key === '$queryRaw' || key === '$executeRaw')
          return async (...args: unknown[]) => (await new Promise((resolve) => setTimeout(resolve, ms)), value.apply(target, args));
        if (key === '$transaction') return (fn: (tx: object) => unknown) => value.call(target, (tx: object) => fn(slow(tx)));
        return value.bind(target);
      },
    });
  return slow(db);
}

async function space(orgId: string, token: string) {
  return (await sdk(server.url, token).orgs.createSpace(orgId, { title: 'Jobs' })).data;
}

describe('the job runner', () => {
  it('runs a job once: the handler marks it succeeded in its own transaction, a second run does nothing', async () => {
    const { org, owner } = await createOrg(server.db);
    const job = await jobRow('import', { organizationId: org.id, createdById: owner.id });
    const s = services();
    let runs = 0;
    const handler: JobHandler = async ({ progress, complete, access }) => {
      runs++;
      expect(access?.userId).toBe(owner.id);
      progress(1, 2, 'halfway');
      await new Promise((r) => setTimeout(r, 250));
      await s.db.$transaction((tx) => complete(tx, { done: true }));
    };
    await runJob(s, { import: handler }, job.id, helpers());
    await runJob(s, { import: handler }, job.id, helpers());
    expect(runs).toBe(1);
    const done = await server.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(done).toMatchObject({ state: 'succeeded', result: { done: true }, attempts: 1, workerId: 'test-worker', message: 'Done' });
    expect(done.startedAt).toBeInstanceOf(Date);
    expect(done.finishedAt).toBeInstanceOf(Date);
    // Every change was published, in order, ending with the success.
    expect(s.seen.map((e) => e.state)).toEqual(expect.arrayContaining(['running', 'succeeded']));
    expect(s.seen.some((e) => e.done === 1 && e.total === 2 && e.message === 'halfway')).toBe(true);
    expect(s.seen.map((e) => e.version)).toEqual([...s.seen.map((e) => e.version)].sort((a, b) => a - b));
    await s.events.close();
  });

  it('ends an import failure at once with its reason code, without retrying', async () => {
    const { org, owner } = await createOrg(server.db);
    const job = await jobRow('import', { organizationId: org.id, createdById: owner.id });
    const s = services();
    await runJob(s, { import: async () => { throw new ImportError('HTTP_ERROR', 'The server answered 404'); } }, job.id, helpers());
    expect(await server.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ state: 'failed', errorCode: 'HTTP_ERROR', errorMessage: 'The server answered 404', attempts: 1 });
    await s.events.close();
  });

  it('retries an internal error (the queue runs it again), then fails with INTERNAL_ERROR; the error text stays out of the job', async () => {
    const { org, owner } = await createOrg(server.db);
    const job = await jobRow('import', { organizationId: org.id, createdById: owner.id });
    const s = services();
    const broken: JobHandler = async () => {
      throw new Error('relation "secret_table" does not exist');
    };
    for (let attempt = 1; attempt <= 2; attempt++) {
      await expect(runJob(s, { import: broken }, job.id, helpers())).rejects.toThrow(/secret_table/);
      expect(await server.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ state: 'queued', attempts: attempt, message: 'Retrying after an internal error' });
    }
    await runJob(s, { import: broken }, job.id, helpers());
    const failed = await server.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(failed).toMatchObject({ state: 'failed', errorCode: 'INTERNAL_ERROR', attempts: 3 });
    expect(JSON.stringify(failed)).not.toContain('secret_table');
    await s.events.close();
  });

  it('cancels a running job: its signal aborts, and its final transaction refuses to commit', async () => {
    const { org, owner } = await createOrg(server.db);
    const spc = await space(org.id, owner.token);
    const job = await jobRow('import', { organizationId: org.id, spaceId: spc.id, createdById: owner.id });
    const s = services();
    let committed = false;
    const slow: JobHandler = async ({ signal, complete }) => {
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
      await s.db.$transaction(async (tx) => {
        await complete(tx, {});
        committed = true;
      });
    };
    const running = runJob(s, { import: slow }, job.id, helpers());
    await expect.poll(async () => (await server.db.job.findUniqueOrThrow({ where: { id: job.id } })).state).toBe('running');
    const cancelled = await gqlOk(server.url, owner.token, 'mutation($id: ID!) { cancelJob(id: $id) { state cancelRequested message } }', { id: job.id });
    expect(cancelled.cancelJob).toMatchObject({ state: 'running', cancelRequested: true, message: 'Cancelling' });
    await running;
    expect(committed).toBe(false);
    expect(await server.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ state: 'cancelled', errorCode: 'CANCELLED' });
    // A finished job cannot be cancelled again.
    const again = await gql(server.url, owner.token, 'mutation($id: ID!) { cancelJob(id: $id) { state } }', { id: job.id });
    expect(again.errors?.[0].extensions?.code).toBe('CONFLICT');
    await s.events.close();
  });

  it('takes back a job whose worker stopped (heartbeat stale): run again elsewhere, the old worker cannot commit; too many losses fail it', async () => {
    const { org, owner } = await createOrg(server.db);
    const job = await jobRow('import', { organizationId: org.id, createdById: owner.id });
    const s = services();
    // A worker that claimed the job, then went silent (its heartbeat a minute old).
    await server.db.job.update({ where: { id: job.id }, data: { state: 'running', workerId: 'dead-worker', attempts: 1, heartbeatAt: new Date(Date.now() - 60_000) } });
    // Any worker's sweeper may be the one that takes it back (test files share the database).
    await recoverLostJobs(server.db, s.events, 1000);
    expect(await server.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ state: 'queued', message: 'The worker running it stopped; it will be run again' });
    // Another worker runs it; the dead one, waking up, can no longer complete it.
    await runJob(s, { import: async ({ complete }) => s.db.$transaction((tx) => complete(tx, { by: 'second' })) }, job.id, helpers('second-worker'));
    expect(await server.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ state: 'succeeded', result: { by: 'second' }, attempts: 2, workerId: 'second-worker' });

    const doomed = await jobRow('import', { organizationId: org.id, createdById: owner.id });
    await server.db.job.update({ where: { id: doomed.id }, data: { state: 'running', workerId: 'dead-worker', attempts: 3, heartbeatAt: new Date(Date.now() - 60_000) } });
    await recoverLostJobs(server.db, s.events, 1000);
    expect(await server.db.job.findUniqueOrThrow({ where: { id: doomed.id } })).toMatchObject({ state: 'failed', errorCode: 'JOB_STOPPED' });
    await s.events.close();
  });

  it('never requeues a job at its last attempt whose heartbeat turns stale during a sweep: it fails at the next one', async () => {
    const { org, owner } = await createOrg(server.db);
    const job = await jobRow('import', { organizationId: org.id, createdById: owner.id });
    const s = services();
    await server.db.$executeRaw`UPDATE "Job" SET "state" = 'running', "workerId" = 'dying-worker', "attempts" = 3, "heartbeatAt" = now() WHERE "id" = ${job.id}`;
    // Each statement of this sweep waits 150 ms: with a staleness of 200 ms, the heartbeat is fresh
    // for the first and stale for the second, unless the sweep reads one clock (one transaction).
    await recoverLostJobs(slowQueries(server.db, 150), s.events, 200, { jobMaxAttempts: 3, jobTimeBudgetMs: 60_000 });
    expect(await server.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ state: 'running', attempts: 3 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    await recoverLostJobs(server.db, s.events, 200, { jobMaxAttempts: 3, jobTimeBudgetMs: 60_000 });
    expect(await server.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ state: 'failed', errorCode: 'JOB_STOPPED', attempts: 3 });
    await s.events.close();
  });
});

describe('jobs in the API', () => {
  it('copies a space through a job, visible in Space.jobs, Organization.jobs, job(id) and GET /v1/jobs/{id}', async () => {
    const { org, owner } = await createOrg(server.db);
    const original = await space(org.id, owner.token);
    const copy = (await sdk(server.url, owner.token).spaces.duplicateSpace(original.id)).data;
    expect(copy.title).toBe('Jobs (copy)');
    const data = await gqlOk(
      server.url,
      owner.token,
      `query($space: ID!, $org: ID!) {
        space(id: $space) { jobs(first: 5) { totalCount edges { node { id kind state result progress { done total } createdBy { id } space { id } } } } }
        organization(id: $org) { jobs(first: 5) { totalCount edges { node { id } } } }
      }`,
      { space: original.id, org: org.id },
    );
    const [job] = data.space.jobs.edges.map((e: { node: unknown }) => e.node);
    expect(data.space.jobs.totalCount).toBe(1);
    expect(job).toMatchObject({ kind: 'space_duplicate', state: 'succeeded', result: { spaceId: copy.id }, createdBy: { id: owner.id }, space: { id: original.id } });
    expect(data.organization.jobs.edges.map((e: { node: { id: string } }) => e.node.id)).toContain(job.id);
    const rest = await http(server.url, owner.token, 'GET', `/jobs/${job.id}`);
    expect(rest).toMatchObject({ status: 200, body: { object: 'job', id: job.id, kind: 'space_duplicate', state: 'succeeded', space: original.id, createdBy: owner.id } });
  });

  it('shows a job only to who may see its space (or an organization admin): another organization gets not found', async () => {
    const { org, owner } = await createOrg(server.db);
    const spc = await space(org.id, owner.token);
    const job = await jobRow('import', { organizationId: org.id, spaceId: spc.id, createdById: owner.id });
    const other = await createOrg(server.db);
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    for (const token of [other.owner.token, guest.token]) {
      const result = await gql(server.url, token, 'query($id: ID!) { job(id: $id) { id } }', { id: job.id });
      expect(result.errors?.[0].extensions?.code).toBe('NOT_FOUND');
      expect((await http(server.url, token, 'POST', `/jobs/${job.id}/cancel`)).status).toBe(404);
    }
    const orgJobs = await gql(server.url, other.owner.token, 'query($id: ID!) { organization(id: $id) { jobs(first: 1) { totalCount } } }', { id: org.id });
    expect(orgJobs.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    // A reader sees the space's job but may not cancel it.
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    expect((await gqlOk(server.url, reader.token, 'query($id: ID!) { job(id: $id) { id } }', { id: job.id })).job.id).toBe(job.id);
    expect((await http(server.url, reader.token, 'POST', `/jobs/${job.id}/cancel`)).status).toBe(403);
    // Cancelling a queued job ends it at once.
    expect((await http(server.url, owner.token, 'POST', `/jobs/${job.id}/cancel`)).body).toMatchObject({ state: 'cancelled', error: { code: 'CANCELLED' } });
  });

  it('runs the hourly purge schedule through the queue: one purge job per expired space', async () => {
    const { org, owner } = await createOrg(server.db);
    const expired = await space(org.id, owner.token);
    await sdk(server.url, owner.token).spaces.deleteSpaceById(expired.id);
    await server.db.space.update({ where: { id: expired.id }, data: { deletedAt: new Date(Date.now() - 8 * 24 * 3600 * 1000) } });
    await quickAddJob({ connectionString: server.databaseUrl }, 'purge_deleted_spaces', {});
    await expect.poll(() => server.db.job.findFirst({ where: { spaceId: expired.id, kind: 'space_purge' } }), { timeout: 20_000, interval: 250 }).not.toBeNull();
    const job = await server.db.job.findFirstOrThrow({ where: { spaceId: expired.id, kind: 'space_purge' } });
    expect(await waitForJob(server.db, server.events, job.id, 20_000)).toMatchObject({ state: 'succeeded' });
    expect(await server.db.space.findUnique({ where: { id: expired.id } })).toBeNull();
  });
});
