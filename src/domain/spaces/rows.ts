/**
 * Reading spaces with the subject's effective role beside each row (see access/role-sql.ts):
 * by ID, and paged lists of an organization, of collections, and of what a member can access.
 */
import { Prisma, type Space } from '../../generated/prisma/client.js';
import { guestSeesSpace, spaceRoleSql } from '../access/role-sql.js';
import type { Role } from '../access/roles.js';
import { readPage, readPages, type Page, type PageArgs, type SortKey, type Queryable } from '../pagination/keyset.js';
import { countPerKey, countRows } from '../pagination/count.js';
import { siblingOrder } from '../content-tree/order.js';
import { liveSql } from './lifecycle.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

/** A space and the caller's effective role on it (null: no access). */
export type SpaceRow = Space & { viewerRole: Role | null };

/** Every column of `s`, shaped as Prisma's model (enum values by their Prisma names). */
const COLUMNS = sql`s."id", s."organizationId", s."parentId", s."title", s."emoji",
  replace(s."visibility"::text, '-', '_') AS "visibility", s."editMode"::text AS "editMode",
  s."defaultLevel"::text AS "defaultLevel", s."position", s."revisionId", s."createdAt", s."updatedAt", s."deletedAt",
  s."openCommentCount", s."changeRequestCount", s."openChangeRequestCount", s."draftChangeRequestCount"`;

/** `SELECT` spaces `s` with the role of `viewerId` as "viewerRole" (and of `subject`, a Member alias, when given). */
function selectSpaces(viewerId: string, extra: Sql = sql``): Sql {
  return sql`SELECT ${COLUMNS}, ${spaceRoleSql('viewer', 's', 'pc')} AS "viewerRole" ${extra}
    FROM "Space" s
    LEFT JOIN "Collection" pc ON pc."id" = s."parentId"
    LEFT JOIN "Member" viewer ON viewer."organizationId" = s."organizationId" AND viewer."userId" = ${viewerId}`;
}

export async function loadSpaces(db: Queryable, viewerId: string, ids: readonly string[]): Promise<SpaceRow[]> {
  return db.$queryRaw<SpaceRow[]>(sql`${selectSpaces(viewerId)} WHERE s."id" = ANY(${[...ids]}::text[])`);
}

/** Who reads a list: the user, and whether they are a guest (then only what their grants reach). */
export type Reader = { userId: string; guest: boolean };

const live = liveSql('s');
const visibleTo = (reader: Reader) => (reader.guest ? [guestSeesSpace('s', reader.userId)] : []);

/** Oldest first; `desc` newest first. */
function byCreation(tag: string, descending = false): SortKey<SpaceRow> {
  return {
    tag,
    descending,
    leading: [raw('s."deletedAt"')],
    columns: [
      { sql: raw('s."createdAt"'), type: 'timestamp' },
      { sql: raw('s."id"'), type: 'text' },
    ],
    keyOf: (s) => [s.createdAt, s.id],
  };
}

/** The content tree's order within a parent collection. */
const byPosition = (tag: string) => siblingOrder<SpaceRow>(tag, 's', [raw('s."deletedAt"')]);

/** Live spaces of an organization the reader can see, oldest first. */
export function organizationSpacesPage(db: Queryable, reader: Reader, organizationId: string, args: PageArgs): Promise<Page<SpaceRow>> {
  return readPage(db, selectSpaces(reader.userId), [sql`s."organizationId" = ${organizationId}`, live, ...visibleTo(reader)], byCreation(`spaces:${organizationId}`), args);
}

/** How many live spaces of the organization a guest can see (others see them all: the organization's counter). */
export function countGuestSpaces(db: Queryable, userId: string, organizationId: string): Promise<number> {
  return countRows(db, sql`"Space" s WHERE s."organizationId" = ${organizationId} AND ${live} AND ${guestSeesSpace('s', userId)}`);
}

/** Live spaces directly inside each collection that the reader can see, in tree order. */
export function collectionSpacesPages(db: Queryable, reader: Reader, collectionIds: readonly string[], args: PageArgs): Promise<Page<SpaceRow>[]> {
  return readPages(
    db,
    collectionIds,
    (parent) => ({ select: selectSpaces(reader.userId), conditions: [sql`s."parentId" = ${parent}`, live, ...visibleTo(reader)] }),
    (id) => byPosition(`collection-spaces:${id}`),
    args,
  );
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
  const key = byCreation(`member-spaces:${member.organizationId}:${member.userId}:${order}`, order === 'desc') as SortKey<MemberSpaceRow>;
  return readPage(db, select, conditions, key, args);
}
