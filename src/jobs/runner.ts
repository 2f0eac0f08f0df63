/**
 * Runs one job (graphile-worker task `run_job`, payload `{jobId}`): claims its row, runs its
 * kind's handler with a heartbeat, progress and cancellation, and records how it ended. Every
 * change of the row is published to the job's subscribers once committed.
 *
 * Idempotent: a job already finished is not run again. A handler writes what it produces in one
 * final transaction that also marks the job succeeded (`complete`), and that transaction refuses
 * to commit when the job was cancelled or taken over meanwhile — so a job's work lands at most
 * once, and a crash before it leaves nothing behind. Every write of a run is fenced by its attempt
 * number, so a run that was given up (taken back, or stopped past its budget) can write nothing
 * even in the same worker as the run that replaced it. Expected failures (an import's reason
 * code, a refused access) end the job `failed` at once; an internal error, or a run past the time
 * budget (its signal aborted; the runner does not wait for a handler that ignores it), is retried
 * until QUIRE_JOB_MAX_ATTEMPTS runs have started (attempts.ts).
 */
import type { JobHelpers } from 'graphile-worker';
import { Prisma } from '../generated/prisma/client.js';
import type { Db } from '../db/client.js';
import { Access } from '../domain/access/access.js';
import { AppError } from '../lib/errors.js';
import { ImportError } from '../lib/import-readers/import-error.js';
import { recordJobsFinished } from '../domain/work/jobs/finished.js';
import { jobEvent, type JobRow } from '../domain/work/jobs/rows.js';
import { createLoaders } from '../domain/loaders/index.js';
import { JOB_STOPPED, overBudget, stoppedReason } from './attempts.js';
import { afterGivenUp } from './given-up.js';
import type { JobContext, JobHandler, JobServices } from './handler.js';

export type { JobContext, JobHandler, JobServices };

const { sql } = Prisma;

const PROGRESS_EVERY_MS = 200;

/** Why the handler's signal was aborted. */
const STOPPED_BECAUSE = { cancelled: 'The job was cancelled', lost: 'The job was taken over by another worker', shutdown: 'The worker is stopping', budget: 'The run took longer than its time budget' };
class Stop extends Error {
  constructor(readonly why: keyof typeof STOPPED_BECAUSE) {
    super(STOPPED_BECAUSE[why]);
  }
}

/** The job's end: what it failed with, as a reason code and a message fit for its user. */
function failureOf(error: unknown): { code: string; message: string } | null {
  if (error instanceof ImportError) return { code: error.code, message: error.message };
  if (error instanceof AppError && error.status < 500) return { code: error.code, message: error.message };
  return null;
}

/** A job acts for who started it, within its own organization only (domain/access/reach.ts). */
function accessOfCreator(db: Db, job: JobRow): Access | null {
  if (!job.createdById) return null;
  const reach = { confinedTo: job.organizationId };
  return new Access(createLoaders(db, job.createdById, reach), job.createdById, reach);
}

export async function runJob(services: JobServices, handlers: Record<string, JobHandler>, jobId: string, helpers: Pick<JobHelpers, 'job' | 'abortSignal'>): Promise<void> {
  const { db, events, logger, config } = services;
  let attempt = 0; // this run's, once claimed: every later write is fenced by it
  const workerId = helpers.job.locked_by ?? 'unknown';
  const publish = (job: JobRow | undefined) => job && events.publishJob(jobEvent(job));

  /** The fence of every write of this run: the row is still running, in this worker, on this attempt. */
  const ours = () => sql`"id" = ${jobId} AND "workerId" = ${workerId} AND "attempts" = ${attempt} AND "state" = 'running'`;
  /** Updates the row while this run holds it; answers it, or undefined when it no longer does. */
  const update = async (set: Prisma.Sql): Promise<JobRow | undefined> => {
    const [row] = await db.$queryRaw<JobRow[]>`UPDATE "Job" SET ${set}, "version" = "version" + 1, "updatedAt" = now() WHERE ${ours()} RETURNING *`;
    publish(row);
    return row;
  };
  /** The run's last update: a job that ends records `jobFinished` in the same transaction. */
  const finish = async (set: Prisma.Sql): Promise<JobRow | undefined> => {
    const row = await db.$transaction(async (tx) => {
      const [ended] = await tx.$queryRaw<JobRow[]>`UPDATE "Job" SET ${set}, "version" = "version" + 1, "updatedAt" = now() WHERE ${ours()} RETURNING *`;
      await recordJobsFinished(tx, [ended]);
      return ended;
    });
    publish(row);
    return row;
  };
  /** How this run ended, for the log: the row's state, or `lost` when another worker holds it now. */
  let outcome: 'succeeded' | 'failed' | 'cancelled' | 'queued' | 'lost' = 'lost';
  const end = async (state: 'succeeded' | 'failed' | 'cancelled' | 'queued', fields: { errorCode?: string | null; message: string; errorMessage?: string | null }) => {
    const row = await finish(sql`"state" = ${state}::"JobState", "errorCode" = ${fields.errorCode ?? null}, "errorMessage" = ${fields.errorMessage ?? null}, "message" = ${fields.message}, "finishedAt" = ${state === 'queued' ? null : new Date()}, "secret" = ${state === 'queued' ? sql`"secret"` : null}`);
    if (row) outcome = state;
    return row;
  };

  const [claimed] = await db.$queryRaw<JobRow[]>`
    UPDATE "Job" SET "state" = 'running', "attempts" = "attempts" + 1, "startedAt" = COALESCE("startedAt", now()), "workerId" = ${workerId},
      "heartbeatAt" = now(), "message" = 'Running', "errorCode" = NULL, "errorMessage" = NULL, "version" = "version" + 1, "updatedAt" = now()
    WHERE "id" = ${jobId} AND "state" IN ('queued', 'running') AND NOT "cancelRequested" RETURNING *`;
  if (!claimed) {
    // Finished already (a repeated run), gone with its organization, or cancelled before it ran.
    const cancelled = await db.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<JobRow[]>`
        UPDATE "Job" SET "state" = 'cancelled', "errorCode" = 'CANCELLED', "message" = 'Cancelled', "finishedAt" = now(), "secret" = NULL, "version" = "version" + 1, "updatedAt" = now()
        WHERE "id" = ${jobId} AND "state" IN ('queued', 'running') AND "cancelRequested" RETURNING *`;
      await recordJobsFinished(tx, [row]);
      return row;
    });
    publish(cancelled);
    return;
  }
  publish(claimed);
  attempt = claimed.attempts;
  const startedAt = performance.now();
  logger.info({ jobId, kind: claimed.kind, attempt }, 'job started');
  const handler = handlers[claimed.kind];

  const controller = new AbortController();
  const stop = (why: Stop['why']) => !controller.signal.aborted && controller.abort(new Stop(why));
  const onShutdown = () => stop('shutdown');
  helpers.abortSignal?.addEventListener('abort', onShutdown);
  const budget = setTimeout(() => stop('budget'), config.jobTimeBudgetMs);
  // Past its budget, the run is given up whether or not the handler notices its signal.
  const pastBudget = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => (controller.signal.reason as Stop).why === 'budget' && reject(controller.signal.reason)));
  pastBudget.catch(() => {});

  // The heartbeat says this worker is alive (jobs/sweeper.ts takes back jobs whose heartbeat
  // stops) and is where a cancellation asked through the database is noticed.
  const beatEvery = Math.max(200, Math.min(1000, services.config.jobStaleMs / 3));
  const heartbeat = setInterval(() => {
    db.$queryRaw<{ cancelRequested: boolean }[]>`UPDATE "Job" SET "heartbeatAt" = now() WHERE ${ours()} RETURNING "cancelRequested"`
      .then(([row]) => (!row ? stop('lost') : row.cancelRequested ? stop('cancelled') : undefined))
      .catch((error: Error) => logger.warn({ err: { message: error.message }, jobId }, 'job heartbeat failed'));
  }, beatEvery);

  let pending: { done: number; total: number | null; message: string } | null = null;
  let lastWrite = 0;
  let flushing: Promise<unknown> = Promise.resolve();
  const flush = () => {
    const next = pending;
    pending = null;
    lastWrite = Date.now();
    if (next) flushing = flushing.then(() => update(sql`"progressDone" = ${next.done}, "progressTotal" = ${next.total}, "message" = ${next.message}`)).catch(() => {});
  };
  let timer: NodeJS.Timeout | undefined;
  let completed = false;

  const context: JobContext = {
    job: claimed,
    services,
    signal: controller.signal,
    access: accessOfCreator(db, claimed),
    progress(done, total = null, message) {
      pending = { done, total, message: message ?? pending?.message ?? 'Running' };
      const wait = PROGRESS_EVERY_MS - (Date.now() - lastWrite);
      if (wait <= 0) flush();
      else timer ??= setTimeout(() => ((timer = undefined), flush()), wait);
    },
    async complete(tx, result, progress) {
      const rows = await tx.$queryRaw<JobRow[]>`
        UPDATE "Job" SET "state" = 'succeeded', "result" = ${JSON.stringify(result)}::jsonb, "message" = 'Done', "finishedAt" = now(), "secret" = NULL, "version" = "version" + 1, "updatedAt" = now(),
          "progressDone" = COALESCE(${progress?.done ?? null}::int, "progressDone"), "progressTotal" = COALESCE(${progress?.total ?? null}::int, "progressTotal")
        WHERE ${ours()} AND NOT "cancelRequested" RETURNING *`;
      if (rows.length !== 1) throw new Stop('lost');
      await recordJobsFinished(tx, rows);
      completed = true;
    },
  };

  try {
    if (!handler) throw new AppError('BAD_REQUEST', `No handler for jobs of kind ${claimed.kind}`);
    const running = handler(context);
    running.catch(() => {}); // when given up past its budget, its end is no longer awaited
    await Promise.race([running, pastBudget]);
    clearTimeout(timer);
    await flushing;
    if (completed) {
      outcome = 'succeeded';
      publish((await db.job.findUnique({ where: { id: jobId } })) ?? undefined);
    } else if (await finish(sql`"state" = 'succeeded', "message" = 'Done', "finishedAt" = now(), "secret" = NULL`)) outcome = 'succeeded';
  } catch (error) {
    clearTimeout(timer);
    await flushing;
    const why = controller.signal.aborted ? (controller.signal.reason as Stop).why : error instanceof Stop ? error.why : null;
    const cancelAsked = why === 'cancelled' || (await db.job.findUnique({ where: { id: jobId }, select: { cancelRequested: true } }))?.cancelRequested;
    if (cancelAsked) {
      await end('cancelled', { errorCode: 'CANCELLED', message: 'Cancelled' });
      return;
    }
    if (why === 'lost') return; // another worker runs it now
    const failure = why ? null : failureOf(error);
    if (failure) {
      await end('failed', { errorCode: failure.code, errorMessage: failure.message, message: 'Failed' });
      return;
    }
    if (!why) logger.error({ err: error, jobId, kind: claimed.kind }, 'job failed with an internal error');
    if (why === 'budget') logger.warn({ jobId, kind: claimed.kind, attempt, budgetMs: config.jobTimeBudgetMs }, 'job run stopped past its time budget');
    if (attempt < config.jobMaxAttempts) {
      const message = why === 'shutdown' ? 'The worker stopped; the job will be retried' : why === 'budget' ? `${overBudget(config)}; it will be run again` : 'Retrying after an internal error';
      await end('queued', { message });
      throw error instanceof Error ? error : new Error(String(error)); // graphile-worker retries it, with backoff
    }
    const given = why
      ? await end('failed', { errorCode: JOB_STOPPED, errorMessage: stoppedReason(attempt, config), message: 'Failed' })
      : await end('failed', { errorCode: 'INTERNAL_ERROR', errorMessage: 'An internal error stopped the job', message: 'Failed' });
    if (given) await afterGivenUp(db, given, logger);
  } finally {
    clearTimeout(budget);
    clearInterval(heartbeat);
    helpers.abortSignal?.removeEventListener('abort', onShutdown);
    // `queued`: it will be run again; `lost`: another worker took it over.
    logger.info({ jobId, kind: claimed.kind, attempt, state: outcome, durationMs: Math.round(performance.now() - startedAt) }, 'job ended');
  }
}

