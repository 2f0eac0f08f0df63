import { Prisma } from '../../../generated/prisma/client.js';
import type { RevisionScope } from './scope.js';
import { visibleEntries } from './visible.js';

/**
 * Starts `spaceId`'s line (revision 1) with the content `from` sees: one row per entity, pointing
 * at the same documents (and file bytes), so the copy shares the content instead of copying it.
 */
export async function copyContent(tx: Prisma.TransactionClient, from: RevisionScope, spaceId: string): Promise<number> {
  return tx.$executeRaw`INSERT INTO "ContentEntry"
      ("spaceId", "lineId", "fromSeq", "kind", "entityId", "parentId", "position", "type", "title", "slug", "documentId", "data", "linkTarget", "createdAt")
    SELECT ${spaceId}, ${spaceId}, 1, v."kind", v."entityId", v."parentId", v."position", v."type", v."title", v."slug", v."documentId", v."data", v."linkTarget", v."createdAt"
    FROM (${visibleEntries(from)}) v`;
}
