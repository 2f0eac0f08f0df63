/**
 * The signal of one git operation: the job's own and the operation's total time (totalTimeMs)
 * as one, whose reason a person can read: the job's own when it is an ImportError, else CANCELLED;
 * FETCH_TIMEOUT naming the time once it runs out.
 */
import { ImportError } from '../import-readers/import-error.js';
import { GitError } from './errors.js';

/** The job's signal and the operation's total time as one signal whose reason is a GitError. */
export function operationSignal(job: AbortSignal, totalTimeMs: number): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const onAbort = () =>
    controller.abort(job.reason instanceof ImportError ? job.reason : new GitError('CANCELLED', 'The git operation was cancelled.'));
  const timer = setTimeout(
    () => controller.abort(new GitError('FETCH_TIMEOUT', `The git operation did not finish within ${formatDuration(totalTimeMs)}.`)),
    totalTimeMs,
  );
  timer.unref();
  if (job.aborted) onAbort();
  else job.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    release: () => {
      clearTimeout(timer);
      job.removeEventListener('abort', onAbort);
    },
  };
}

const formatDuration = (ms: number) => (ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${+(ms / 1000).toFixed(1)} s`);
