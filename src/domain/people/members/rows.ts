/** Members of an organization, paged in SQL with every filter and sort of the member list. */
import { createHash } from 'node:crypto';
import { Prisma, type Member, type Organization, type User } from '../../../generated/prisma/client.js';
import { ROLES, type Role } from '../../access/roles.js';
import { readPage, type Page, type PageArgs, type SortKey, type Queryable } from '../../kernel/pagination/keyset.js';
import { countRows } from '../../kernel/pagination/count.js';
import { badRequest } from '../../../lib/errors.js';
import { reachSql, type Reach } from '../../access/reach.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

export const MEMBER_SORTS = ['joinedAt', 'lastSeenAt', 'name'] as const;
export const MEMBER_ROLE_FILTERS = [...ROLES, 'guest'] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];

export type MemberFilter = {
  /** Default `desc`. */
  order?: 'asc' | 'desc' | null;
  /** A role, or `guest` for members without one. */
  role?: Role | 'guest' | null;
  /** Case-insensitive "contains" on display name and email. */
  search?: string | null;
  /** Default `joinedAt`; `lastSeenAt` lists only members who have been seen ("active"). */
  sort?: MemberSort | null;
};

export type MemberRow = Member & { user: User };

type Flat = Member & { u_id: string; u_email: string; u_displayName: string; u_photoURL: string | null; u_createdAt: Date; u_claimedAt: Date | null };

/** Members `m` with their user; `extra` adds columns. */
export function selectMembers(extra: Sql = sql``): Sql {
  return sql`SELECT m."organizationId", m."userId", m."role"::text AS "role", m."disabled", m."sso", m."joinedAt", m."lastSeenAt", m."sortName",
      u."id" AS "u_id", u."email" AS "u_email", u."displayName" AS "u_displayName", u."photoURL" AS "u_photoURL", u."createdAt" AS "u_createdAt", u."claimedAt" AS "u_claimedAt" ${extra}
    FROM "Member" m JOIN "User" u ON u."id" = m."userId"`;
}

export function toMemberRow<T extends Flat>(row: T): Omit<T, 'u_id' | 'u_email' | 'u_displayName' | 'u_photoURL' | 'u_createdAt' | 'u_claimedAt'> & { user: User } {
  const { u_id, u_email, u_displayName, u_photoURL, u_createdAt, u_claimedAt, ...member } = row;
  return { ...member, user: { id: u_id, email: u_email, displayName: u_displayName, photoURL: u_photoURL, createdAt: u_createdAt, claimedAt: u_claimedAt } };
}

const SORT_COLUMN: Record<MemberSort, { sql: Sql; type: 'timestamp' | 'text' }> = {
  joinedAt: { sql: raw('m."joinedAt"'), type: 'timestamp' },
  lastSeenAt: { sql: raw('m."lastSeenAt"'), type: 'timestamp' },
  name: { sql: raw('m."sortName"'), type: 'text' },
};

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 12);

/** `%` and `_` match themselves in a "contains" search. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

function conditions(organizationId: string, filter: MemberFilter): Sql[] {
  const out = [sql`m."organizationId" = ${organizationId}`];
  if (filter.role === 'guest') out.push(sql`m."role" IS NULL`);
  else if (filter.role) out.push(sql`m."role" = ${filter.role}::"Role"`);
  const search = filter.search?.trim();
  if (search) out.push(sql`(u."displayName" ILIKE ${likePattern(search)} OR u."email" ILIKE ${likePattern(search)})`);
  if (filter.sort === 'lastSeenAt') out.push(sql`m."lastSeenAt" IS NOT NULL`);
  return out;
}

/** The longest member search: a "contains" pattern costs what it is long, on every row it is tried on. */
export const MAX_SEARCH_LENGTH = 512;

/**
 * A page of the organization's members under `filter`. `within`: a list drawn from the members
 * (who has access to a site): its own conditions, columns and cursor tag, on top of the filter.
 */
export type MemberSubset = { tag: string; conditions: Sql[]; columns: Sql };

export async function membersPage<Extra = object>(db: Queryable, organizationId: string, filter: MemberFilter, args: PageArgs, within?: MemberSubset): Promise<Page<MemberRow & Extra>> {
  if ((filter.search?.length ?? 0) > MAX_SEARCH_LENGTH) throw badRequest(`Invalid value for "search": at most ${MAX_SEARCH_LENGTH} characters`, 'search');
  const sort = filter.sort ?? 'joinedAt';
  const order = filter.order ?? 'desc';
  const key: SortKey<Flat> = {
    tag: `${within ? `${within.tag}:` : ''}members:${organizationId}:${sort}:${order}:${filter.role ?? ''}:${digest(filter.search?.trim() ?? '')}`,
    descending: order === 'desc',
    columns: [SORT_COLUMN[sort], { sql: raw('m."userId"'), type: 'text' }],
    keyOf: (m) => [sort === 'name' ? m.sortName : m[sort]!, m.userId],
  };
  const page = await readPage<Flat>(db, selectMembers(within?.columns), [...conditions(organizationId, filter), ...(within?.conditions ?? [])], key, args);
  return { ...page, rows: page.rows.map(toMemberRow) as (MemberRow & Extra)[], cursorOf: (row) => page.cursorOf(row as unknown as Flat) };
}

/** The size of a `within` list under `filter` (a COUNT with the list's predicate). */
export function countMembersWithin(db: Queryable, organizationId: string, filter: MemberFilter, within: MemberSubset): Promise<number> {
  return countRows(db, sql`"Member" m JOIN "User" u ON u."id" = m."userId" WHERE ${Prisma.join([...conditions(organizationId, filter), ...within.conditions], ' AND ')}`);
}

type MemberCounters = Pick<Organization, 'id' | 'memberCount' | 'seenMemberCount'>;

/**
 * The size of the filtered list: one of the organization's counters when the filter is only the
 * sort (every member, or those seen once for `lastSeenAt`), a COUNT with the list's predicate otherwise.
 */
export function countMembers(db: Queryable, org: MemberCounters, filter: MemberFilter): number | Promise<number> {
  if (!filter.role && !filter.search?.trim()) return filter.sort === 'lastSeenAt' ? org.seenMemberCount : org.memberCount;
  return countRows(db, sql`"Member" m JOIN "User" u ON u."id" = m."userId" WHERE ${Prisma.join(conditions(org.id, filter), ' AND ')}`);
}

/**
 * Which of `userIds` the caller may see in full (with their e-mail): themself, members of an
 * organization where the caller has an organization role (they read its members), and teammates.
 * Others the caller meets (the author of a change request, a reviewer) show their name only.
 */
export async function visibleUsers(db: Queryable, viewerId: string, userIds: readonly string[], reach: Reach = {}): Promise<Set<string>> {
  const rows = await db.$queryRaw<{ id: string }[]>(sql`SELECT u."id" FROM unnest(${[...userIds]}::text[]) AS u("id")
    WHERE u."id" = ${viewerId}
    OR EXISTS (SELECT 1 FROM "Member" them JOIN "Member" me ON me."organizationId" = them."organizationId"
      WHERE them."userId" = u."id" AND me."userId" = ${viewerId} AND NOT me."disabled" AND me."role" IS NOT NULL AND ${reachSql(reach, 'me."organizationId"')})
    OR EXISTS (SELECT 1 FROM "TeamMember" them JOIN "TeamMember" me ON me."teamId" = them."teamId"
      JOIN "Team" t ON t."id" = me."teamId" JOIN "Member" mine ON mine."organizationId" = t."organizationId" AND mine."userId" = me."userId"
      WHERE them."userId" = u."id" AND me."userId" = ${viewerId} AND NOT mine."disabled" AND ${reachSql(reach, 't."organizationId"')})`);
  return new Set(rows.map((row) => row.id));
}
