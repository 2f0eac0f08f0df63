/** Jobs as stored, and the event a change of one publishes. */
import type { Job, JobState } from '../../../generated/prisma/client.js';

export type JobRow = Job;

/**
 * A job's state as it changed (jobs/runner.ts publishes one after each committed update). Job
 * progress is not content: the event carries it, and `version` orders events (a subscriber drops
 * one older than what it has sent).
 */
export type JobEvent = {
  id: string;
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  done: number;
  total: number | null;
  message: string | null;
  version: number;
};

const FINISHED: readonly JobState[] = ['succeeded', 'failed', 'cancelled'];

/** Succeeded, failed or cancelled: nothing about the job changes any more. */
export const isFinished = (state: JobState): boolean => FINISHED.includes(state);

export const jobEvent = (job: JobRow): JobEvent => ({
  id: job.id,
  state: job.state,
  done: job.progressDone,
  total: job.progressTotal,
  message: job.message,
  version: job.version,
});
