/** Link statistics of a space (API 2.9 "Content link list" `stats`). */
import type { Space } from '../../../generated/prisma/client.js';
import type { Loaders } from '../../loaders/index.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import { revisionScope } from '../revisions/load.js';
import { revisionLinkSource } from './revision-links.js';
import { withStatuses, type BaseUrls, type ContentLink } from './status.js';

export type LinkStats = { total: number; broken: { total: number; changeRequest: number } };

export const brokenIn = (links: readonly ContentLink[]) => links.filter((l) => l.status === 'broken').length;

/**
 * `links`: all links of the space's current revision (not a filtered page of them).
 * `broken.changeRequest` counts broken links in the revisions of the space's open change
 * requests, each distinct revision once (their links read from "DocumentLink" rows).
 */
export async function linkStats(loaders: Loaders, urls: BaseUrls, space: Space, links: ContentLink[], db: Queryable): Promise<LinkStats> {
  const revisionIds = await loaders.openChangeRequestRevisions.load(space.id);
  const sources = await Promise.all(revisionIds.map(async (id) => revisionLinkSource(db, space, await revisionScope(db, id))));
  const changeRequests = await withStatuses(loaders, urls, sources, db);
  return {
    total: links.length,
    broken: { total: brokenIn(links), changeRequest: changeRequests.reduce((sum, l) => sum + brokenIn(l), 0) },
  };
}
