/** The space jobs: a copy (started by `duplicateSpace`) and a purge (queued by the hourly schedule). */
import { forbidden } from '../../lib/errors.js';
import { duplicateSpace } from '../../domain/content/spaces/duplicate.js';
import { purgeSpace } from '../../domain/content/spaces/trash.js';
import type { JobHandler } from '../handler.js';

export const runSpaceDuplicate: JobHandler = async ({ job, services, access, complete, progress }) => {
  if (!access || !job.spaceId) throw forbidden();
  const copyId = String((job.input as { copyId?: unknown }).copyId);
  progress(0, 1, 'Copying the space');
  await duplicateSpace(services.db, access, job.spaceId, { copyId, inside: (tx) => complete(tx, { spaceId: copyId }) });
};

export const runSpacePurge: JobHandler = async ({ job, services, complete }) => {
  if (!job.spaceId) return;
  const spaceId = job.spaceId;
  await services.db.$transaction(async (tx) => {
    const purged = await purgeSpace(tx, spaceId);
    await complete(tx, { purged });
  });
};
