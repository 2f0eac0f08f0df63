/**
 * Background jobs on graphile-worker (a Postgres-backed queue in the same database), supervised:
 * what runs is in tasks.ts, one start of the runner in runner-pools.ts. When a start can no longer run
 * jobs — a database outage left its pools without workers — it is stopped and another started,
 * after 1 s and then up to 30 s between tries while the database does not answer. A server whose
 * PostgreSQL restarted thus runs jobs again by itself, as it serves requests again by itself.
 */
import { createMailer } from '../domain/people/mail/index.js';
import type { JobServices } from './runner.js';
import { startRunnerPools, type RunnerPools } from './runner-pools.js';

export type Worker = { stop(): Promise<void>; /** Settles once stopped. */ promise: Promise<void> };

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;
const STOP_WAIT_MS = 30_000;

/** Starts the job runner; the first start's failure is the caller's, later ones are retried. */
export async function startWorker(url: string, given: JobServices): Promise<Worker> {
  const { logger, config } = given;
  const mailer = given.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.smtpFrom, logger });
  const services: JobServices = { ...given, mailer };
  let current: RunnerPools | undefined = await startRunnerPools(url, services);

  let stopping = false;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  // Unreferenced timers: a wait cut short by `stop` keeps nothing alive.
  const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(resolve, ms, value).unref());
  const pause = (ms: number) => Promise.race([stopped, after(ms, undefined)]);
  const supervise = async () => {
    while (current && !stopping) {
      const why = await Promise.race([current.failed, stopped]);
      if (stopping) return;
      logger.warn({ reason: why }, 'job runner stopped; starting it again');
      const broken = current;
      current = undefined;
      // Its running jobs are stopped (and retried) after graphile-worker's grace period; a stop that
      // still hangs on the database is left behind rather than keeping the jobs from running again.
      const stoppedInTime = await Promise.race([broken.stop().then(() => true), after(STOP_WAIT_MS, false)]);
      if (!stoppedInTime) logger.warn({ waitedMs: STOP_WAIT_MS }, 'the stopped job runner is still releasing its connections; starting the next one meanwhile');
      for (let delay = FIRST_RETRY_MS; !current && !stopping; delay = Math.min(delay * 2, LAST_RETRY_MS)) {
        await pause(delay);
        if (stopping) return;
        current = await startRunnerPools(url, services).catch((error: Error) => {
          logger.warn({ err: { message: error.message }, retryInMs: Math.min(delay * 2, LAST_RETRY_MS) }, 'job runner could not start; trying again');
          return undefined;
        });
      }
      if (current) logger.info('job runner started again');
    }
  };
  const supervising = supervise();

  return {
    promise: supervising.then(() => stopped),
    async stop() {
      stopping = true;
      stop();
      await supervising;
      await current?.stop();
      current = undefined;
      if (!given.mailer) await mailer.close();
    },
  };
}
