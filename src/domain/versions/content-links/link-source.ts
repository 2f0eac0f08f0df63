/** What deciding a revision's links needs (revision-links.ts reads it; page-target.ts, status.ts and targets.ts use it). */
import type { Space } from '../../../generated/prisma/client.js';
import type { PageLink } from '../../../lib/documents/extract-links.js';

export type LinkSource = {
  /** The space the revision belongs to (its own, or a change request's revision of it). */
  space: Pick<Space, 'id' | 'organizationId'>;
  /** Pages of the revision: every one, or at least every one the links name. */
  pageIds: ReadonlySet<string>;
  /** Files and reusable contents of the revision among those the links name (absent: none exist). */
  fileIds?: ReadonlySet<string>;
  reusableContentIds?: ReadonlySet<string>;
  /** In page tree order, then document order. */
  links: PageLink[];
};
