/**
 * The content links of a space's current revision (API 4.1 `GET /spaces/{spaceId}/links`), read
 * from the "DocumentLink" rows of its pages' documents (revision-links.ts), not from the bodies.
 */
import type { Space } from '../../../generated/prisma/client.js';
import type { Loaders } from '../../loaders/index.js';
import type { Access } from '../../access/access.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import { revisionScope } from '../revisions/load.js';
import { revisionLinkSource } from './revision-links.js';
import { withStatuses, type BaseUrls, type ContentLink } from './status.js';

/** All links with their status, in page tree order; needs `read` on the space. */
export async function spaceLinks(access: Access, loaders: Loaders, urls: BaseUrls, spaceId: string, db: Queryable): Promise<{ space: Space; links: ContentLink[] }> {
  const { space } = await access.requireSpace(spaceId, 'view');
  const source = await revisionLinkSource(db, space, await revisionScope(db, space.revisionId));
  const [links] = await withStatuses(loaders, urls, [source], db);
  return { space, links };
}
