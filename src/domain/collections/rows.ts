/**
 * Reading collections with the caller's effective role beside each row (see access/role-sql.ts):
 * by ID, the organization's tree (depth-first, or its root level), and each collection's children.
 */
import { Prisma, type Collection } from '../../generated/prisma/client.js';
import { isOneOf } from '../sql.js';
import { collectionRoleSql, guestSeesCollection } from '../access/role-sql.js';
import type { Role } from '../access/roles.js';
import { childPagesColumn, readPage, readPages, takeChildPages, type ChildPages, type Page, type PageArgs, type SortKey, type Queryable } from '../pagination/keyset.js';
import { countPerKey, countRows } from '../pagination/count.js';
import { siblingOrder } from '../content-tree/order.js';
import type { Reader } from '../spaces/rows.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

export type CollectionRow = Collection & { viewerRole: Role | null };

/** `SELECT` collections `c` with the role of `viewerId` as "viewerRole" (and `children`' pages, see ChildPages). */
function selectCollections(viewerId: string, children?: ChildPages<unknown>): Sql {
  return sql`SELECT c."id", c."organizationId", c."parentId", c."title", c."description", c."defaultLevel"::text AS "defaultLevel",
      c."position", c."createdAt", c."updatedAt", c."ancestors", c."treeKey", c."spaceCount", c."collectionCount",
      ${collectionRoleSql('viewer', 'c')} AS "viewerRole" ${children ? sql`, ${childPagesColumn(children, raw('c."id"'))}` : sql``}
    FROM "Collection" c
    LEFT JOIN "Member" viewer ON viewer."organizationId" = c."organizationId" AND viewer."userId" = ${viewerId}`;
}

export async function loadCollections(db: Queryable, viewerId: string, ids: readonly string[]): Promise<CollectionRow[]> {
  return db.$queryRaw<CollectionRow[]>(sql`${selectCollections(viewerId)} WHERE ${isOneOf(raw('c."id"'), ids)}`);
}

const visibleTo = (reader: { userId: string; guest: boolean }) => (reader.guest ? [guestSeesCollection('c', reader.userId)] : []);

/** Depth-first: each collection followed by its descendants, siblings by position. */
function treeOrder(tag: string): SortKey<CollectionRow> {
  return { tag, columns: [{ sql: raw('c."treeKey"'), type: 'bytea' }], keyOf: (c) => [c.treeKey] };
}

// `parentId` leads: at the root level the list's condition is `parentId IS NULL`.
const byPosition = (tag: string) => siblingOrder<CollectionRow>(tag, 'c', [raw('c."parentId"')]);

/**
 * The organization's collections the reader can see: all of them depth-first, or (`nested: false`)
 * its root level; with `children`, each collection's first page of that child list too.
 */
export async function organizationCollectionsPage<Child>(
  db: Queryable,
  reader: Reader,
  organizationId: string,
  nested: boolean,
  args: PageArgs,
  children?: ChildPages<Child>,
): Promise<Page<CollectionRow> & { children?: Map<string, Page<Child>> }> {
  const scope = [sql`c."organizationId" = ${organizationId}`, ...visibleTo(reader)];
  const select = selectCollections(reader.userId, children as ChildPages<unknown> | undefined);
  const page = nested
    ? await readPage<CollectionRow>(db, select, scope, treeOrder(`collections:${organizationId}`), args)
    : await readPage<CollectionRow>(db, select, [...scope, sql`c."parentId" IS NULL`], byPosition(`root-collections:${organizationId}`), args);
  return children ? { ...page, children: takeChildPages(page.rows, children) } : page;
}

export function countGuestCollections(db: Queryable, userId: string, organizationId: string, nested: boolean): Promise<number> {
  return countRows(db, sql`"Collection" c
    WHERE c."organizationId" = ${organizationId} ${nested ? sql`` : sql`AND c."parentId" IS NULL`} AND ${guestSeesCollection('c', userId)}`);
}

/** Collections directly inside each collection that the reader can see, by position. */
export function childCollectionsPages(db: Queryable, reader: Reader, parentIds: readonly string[], args: PageArgs): Promise<Page<CollectionRow>[]> {
  return readPages(
    db,
    parentIds,
    (parent) => ({ select: selectCollections(reader.userId), conditions: [sql`c."parentId" = ${parent}`, ...visibleTo(reader)] }),
    (id) => byPosition(`child-collections:${id}`),
    args,
  );
}

export function countGuestChildCollections(db: Queryable, userId: string, parentIds: readonly string[]): Promise<number[]> {
  return countPerKey(db, parentIds, (parent) => sql`"Collection" c WHERE c."parentId" = ${parent} AND ${guestSeesCollection('c', userId)}`);
}
