/**
 * A finished job as the answer of an operation that waited for it (a space copy, a REST import):
 * its result, or its failure as the API's one error type.
 */
import { AppError, ERROR_STATUS, type ErrorCode } from '../lib/errors.js';
import { IMPORT_ERROR_CODES } from '../lib/import-readers/import-error.js';
import { isFinished, type JobRow } from '../domain/work/jobs/rows.js';
import { JOB_STOPPED } from './attempts.js';

export type JobOutcome = Pick<JobRow, 'id' | 'state' | 'result' | 'errorCode' | 'errorMessage' | 'message'>;

export function jobFailure(job: JobOutcome): AppError {
  const code = job.errorCode ?? 'INTERNAL_ERROR';
  const message = job.errorMessage ?? job.message ?? 'The job failed';
  if (code === 'CANCELLED') return new AppError('CONFLICT', 'The job was cancelled');
  if (code === JOB_STOPPED) return new AppError('TIMEOUT', message);
  if ((IMPORT_ERROR_CODES as readonly string[]).includes(code)) return new AppError('BAD_REQUEST', `The import failed (${code}): ${message}`, 'url');
  if (code in ERROR_STATUS && code !== 'INTERNAL') return new AppError(code as ErrorCode, message);
  return new AppError('INTERNAL', 'The job failed with an internal error');
}

/** The job's result when it succeeded; its failure thrown otherwise, or a 504 naming it while it still runs. */
export function jobResult<T>(job: JobOutcome): T {
  if (job.state === 'succeeded') return job.result as T;
  if (isFinished(job.state)) throw jobFailure(job);
  throw new AppError('TIMEOUT', `The job ${job.id} is still running: follow it with the job query or subscription`);
}
