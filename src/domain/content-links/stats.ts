/** Link statistics of a space (API 2.9 "Content link list" `stats`). */
import type { Space } from '../../generated/prisma/client.js';
import type { Loaders } from '../loaders/index.js';
import { revisionLinks } from './revision-links.js';
import { withStatuses, type BaseUrls, type ContentLink } from './status.js';

export type LinkStats = { total: number; broken: { total: number; changeRequest: number } };

const brokenIn = (links: ContentLink[]) => links.filter((l) => l.status === 'broken').length;

/**
 * `links`: all links of the space's current revision (not a filtered page of them).
 * `broken.changeRequest` counts broken links in the revisions of the space's open change
 * requests, each distinct revision once.
 */
export async function linkStats(loaders: Loaders, urls: BaseUrls, space: Space, links: ContentLink[]): Promise<LinkStats> {
  const revisionIds = await loaders.openChangeRequestRevisions.load(space.id);
  const revisions = await Promise.all(revisionIds.map((id) => loaders.pagesInRevision.load(id)));
  const changeRequests = await withStatuses(loaders, urls, revisions.map((pages) => revisionLinks(space, pages)));
  return {
    total: links.length,
    broken: { total: brokenIn(links), changeRequest: changeRequests.reduce((sum, l) => sum + brokenIn(l), 0) },
  };
}
