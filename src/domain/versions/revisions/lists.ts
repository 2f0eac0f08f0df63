/**
 * Lists of a revision's files and reusable contents, in pages read in SQL: each branch of the
 * overlay (a change request's own rows, its base's) reads at most one page past the cursor.
 */
import { Prisma, type ContentEntry } from '../../../generated/prisma/client.js';
import { planPage, toPage, type Page, type PageArgs, type Queryable, type SortKey } from '../../kernel/pagination/keyset.js';
import type { Entry, EntityKind } from './entries.js';
import type { RevisionScope } from './scope.js';
import { visibleEntries } from './visible.js';

const { sql, raw } = Prisma;

/** By ID; the cursor names the line, not the revision: it stays good while the content changes. */
const byEntityId = (scope: RevisionScope, kind: EntityKind): SortKey<Entry> => ({
  tag: `${kind}:${scope.lineId}`,
  columns: [{ sql: raw('e."entityId"'), type: 'text' }],
  keyOf: (e) => [e.entityId],
});

export async function entitiesPage(db: Queryable, scope: RevisionScope, kind: EntityKind, args: PageArgs): Promise<Page<Entry>> {
  const key = byEntityId(scope, kind);
  const plan = planPage(key, args);
  const inner = visibleEntries(scope, [sql`e."kind" = ${kind}`, ...plan.seek], { orderBy: plan.orderBy, limit: plan.limit });
  const rows = await db.$queryRaw<ContentEntry[]>(sql`SELECT e.* FROM (${inner}) e ORDER BY ${plan.orderBy} LIMIT ${plan.limit}`);
  return toPage(key, plan, rows.map(({ id: _id, ...entry }) => entry as Entry));
}

/** How many entities of `kind` the revision has. */
export async function countEntities(db: Queryable, scope: RevisionScope, kind: EntityKind): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>(sql`SELECT count(*)::int AS n FROM (${visibleEntries(scope, [sql`e."kind" = ${kind}`])}) e`);
  return row.n;
}
