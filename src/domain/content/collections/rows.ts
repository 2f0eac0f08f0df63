/**
 * Reading collections with the caller's effective role beside each row (see access/role-sql.ts):
 * by ID, the organization's tree (depth-first, or its root level), and each collection's children.
 */
import { Prisma, type Collection } from '../../../generated/prisma/client.js';
import { rowsById } from '../../kernel/sql.js';
import { collectionRoleSql, guestSeesCollection } from '../../access/role-sql.js';
import type { Role } from '../../access/roles.js';
import { childPagesColumn, readChildPage, readPages, takeChildPages, whereAll, type ChildPages, type Page, type PageArgs, type ParentRow, type SortKey, type Queryable } from '../../kernel/pagination/keyset.js';
import { rowsAsJson, type ColumnKind } from '../../kernel/pagination/rows-as-json.js';
import { countPerKey, countRows } from '../../kernel/pagination/count.js';
import { countFor, type CountedPage } from '../../kernel/pagination/counted.js';
import { siblingOrder } from '../content-tree/order.js';
import type { Reader } from '../spaces/rows.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

export type CollectionRow = Collection & { viewerRole: Role | null };

/** The columns of a collection row as selectCollections reads them (then "viewerRole", and "_children"). */
const COLUMNS = ['id', 'organizationId', 'parentId', 'title', 'description', 'defaultLevel', 'position', 'createdAt', 'updatedAt', 'ancestors', 'treeKey', 'spaceCount', 'collectionCount'] as const;
const COLUMN_SQL = raw(COLUMNS.map((column) => (column === 'defaultLevel' ? `c."defaultLevel"::text AS "defaultLevel"` : `c."${column}"`)).join(', '));

/**
 * `SELECT` collections `c` with the role of `viewerId` as "viewerRole" (and `children`' pages, see
 * ChildPages). Inside a parent statement (`outer`, the collections' organization), the caller's
 * membership is the parent's `outer.viewer`, not joined again.
 */
function selectCollections(viewerId: string | Sql, children?: ChildPages<unknown>, outer?: ParentRow): Sql {
  const viewer = outer?.viewer ?? 'viewer';
  return sql`SELECT ${COLUMN_SQL}, ${collectionRoleSql(viewer, 'c')} AS "viewerRole" ${children ? sql`, ${childPagesColumn(children, raw('c."id"'), { row: 'c', viewer })}` : sql``}
    FROM "Collection" c
    ${outer ? sql`` : sql`LEFT JOIN "Member" viewer ON viewer."organizationId" = c."organizationId" AND viewer."userId" = ${viewerId}`}`;
}

/** Collections by ID, with the caller's role. */
export const loadCollections = rowsById<CollectionRow>('c."id"', (viewer) => selectCollections(viewer));

const visibleTo = (reader: { userId: string; guest: boolean }) => (reader.guest ? [guestSeesCollection('c', reader.userId)] : []);

/** Depth-first: each collection followed by its descendants, siblings by position. */
function treeOrder(tag: string): SortKey<CollectionRow> {
  return { tag, columns: [{ sql: raw('c."treeKey"'), type: 'bytea' }], keyOf: (c) => [c.treeKey] };
}

// `parentId` leads: at the root level the list's condition is `parentId IS NULL`.
const byPosition = (tag: string) => siblingOrder<CollectionRow>(tag, 'c', [raw('c."parentId"')]);

/** How each column travels in a list read as JSON (see RowsAsJson). */
const COLUMN_KIND: Record<(typeof COLUMNS)[number] | 'viewerRole', ColumnKind> = {
  id: 'text',
  organizationId: 'text',
  parentId: 'text',
  title: 'text',
  description: 'text',
  defaultLevel: 'text',
  position: 'int',
  createdAt: 'date',
  updatedAt: 'date',
  ancestors: 'json',
  treeKey: 'bytea',
  spaceCount: 'int',
  collectionCount: 'int',
  viewerRole: 'text',
};
const COLLECTION_ROWS_AS_JSON = { plain: rowsAsJson<CollectionRow>(COLUMN_KIND), withChildren: rowsAsJson<CollectionRow>(COLUMN_KIND, '_children') };

/** A page of collections with, for each, the first page of a child list (see ChildPages). */
export type CollectionsPage<Child = unknown> = Page<CollectionRow> & { children?: Map<string, Page<Child>> };

/**
 * The organization's collections the reader can see — all of them depth-first, or (`nested:
 * false`) its root level — as a list of the organization (a ChildPages of it); with `children`,
 * each collection's first page of that list too.
 */
export function organizationCollectionsChild(reader: Reader, nested: boolean, args: PageArgs, children?: ChildPages<unknown>): ChildPages<CollectionRow> {
  return {
    query: (organizationId, plan, outer) => {
      const scope = [sql`c."organizationId" = ${organizationId}`, ...(nested ? [] : [sql`c."parentId" IS NULL`]), ...visibleTo(reader), ...plan.seek];
      return sql`${selectCollections(reader.userId, children, outer)} ${whereAll(scope)} ORDER BY ${plan.orderBy} LIMIT ${plan.limit}`;
    },
    keyOf: (organizationId) => (nested ? treeOrder(`collections:${organizationId}`) : byPosition(`root-collections:${organizationId}`)),
    args,
    json: children ? COLLECTION_ROWS_AS_JSON.withChildren : COLLECTION_ROWS_AS_JSON.plain,
  };
}

/** The page of `organizationCollectionsChild` (and its children's pages), on its own. */
export async function organizationCollectionsPage<Child>(
  db: Queryable,
  reader: Reader,
  organizationId: string,
  nested: boolean,
  args: PageArgs,
  children?: ChildPages<Child>,
): Promise<CollectionsPage<Child>> {
  const page = await readChildPage(db, organizationCollectionsChild(reader, nested, args, children as ChildPages<unknown> | undefined), organizationId);
  return withChildPages(page, children);
}

/**
 * `Organization.collections` with its total: the page (`readAhead`: read with the organization)
 * and what the reader counts of it (countFor; the organization's counters for a member).
 */
export async function organizationCollections<Child>(
  db: Queryable,
  reader: Reader,
  org: { id: string; collectionCount: number; rootCollectionCount: number },
  nested: boolean,
  args: PageArgs,
  children?: ChildPages<Child>,
  readAhead?: CollectionsPage<Child>,
): Promise<CountedPage<CollectionRow> & CollectionsPage<Child>> {
  const page = readAhead ?? (await organizationCollectionsPage(db, reader, org.id, nested, args, children));
  const member = nested ? org.collectionCount : org.rootCollectionCount;
  return { ...page, totalCount: countFor(reader, { member, guest: () => countGuestCollections(db, reader.userId, org.id, nested) }) };
}

/** The page with its rows' child pages taken off them (see ChildPages). */
export function withChildPages<Child>(page: Page<CollectionRow>, children?: ChildPages<Child>): CollectionsPage<Child> {
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
