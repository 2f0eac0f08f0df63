/** Loaders of revision content: pages, and which pages exist. */
import type { Db } from '../../db/client.js';
import type { RevisionPage } from '../../generated/prisma/client.js';
import { groupBy, revisionPageKey, splitKey } from './keys.js';
import type { LoaderRegistry } from './registry.js';

export function revisionLoaders(db: Db, registry: LoaderRegistry) {
  return {
    /** Pages of each revision, by position (then path) within their parent. */
    pagesInRevision: registry.track<string, RevisionPage[]>(async (ids) =>
      groupBy(
        await db.revisionPage.findMany({ where: { revisionId: { in: [...ids] } }, orderBy: [{ position: 'asc' }, { path: 'asc' }] }),
        (p) => p.revisionId,
        ids,
      ),
    ),
    /** Whether a page exists in a revision, by `revisionPageKey`; reads IDs only, not documents. */
    revisionPageExists: registry.track<string, boolean>(async (keys) => {
      const pairs = keys.map(splitKey);
      const rows = await db.revisionPage.findMany({
        where: { revisionId: { in: pairs.map(([r]) => r) }, id: { in: pairs.map(([, p]) => p) } },
        select: { id: true, revisionId: true },
      });
      const found = new Set(rows.map((r) => revisionPageKey(r.revisionId, r.id)));
      return keys.map((k) => found.has(k));
    }),
    /** Distinct revisions of each space's open change requests, by change request number. */
    openChangeRequestRevisions: registry.track<string, string[]>(async (ids) => {
      const rows = await db.changeRequest.findMany({
        where: { spaceId: { in: [...ids] }, status: 'open' },
        select: { spaceId: true, revisionId: true },
        orderBy: { number: 'asc' },
      });
      return groupBy(rows, (r) => r.spaceId, ids).map((list) => [...new Set(list.map((r) => r.revisionId))]);
    }),
  };
}
