/**
 * What a job handler is given and must be (jobs/handlers/*): the services, the job's row, its
 * signal, its creator's access, progress and the final `complete`. Apart from the runner
 * (runner.ts) that builds it, so handlers and the runner's own modules import it without a cycle.
 */
import type { Prisma } from '../generated/prisma/client.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Access } from '../domain/access/access.js';
import type { JobRow } from '../domain/work/jobs/rows.js';
import type { Mailer } from '../domain/people/mail/index.js';
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../observability/logger.js';

export type JobServices = {
  db: Db;
  events: EventBus;
  logger: Logger;
  config: Pick<
    Config,
    'dataDir' | 'fileStore' | 's3' | 'fileGcGraceMs' | 'fileGcIntervalMs' | 'fetchAllowPrivateNetworks' | 'jobStaleMs' | 'jobMaxAttempts' | 'jobTimeBudgetMs' | 'secret' | 'gitCommitter' | 'gitLimits' | 'publicUrl' | 'appUrl' | 'smtpUrl' | 'smtpFrom' | 'webhooks' | 'dnsServers'
  >;
  /** Outgoing mail (mentions, webhook endpoints turned off); the worker makes one from the config when not given. */
  mailer?: Mailer;
};

export type JobContext = {
  job: JobRow;
  services: JobServices;
  /** Aborted when the job is cancelled, taken over, past its time budget, or the worker stops: stop and throw. */
  signal: AbortSignal;
  /** The user who started the job, with their access as of now (null for the server's own jobs). */
  access: Access | null;
  /** Progress for subscribers; cheap (written at most every PROGRESS_EVERY_MS). */
  progress(done: number, total?: number | null, message?: string): void;
  /**
   * Inside the handler's final transaction: marks the job succeeded with `result`. Throws — rolling
   * the transaction back — when the job was cancelled or taken over meanwhile. `progress`, when
   * given, is the job's final progress (so it ends consistent with the result).
   */
  complete(tx: Prisma.TransactionClient, result: Prisma.InputJsonObject, progress?: { done: number; total: number }): Promise<void>;
};

export type JobHandler = (context: JobContext) => Promise<void>;
