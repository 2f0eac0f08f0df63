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

/** Starts the job runner; the first start's failure is the caller's, later ones are retried. */
export async function startWorker(url: string, given: JobServices): Promise<Worker> {
  const { logger, config } = given;
  const mailer = given.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.smtpFrom, logger });
  const services: JobServices = { ...given, mailer };
  let current: RunnerPools | undefined = await startRunnerPools(url, services);

  let stopping = false;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const pause = (ms: number) => Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, ms))]);
  const supervise = async () => {
    while (current && !stopping) {
      const why = await Promise.race([current.failed, stopped]);
      if (stopping) return;
      logger.warn({ reason: why }, 'job runner stopped; starting it again');
      const broken = current;
      current = undefined;
      await broken.stop();
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
