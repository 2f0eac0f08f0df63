/**
 * Reading a revision's entries. Each function reads what it answers: one entity, one parent's
 * children, one path walked segment by segment, one page of files; the whole page list only
 * for the calls that answer with the whole tree.
 */
import { Prisma, type ContentEntry } from '../../../generated/prisma/client.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import type { Entry, EntityKind, PageEntry } from './entries.js';
import type { RevisionScope } from './scope.js';
import { visibleEntries } from './visible.js';

const { sql } = Prisma;

/** Rows as the domain reads them (`id`, the row's surrogate key, is of no use above this module). */
const asEntries = <T extends Entry>(rows: ContentEntry[]) => rows.map(({ id: _id, ...entry }) => entry as T);

/** `first`: only the first rows by `orderBy` (SQL over `e`; see visibleEntries). */
export async function readEntries<T extends Entry = Entry>(db: Queryable, scope: RevisionScope, where: Prisma.Sql[], first?: { orderBy: Prisma.Sql; limit: number | Prisma.Sql }): Promise<T[]> {
  if (!first) return asEntries<T>(await db.$queryRaw<ContentEntry[]>(visibleEntries(scope, where)));
  return asEntries<T>(await db.$queryRaw<ContentEntry[]>(sql`SELECT e.* FROM (${visibleEntries(scope, where, first)}) e ORDER BY ${first.orderBy} LIMIT ${first.limit}`));
}

/** Every entity of one kind in the revision (files, reusable contents: tens, not thousands), by entity ID. */
export async function entitiesOfKind(db: Queryable, scope: RevisionScope, kind: EntityKind): Promise<Entry[]> {
  return (await readEntries(db, scope, [sql`e."kind" = ${kind}`])).sort((a, b) => (a.entityId < b.entityId ? -1 : 1));
}

/** One entity of the revision, or null. */
export async function entityIn(db: Queryable, scope: RevisionScope, kind: EntityKind, entityId: string): Promise<Entry | null> {
  const [entry] = await readEntries(db, scope, [sql`e."kind" = ${kind}`, sql`e."entityId" = ${entityId}`]);
  return entry ?? null;
}

/** Some entities of the revision (absent ones left out). */
export function entitiesIn(db: Queryable, scope: RevisionScope, kind: EntityKind, entityIds: readonly string[]): Promise<Entry[]> {
  return readEntries(db, scope, [sql`e."kind" = ${kind}`, sql`e."entityId" = ANY(${[...entityIds]}::text[])`]);
}

/** Every page of the revision (no bodies). */
export function allPages(db: Queryable, scope: RevisionScope): Promise<PageEntry[]> {
  return readEntries<PageEntry>(db, scope, [sql`e."kind" = 'page'`]);
}

/** The pages directly under each of `parentIds` (null: the top level). */
export function childPages(db: Queryable, scope: RevisionScope, parentIds: readonly (string | null)[]): Promise<PageEntry[]> {
  const ids = parentIds.filter((id): id is string => id !== null);
  const top = parentIds.includes(null);
  const under = [...(ids.length ? [sql`e."parentId" = ANY(${ids}::text[])`] : []), ...(top ? [sql`e."parentId" IS NULL`] : [])];
  if (!under.length) return Promise.resolve([]);
  return readEntries<PageEntry>(db, scope, [sql`e."kind" = 'page'`, sql`(${Prisma.join(under, ' OR ')})`]);
}

/** Every descendant of the page, level by level (one statement per level). */
export async function descendants(db: Queryable, scope: RevisionScope, pageId: string): Promise<PageEntry[]> {
  const out: PageEntry[] = [];
  for (let level = [pageId]; level.length; ) {
    const children = await childPages(db, scope, level);
    out.push(...children);
    level = children.map((c) => c.entityId);
  }
  return out;
}

/** The page's ancestors, nearest first (one statement per level). */
export async function ancestors(db: Queryable, scope: RevisionScope, page: PageEntry): Promise<PageEntry[]> {
  const out: PageEntry[] = [];
  const seen = new Set([page.entityId]);
  for (let parentId = page.parentId; parentId && !seen.has(parentId); ) {
    seen.add(parentId);
    const parent: PageEntry | null = (await entityIn(db, scope, 'page', parentId)) as PageEntry | null;
    if (!parent) break;
    out.push(parent);
    parentId = parent.parentId;
  }
  return out;
}

/** The page at `path` (slugs joined by `/`), walking down one segment per statement. */
export async function pageAtPath(db: Queryable, scope: RevisionScope, path: string): Promise<PageEntry | null> {
  const segments = path.split('/').filter(Boolean);
  let page: PageEntry | null = null;
  for (const slug of segments) {
    const parent: Prisma.Sql = page ? sql`e."parentId" = ${page.entityId}` : sql`e."parentId" IS NULL`;
    const [next]: PageEntry[] = await readEntries<PageEntry>(db, scope, [sql`e."kind" = 'page'`, parent, sql`e."slug" = ${slug}`]);
    if (!next) return null;
    page = next;
  }
  return page;
}
