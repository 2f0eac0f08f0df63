/**
 * Reading spaces with the subject's effective role beside each row (see access/role-sql.ts):
 * by ID, and paged lists of an organization, of collections, and of what a member can access.
 */
import { Prisma, type Space } from '../../../generated/prisma/client.js';
import { LRUCache } from 'lru-cache';
import type { RawQueryable } from '../../../db/prepared.js';
import { rowsById } from '../../kernel/sql.js';
import { guestSeesSpace, guestSpaceIds, spaceRoleSql, spaceRoleUnlessGrantsSql, UNRESOLVED_ROLE } from '../../access/role-sql.js';
import type { Role } from '../../access/roles.js';
import { byTimeThenId, readChildPage, readPage, readPagesWith, whereAll, type ChildPages, type Page, type PageArgs, type PageQuery, type SortKey, type Queryable } from '../../kernel/pagination/keyset.js';
import { countPerKey, countRows } from '../../kernel/pagination/count.js';
import { counted, countFor, emptyPage, type CountedPage } from '../../kernel/pagination/counted.js';
import { rowsAsJson, type ColumnKind, type IsoDateTime, type RowsAsJson } from '../../kernel/pagination/rows-as-json.js';
import { siblingOrder } from '../content-tree/order.js';
import { liveSql } from './lifecycle.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

/** A space and the caller's effective role on it (null: no access). */
export type SpaceRow = Space & { viewerRole: Role | null };

type SpaceTime = 'createdAt' | 'updatedAt' | 'deletedAt';

/**
 * A space of a list page, with the caller's role: its times as ISO text (see LIST_TIME_KIND),
 * not Dates. They are only sent: the sort key's cursor and the DateTime scalar take the text.
 */
export type SpaceListRow = Omit<SpaceRow, SpaceTime> & { createdAt: IsoDateTime; updatedAt: IsoDateTime; deletedAt: IsoDateTime | null };

/** Columns of `s`, shaped as Prisma's model (enum values by their Prisma names). */
const COLUMN_SQL = {
  id: 's."id"',
  organizationId: 's."organizationId"',
  parentId: 's."parentId"',
  title: 's."title"',
  emoji: 's."emoji"',
  visibility: `replace(s."visibility"::text, '-', '_') AS "visibility"`,
  editMode: 's."editMode"::text AS "editMode"',
  defaultLevel: 's."defaultLevel"::text AS "defaultLevel"',
  position: 's."position"',
  revisionId: 's."revisionId"',
  createdAt: 's."createdAt"',
  updatedAt: 's."updatedAt"',
  deletedAt: 's."deletedAt"',
  openCommentCount: 's."openCommentCount"',
  changeRequestCount: 's."changeRequestCount"',
  openChangeRequestCount: 's."openChangeRequestCount"',
  draftChangeRequestCount: 's."draftChangeRequestCount"',
  lastChangeRequestNumber: 's."lastChangeRequestNumber"',
  mergeRules: 's."mergeRules"',
} as const satisfies Record<keyof Space, string>;

export type SpaceColumn = keyof typeof COLUMN_SQL;
export const SPACE_COLUMNS = Object.keys(COLUMN_SQL) as SpaceColumn[];

/**
 * What every space row carries, whatever was asked for: its identity and place, and what access
 * checks read (with `viewerRole`). Lists may read only these, their sort key's columns and the
 * columns a request selects (a page of spaces of which a client wants titles reads 8 columns, not
 * 18): rows of such lists are partial, and only ever reach the fields that asked for them.
 */
export const CORE_SPACE_COLUMNS: readonly SpaceColumn[] = ['id', 'organizationId', 'parentId', 'position', 'deletedAt', 'editMode'];

/** The columns a space row reads when `columns` are asked for: the core ones and those. */
const readColumns = (columns: readonly SpaceColumn[]) => [...new Set([...CORE_SPACE_COLUMNS, ...columns])];

const columnsSql = (columns: readonly SpaceColumn[]) => raw(readColumns(columns).map((c) => COLUMN_SQL[c]).join(', '));

/** How each column travels in a list read as JSON (see RowsAsJson). */
const COLUMN_KIND: Record<SpaceColumn | 'viewerRole', ColumnKind> = {
  id: 'text',
  organizationId: 'text',
  parentId: 'text',
  title: 'text',
  emoji: 'text',
  visibility: 'text',
  editMode: 'text',
  defaultLevel: 'text',
  position: 'int',
  revisionId: 'text',
  createdAt: 'date',
  updatedAt: 'date',
  deletedAt: 'date',
  openCommentCount: 'int',
  changeRequestCount: 'int',
  openChangeRequestCount: 'int',
  draftChangeRequestCount: 'int',
  lastChangeRequestNumber: 'int',
  mergeRules: 'json',
  viewerRole: 'text',
};

/**
 * How a list's rows carry their times: as ISO text to the answer (a hundred spaces a page), instead
 * of a Date made from PostgreSQL's text for each and written back as text by the DateTime scalar.
 */
const LIST_KIND: typeof COLUMN_KIND = { ...COLUMN_KIND, createdAt: 'iso', updatedAt: 'iso', deletedAt: 'iso' };

const spaceRowsAsJsonCache = new Map<string, RowsAsJson<SpaceListRow>>();

/** What a collection's live spaces share with it, set from the collection row (see ChildPages.inherit). */
const INHERITED: readonly SpaceColumn[] = ['organizationId', 'parentId', 'deletedAt'];

function inheritFromCollection(space: SpaceListRow, collection: Record<string, unknown>): void {
  space.organizationId = collection.organizationId as string;
  space.parentId = collection.id as string;
  space.deletedAt = null;
}

/**
 * Space rows of a list, of `columns` (and "viewerRole"), read as JSON (see RowsAsJson; times as
 * ISO text). `inherited`: without the columns a parent collection's row gives (INHERITED).
 */
function spaceRowsAsJson(columns: readonly SpaceColumn[], inherited = false): RowsAsJson<SpaceListRow> {
  const read = [...readColumns(columns).filter((c) => !inherited || !INHERITED.includes(c)), 'viewerRole' as const];
  const key = read.join();
  let json = spaceRowsAsJsonCache.get(key);
  if (!json) {
    json = rowsAsJson<SpaceListRow>(Object.fromEntries(read.map((column) => [column, LIST_KIND[column]])));
    if (spaceRowsAsJsonCache.size < 256) spaceRowsAsJsonCache.set(key, json); // selections are finitely many; bounded anyway
  }
  return json;
}

/** `SELECT` spaces `s` (`columns`, all by default) with the role of `viewerId` as "viewerRole". */
function selectSpaces(viewerId: string | Sql, extra: Sql = sql``, columns: readonly SpaceColumn[] = SPACE_COLUMNS): Sql {
  return sql`SELECT ${columnsSql(columns)}, ${spaceRoleSql('viewer', 's', 'pc')} AS "viewerRole" ${extra}
    FROM "Space" s
    LEFT JOIN "Collection" pc ON pc."id" = s."parentId"
    LEFT JOIN "Member" viewer ON viewer."organizationId" = s."organizationId" AND viewer."userId" = ${viewerId}`;
}

/**
 * Rows of every column and "viewerRole", revived from their text (read on the pool, see rowsById):
 * times as Dates, as Prisma gives them when the statement runs in a transaction.
 */
const fullRows = rowsAsJson<SpaceRow>(Object.fromEntries([...readColumns(SPACE_COLUMNS), 'viewerRole' as const].map((column) => [column, COLUMN_KIND[column]])));

const byIdWithGrants = rowsById<SpaceRow>('s."id"', (viewer) => selectSpaces(viewer), fullRows);

/** The same with the role only when the membership decides it (see spaceRoleUnlessGrantsSql). */
const byIdUnlessGrants = rowsById<SpaceRow>(
  's."id"',
  (viewer) => sql`SELECT ${columnsSql(SPACE_COLUMNS)}, ${spaceRoleUnlessGrantsSql('viewer', 's')} AS "viewerRole"
    FROM "Space" s
    LEFT JOIN "Member" viewer ON viewer."organizationId" = s."organizationId" AND viewer."userId" = ${viewer}`,
  fullRows,
);

/**
 * Whether a user's spaces read by ID were last all theirs as an organization admin, per process
 * and bounded. A hint only: it picks the statement, which still decides the role from the
 * membership it reads (see loadSpaces).
 */
const wasAdmin = new LRUCache<string, boolean>({ max: 10_000 });

/**
 * Spaces by ID, deleted ones included, with the caller's role. For a caller who was an admin last
 * time, a statement without the grant lookups first (a third less PostgreSQL time for a space read
 * by ID); the spaces whose role it leaves unresolved (the caller is no longer an admin there) are
 * read again with them.
 */
export async function loadSpaces(db: RawQueryable, viewerId: string, ids: readonly string[]): Promise<SpaceRow[]> {
  if (!wasAdmin.get(viewerId)) {
    const rows = await byIdWithGrants(db, viewerId, ids);
    if (rows.length && rows.every((row) => row.viewerRole === 'admin')) wasAdmin.set(viewerId, true);
    return rows;
  }
  const rows = await byIdUnlessGrants(db, viewerId, ids);
  const unresolved = rows.filter((row) => (row.viewerRole as string) === UNRESOLVED_ROLE);
  if (!unresolved.length) return rows;
  wasAdmin.delete(viewerId);
  const resolved = new Map((await byIdWithGrants(db, viewerId, unresolved.map((row) => row.id))).map((row) => [row.id, row]));
  return rows.flatMap((row) => ((row.viewerRole as string) !== UNRESOLVED_ROLE ? [row] : (resolved.get(row.id) ?? [])));
}

/** Who reads a list: the user, and whether they are a guest (then only what their grants reach). */
export type Reader = { userId: string; guest: boolean };

const live = liveSql('s');
const visibleTo = (reader: Reader) => (reader.guest ? [guestSeesSpace('s', reader.userId)] : []);

/** Oldest first; `desc` newest first. */
function byCreation<Row extends SpaceRow | SpaceListRow>(tag: string, descending = false): SortKey<Row> {
  return byTimeThenId<Row>(tag, 's."createdAt"', 's."id"', (s) => [s.createdAt, s.id], { descending, leading: [raw('s."deletedAt"')] });
}

/** The content tree's order within a parent collection. */
const byPosition = (tag: string) => siblingOrder<SpaceListRow>(tag, 's', [raw('s."deletedAt"')]);

/**
 * Live spaces of an organization the reader can see, oldest first (`columns`: see
 * CORE_SPACE_COLUMNS), as a list of the organization (see ChildPages): inside the organization's
 * statement (`outer`), the caller's membership is that statement's row, not joined again.
 */
export function organizationSpacesChild(reader: Reader, args: PageArgs, columns: readonly SpaceColumn[] = SPACE_COLUMNS): ChildPages<SpaceListRow> {
  const read: readonly SpaceColumn[] = [...columns, 'createdAt'];
  return {
    query: (organizationId, plan, outer) => sql`
      SELECT ${columnsSql(read)}, ${spaceRoleSql(outer?.viewer ?? 'viewer', 's', 'pc')} AS "viewerRole"
      FROM "Space" s
      LEFT JOIN "Collection" pc ON pc."id" = s."parentId"
      ${outer ? sql`` : sql`LEFT JOIN "Member" viewer ON viewer."organizationId" = s."organizationId" AND viewer."userId" = ${reader.userId}`}
      ${whereAll([sql`s."organizationId" = ${organizationId}`, live, ...visibleTo(reader), ...plan.seek])} ORDER BY ${plan.orderBy} LIMIT ${plan.limit}`,
    keyOf: (organizationId) => byCreation<SpaceListRow>(`spaces:${organizationId}`),
    args,
    json: spaceRowsAsJson(read),
  };
}

/** The page of `organizationSpacesChild`, on its own. */
export function organizationSpacesPage(
  db: Queryable,
  reader: Reader,
  organizationId: string,
  args: PageArgs,
  columns: readonly SpaceColumn[] = SPACE_COLUMNS,
): Promise<Page<SpaceListRow>> {
  return readChildPage(db, organizationSpacesChild(reader, args, columns), organizationId);
}

/**
 * `Organization.spaces` with its total: the page (`readAhead`: read with the organization, see
 * loadOrganizationWith) and what the reader counts of it (countFor).
 */
export async function organizationSpaces(
  db: Queryable,
  reader: Reader,
  org: { id: string; spaceCount: number },
  args: PageArgs,
  columns: readonly SpaceColumn[],
  readAhead?: Page<SpaceListRow>,
): Promise<CountedPage<SpaceListRow>> {
  const page = readAhead ?? (await organizationSpacesPage(db, reader, org.id, args, columns));
  return counted(page, countFor(reader, { member: org.spaceCount, guest: () => countGuestSpaces(db, reader.userId, org.id) }));
}

/**
 * How many live spaces of the organization a guest can see (others see them all: the
 * organization's counter), counted from their grants: each space they reach looked up by ID. The
 * lookup is kept a subquery of its own (LIMIT), so that even the plan PostgreSQL makes once for
 * every caller starts from the grants; as a plain IN, that plan read all 50,000 spaces of an
 * organization to count a guest's 40 (scripts/bench-scale.ts).
 */
export function countGuestSpaces(db: Queryable, userId: string, organizationId: string): Promise<number> {
  return countRows(db, sql`(SELECT DISTINCT g."id" FROM (${guestSpaceIds(userId)}) g("id")) g
    CROSS JOIN LATERAL (SELECT 1 FROM "Space" s WHERE s."id" = g."id" AND s."organizationId" = ${organizationId} AND ${live} LIMIT 1) s`);
}

/**
 * Live spaces directly inside each collection that the reader can see, in tree order (`columns`:
 * see CORE_SPACE_COLUMNS). The parent collection and the reader's membership are joined once per
 * collection, not once per space.
 */
export function collectionSpacesPages(
  db: Queryable,
  reader: Reader,
  collectionIds: readonly string[],
  args: PageArgs,
  columns: readonly SpaceColumn[] = SPACE_COLUMNS,
): Promise<Page<SpaceListRow>[]> {
  return readPagesWith(db, collectionIds, collectionSpacesQuery(reader, columns), collectionSpacesKey, args, spaceRowsAsJson(columns));
}

/** The first page of each collection's spaces, read with the collections (see ChildPages). */
export function collectionSpacesChild(reader: Reader, args: PageArgs, columns: readonly SpaceColumn[] = SPACE_COLUMNS): ChildPages<SpaceListRow> {
  return { query: collectionSpacesQuery(reader, columns), keyOf: collectionSpacesKey, args, json: spaceRowsAsJson(columns, true), inherit: inheritFromCollection };
}

const collectionSpacesKey = (collectionId: string) => byPosition(`collection-spaces:${collectionId}`);

/**
 * Inside the collections' statement (`outer`), the parent collection and the caller's membership
 * are that statement's rows; on its own, each parent collection is joined with the membership.
 */
function collectionSpacesQuery(reader: Reader, columns: readonly SpaceColumn[]): PageQuery {
  return (parent, plan, outer) => {
    const spaces = (collectionId: Sql) => sql`(SELECT s.* FROM "Space" s
      ${whereAll([sql`s."parentId" = ${collectionId}`, live, ...visibleTo(reader), ...plan.seek])} ORDER BY ${plan.orderBy} LIMIT ${plan.limit}) s`;
    if (outer) {
      return sql`
        SELECT ${columnsSql(columns)}, ${spaceRoleSql(outer.viewer, 's', outer.row)} AS "viewerRole"
        FROM ${spaces(parent)}
        ORDER BY ${plan.orderBy}`;
    }
    return sql`
      SELECT ${columnsSql(columns)}, ${spaceRoleSql('viewer', 's', 'pc')} AS "viewerRole"
      FROM "Collection" pc
      LEFT JOIN "Member" viewer ON viewer."organizationId" = pc."organizationId" AND viewer."userId" = ${reader.userId}
      CROSS JOIN LATERAL ${spaces(raw('pc."id"'))}
      WHERE pc."id" = ${parent}
      ORDER BY ${plan.orderBy}`;
  };
}

/** Per collection, how many of its live spaces a guest can see. */
export function countGuestCollectionSpaces(db: Queryable, userId: string, collectionIds: readonly string[]): Promise<number[]> {
  return countPerKey(db, collectionIds, (parent) => sql`"Space" s WHERE s."parentId" = ${parent} AND ${live} AND ${guestSeesSpace('s', userId)}`);
}

/** A space a member can access, with the member's role on it. */
export type MemberSpaceRow = SpaceRow & { memberRole: Role };

/**
 * Live spaces of the organization that `member` can access, with their role (and the caller's,
 * for the nested space), by creation date.
 */
export function memberSpacesPage(
  db: Queryable,
  viewerId: string,
  member: { organizationId: string; userId: string; guest: boolean },
  order: 'asc' | 'desc',
  args: PageArgs,
): Promise<Page<MemberSpaceRow>> {
  const select = sql`${selectSpaces(viewerId, sql`, ${spaceRoleSql('subject', 's', 'pc')} AS "memberRole"`)}
    JOIN "Member" subject ON subject."organizationId" = s."organizationId" AND subject."userId" = ${member.userId}`;
  const conditions = [
    sql`s."organizationId" = ${member.organizationId}`,
    live,
    sql`NOT subject."disabled"`,
    ...(member.guest ? [guestSeesSpace('s', member.userId)] : []),
  ];
  const key = byCreation<MemberSpaceRow>(`member-spaces:${member.organizationId}:${member.userId}:${order}`, order === 'desc');
  return readPage(db, select, conditions, key, args);
}

/**
 * `Member.spaceAccess` with its total: what `member` can access (nothing once disabled), counted
 * as that member would count it (countFor: a guest's grants, else the organization's counter).
 */
export async function memberSpaces(
  db: Queryable,
  viewerId: string,
  member: { organizationId: string; userId: string; role: Role | null; disabled: boolean },
  org: { spaceCount: number },
  order: 'asc' | 'desc',
  args: PageArgs,
): Promise<CountedPage<MemberSpaceRow>> {
  if (member.disabled) return emptyPage();
  const subject = { organizationId: member.organizationId, userId: member.userId, guest: member.role === null };
  const page = await memberSpacesPage(db, viewerId, subject, order, args);
  return counted(page, countFor(subject, { member: org.spaceCount, guest: () => countGuestSpaces(db, member.userId, member.organizationId) }));
}
