/** The space jobs: a copy (started by `duplicateSpace`) and a purge (queued by the hourly schedule). */
import { forbidden } from '../../lib/errors.js';
import { duplicateSpace } from '../../domain/content/spaces/duplicate.js';
import { purgeSpace } from '../../domain/content/spaces/trash.js';
import { placementCheck, placementOf, placeSpaceCopy } from '../../domain/publishing/sites/duplicate.js';
import type { JobHandler } from '../handler.js';

export const runSpaceDuplicate: JobHandler = async ({ job, services, access, complete, progress }) => {
  if (!access || !job.spaceId) throw forbidden();
  const copyId = String((job.input as { copyId?: unknown }).copyId);
  // A copy asked for from a site (duplicateSiteSpace) is published there in the same transaction.
  const placement = placementOf(job.input);
  progress(0, 1, 'Copying the space');
  await duplicateSpace(services.db, access, job.spaceId, {
    copyId,
    alsoCheck: placement ? placementCheck(placement) : undefined,
    inside: async (tx, copy) => {
      const siteSpace = placement ? await placeSpaceCopy(tx, access, placement, copy) : null;
      await complete(tx, { spaceId: copyId, ...(siteSpace ? { siteSpaceId: siteSpace.id } : {}) });
    },
  });
};

export const runSpacePurge: JobHandler = async ({ job, services, complete }) => {
  if (!job.spaceId) return;
  const spaceId = job.spaceId;
  await services.db.$transaction(async (tx) => {
    const purged = await purgeSpace(tx, spaceId);
    await complete(tx, { purged });
  });
};
