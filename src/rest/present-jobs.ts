/** Jobs over REST (a quire addition: the public document has none), and the import answer. */
import { jobResult, type JobOutcome } from '../jobs/outcome.js';

export const JOB_FRAGMENT = `fragment RestJob on Job {
  id kind state progress { done total } message error { code message } result attempts
  spaceId changeRequest { id } createdBy { id } createdAt startedAt finishedAt urls { location }
}`;

type JobData = {
  id: string;
  kind: string;
  state: string;
  progress: { done: number; total: number | null };
  message: string | null;
  error: { code: string; message: string } | null;
  result: unknown;
  attempts: number;
  spaceId: string | null;
  changeRequest: { id: string } | null;
  createdBy: { id: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  urls: { location: string };
};

export const presentJob = (j: JobData) => ({
  object: 'job',
  id: j.id,
  kind: j.kind,
  state: j.state,
  progress: j.progress,
  ...(j.message ? { message: j.message } : {}),
  ...(j.error ? { error: j.error } : {}),
  ...(j.result ? { result: j.result } : {}),
  attempts: j.attempts,
  ...(j.spaceId ? { space: j.spaceId } : {}),
  ...(j.changeRequest ? { changeRequest: j.changeRequest.id } : {}),
  ...(j.createdBy ? { createdBy: j.createdBy.id } : {}),
  createdAt: j.createdAt,
  ...(j.startedAt ? { startedAt: j.startedAt } : {}),
  ...(j.finishedAt ? { finishedAt: j.finishedAt } : {}),
  urls: j.urls,
});

const running = (j: JobData) => j.state === 'queued' || j.state === 'running';

/**
 * The documented import answer `{revision, importedResources, totalResources}` once the job has
 * succeeded; its failure as an error; while it still runs, the job itself (with 202 and its
 * `Location`, see importStatus and importHeaders).
 */
export function presentImport(job: JobData) {
  if (running(job)) return presentJob(job);
  const { revision, importedResources, totalResources } = jobResult<{ revision: string; importedResources: number; totalResources: number }>({
    id: job.id,
    state: job.state as JobOutcome['state'],
    result: job.result as JobOutcome['result'],
    errorCode: job.error?.code ?? null,
    errorMessage: job.error?.message ?? null,
    message: job.message,
  });
  // The documented fields only (a job's result may say more, e.g. an import's warnings).
  return { revision, importedResources, totalResources };
}

export const importStatus = (job: JobData) => (running(job) ? 202 : 200);
export const importHeaders = (job: JobData): Record<string, string> => (running(job) ? { location: job.urls.location } : {});

