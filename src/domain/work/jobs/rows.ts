/** Jobs as stored, and the event a change of one publishes. */
import type { Job, JobState } from '../../../generated/prisma/client.js';
import type { JobEvent } from '../../../events/bus.js';

export type JobRow = Job;

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
