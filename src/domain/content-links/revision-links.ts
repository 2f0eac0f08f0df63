/** The links of one revision, with what deciding their status needs: its space and its page IDs. */
import type { RevisionPage, Space } from '../../generated/prisma/client.js';
import { extractLinks, type PageLink } from './extract.js';
import { inTreeOrder } from './page-order.js';

export type LinkSource = {
  /** The space the revision belongs to (its own, or a change request's revision of it). */
  space: Pick<Space, 'id' | 'organizationId'>;
  pageIds: ReadonlySet<string>;
  /** In page tree order, then document order. */
  links: PageLink[];
};

export function revisionLinks(space: LinkSource['space'], pages: RevisionPage[]): LinkSource {
  return { space, pageIds: new Set(pages.map((p) => p.id)), links: inTreeOrder(pages).flatMap((p) => [...extractLinks(p)]) };
}
