/** The content links of a space's current revision (API 4.1 `GET /spaces/{spaceId}/links`). */
import type { Space } from '../../generated/prisma/client.js';
import type { Loaders } from '../loaders/index.js';
import type { Access } from '../access/access.js';
import { revisionLinks } from './revision-links.js';
import { withStatuses, type BaseUrls, type ContentLink } from './status.js';

/** All links with their status, in page tree order; needs `read` on the space. */
export async function spaceLinks(access: Access, loaders: Loaders, urls: BaseUrls, spaceId: string): Promise<{ space: Space; links: ContentLink[] }> {
  const { space } = await access.requireSpace(spaceId, 'view');
  const [links] = await withStatuses(loaders, urls, [revisionLinks(space, await loaders.pagesInRevision.load(space.revisionId))]);
  return { space, links };
}
