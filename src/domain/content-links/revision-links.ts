/** The links of one revision, with what deciding their status needs: its space and its page IDs. */
import type { Space } from '../../generated/prisma/client.js';
import type { PageWithBody } from '../revisions/bodies.js';
import { extractLinks, type PageLink } from './extract.js';

export type LinkSource = {
  /** The space the revision belongs to (its own, or a change request's revision of it). */
  space: Pick<Space, 'id' | 'organizationId'>;
  pageIds: ReadonlySet<string>;
  /** In page tree order, then document order. */
  links: PageLink[];
};

/** `pages` in tree order (as pagesWithBodies reads them). */
export function revisionLinks(space: LinkSource['space'], pages: PageWithBody[]): LinkSource {
  return { space, pageIds: new Set(pages.map((p) => p.id)), links: pages.flatMap((p) => [...extractLinks(p)]) };
}
