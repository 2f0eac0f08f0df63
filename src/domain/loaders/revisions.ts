/** Loaders of revision content: pages, and which pages exist. */
import type { Db } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { pagesWithBodies, type PageWithBody } from '../revisions/bodies.js';
import { revisionScope } from '../revisions/load.js';
import { entitiesIn } from '../revisions/read.js';
import { groupBy, revisionPageKey, splitKey } from './keys.js';
import type { LoaderRegistry } from './registry.js';

export function revisionLoaders(db: Db, registry: LoaderRegistry) {
  return {
    /** Every page of each revision with its body, in tree order (whole-revision link reports). */
    pagesInRevision: registry.track<string, PageWithBody[]>((ids) => Promise.all(ids.map(async (id) => pagesWithBodies(db, await revisionScope(db, id))))),
    /** Whether a page exists in a revision, by `revisionPageKey`; one statement per revision, IDs only. */
    revisionPageExists: registry.track<string, boolean>(async (keys) => {
      const byRevision = new Map<string, string[]>();
      for (const [revisionId, pageId] of keys.map(splitKey)) byRevision.set(revisionId, [...(byRevision.get(revisionId) ?? []), pageId]);
      const found = new Set<string>();
      await Promise.all(
        [...byRevision].map(async ([revisionId, pageIds]) => {
          const entries = await entitiesIn(db, await revisionScope(db, revisionId), 'page', pageIds);
          for (const e of entries) found.add(revisionPageKey(revisionId, e.entityId));
        }),
      );
      return keys.map((k) => found.has(k));
    }),
    /** Distinct revisions of each space's open change requests, by change request number. */
    openChangeRequestRevisions: registry.track<string, string[]>(async (ids) => {
      const rows = await db.$queryRaw<{ spaceId: string; revisionId: string }[]>(Prisma.sql`SELECT "spaceId", "revisionId" FROM "ChangeRequest"
        WHERE "spaceId" = ANY(${[...ids]}::text[]) AND "status" = 'open' ORDER BY "number"`);
      return groupBy(rows, (r) => r.spaceId, ids).map((list) => [...new Set(list.map((r) => r.revisionId))]);
    }),
  };
}
