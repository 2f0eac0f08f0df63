/**
 * Who has access to a space or a collection, paged in SQL: direct grants to users and to teams,
 * and every member with their effective role through any path (see role-sql.ts).
 */
import { Prisma, type ContentPermission } from '../../generated/prisma/client.js';
import { byTimeThenId, readPages, readPagesWith, whereAll, type Page, type PageArgs, type PagePlan, type PageQuery, type Queryable } from '../kernel/pagination/keyset.js';
import { countPerKey } from '../kernel/pagination/count.js';
import { callerSeesTeam } from '../people/teams/rows.js';
import { collectionRoleSql, spaceRoleSql } from './role-sql.js';
import type { Role } from './roles.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

/** Grants on the content named by `content` (SQL naming a space or collection ID). */
const onContent = (content: Sql) => sql`(p."spaceId" = ${content} OR p."collectionId" = ${content})`;

const byGrantDate = (tag: string) => byTimeThenId<ContentPermission>(tag, 'p."createdAt"', 'p."id"', (p) => [p.createdAt, p.id]);

const selectGrants = sql`SELECT p."id", p."organizationId", p."spaceId", p."collectionId", p."userId", p."teamId", p."role"::text AS "role", p."createdAt" FROM "ContentPermission" p`;

export type UserGrant = ContentPermission & { userId: string };

const userGrantConditions = (content: Sql) => [onContent(content), sql`p."userId" IS NOT NULL`];

/** Users granted a role directly on each content (by ID), oldest grant first. */
export function userGrantsPages(db: Queryable, ids: readonly string[], args: PageArgs): Promise<Page<UserGrant>[]> {
  return readPages(db, ids, (content) => ({ select: selectGrants, conditions: userGrantConditions(content) }), (id) => byGrantDate(`users:${id}`), args) as Promise<Page<UserGrant>[]>;
}

export function countUserGrants(db: Queryable, ids: readonly string[]): Promise<number[]> {
  return countPerKey(db, ids, (content) => sql`"ContentPermission" p WHERE ${Prisma.join(userGrantConditions(content), ' AND ')}`);
}

export type TeamGrant = ContentPermission & { teamId: string };

const teamGrantConditions = (viewerId: string) => (content: Sql) => [
  onContent(content),
  sql`p."teamId" IS NOT NULL`,
  sql`EXISTS (SELECT 1 FROM "Team" t WHERE t."id" = p."teamId" AND ${callerSeesTeam('t', viewerId)})`,
];

/** Teams granted a role on each content (by ID) that the caller can see, oldest grant first. */
export function teamGrantsPages(db: Queryable, viewerId: string, ids: readonly string[], args: PageArgs): Promise<Page<TeamGrant>[]> {
  const conditions = teamGrantConditions(viewerId);
  return readPages(db, ids, (content) => ({ select: selectGrants, conditions: conditions(content) }), (id) => byGrantDate(`teams:${id}`), args) as Promise<Page<TeamGrant>[]>;
}

export function countTeamGrants(db: Queryable, viewerId: string, ids: readonly string[]): Promise<number[]> {
  const conditions = teamGrantConditions(viewerId);
  return countPerKey(db, ids, (content) => sql`"ContentPermission" p WHERE ${Prisma.join(conditions(content), ' AND ')}`);
}

export type AudienceEntry = { userId: string; role: Role; joinedAt: Date };
type Kind = 'space' | 'collection';

/**
 * Who holds a grant reaching the content named by `content` (a space or collection ID): directly,
 * on an ancestor collection, or through a team. Written against the ID only (not a joined row), so
 * PostgreSQL runs it once per content rather than once per member.
 */
function grantHolders(kind: Kind, content: Sql): Sql {
  const ancestors =
    kind === 'space'
      ? sql`(SELECT c."ancestors" FROM "Space" s JOIN "Collection" c ON c."id" = s."parentId" WHERE s."id" = ${content})`
      : sql`(SELECT c."ancestors" FROM "Collection" c WHERE c."id" = ${content})`;
  const granted = kind === 'space' ? sql`(p."spaceId" = ${content} OR p."collectionId" = ANY(${ancestors}::text[]))` : sql`p."collectionId" = ANY(${ancestors}::text[])`;
  return sql`SELECT p."userId" FROM "ContentPermission" p WHERE ${granted} AND p."userId" IS NOT NULL
    UNION
    SELECT t."userId" FROM "ContentPermission" p JOIN "TeamMember" t ON t."teamId" = p."teamId" WHERE ${granted}`;
}

/** Each member `m`'s effective role on the content. */
function roleOn(kind: Kind, content: Sql): Sql {
  return kind === 'space'
    ? sql`(SELECT ${spaceRoleSql('m', 'x', 'pc')} FROM "Space" x LEFT JOIN "Collection" pc ON pc."id" = x."parentId" WHERE x."id" = ${content})`
    : sql`(SELECT ${collectionRoleSql('m', 'x')} FROM "Collection" x WHERE x."id" = ${content})`;
}

/**
 * Members with access to the content: every enabled member with an organization role, and the
 * enabled guests a grant reaches (everyone listed has a role: an organization role or a grant);
 * with `only`, those whose role is exactly that. Two branches, each read in order of joining from
 * a Member index up to the page's limit, so a page reads about `limit` members whatever the
 * organization's size (filtered by role: until it has found `limit` matches).
 */
function withAccess(kind: Kind, content: Sql, only: Role | null | undefined, plan?: PagePlan): Sql {
  const organization = sql`(SELECT x."organizationId" FROM ${raw(kind === 'space' ? '"Space"' : '"Collection"')} x WHERE x."id" = ${content})`;
  const columns = sql`m."organizationId", m."userId", m."role", m."disabled", m."joinedAt"`;
  const branch = (who: Sql) => {
    const conditions = [sql`m."organizationId" = ${organization}`, sql`NOT m."disabled"`, who, ...(only ? [sql`${roleOn(kind, content)} = ${only}`] : []), ...(plan?.seek ?? [])];
    return sql`(SELECT ${columns} FROM "Member" m ${whereAll(conditions)} ${plan ? sql`ORDER BY ${plan.orderBy} LIMIT ${plan.limit}` : sql``})`;
  };
  return sql`(${branch(sql`m."role" IS NOT NULL`)} UNION ALL ${branch(sql`m."role" IS NULL AND m."userId" IN (${grantHolders(kind, content)})`)}) m`;
}

const byJoining = (tag: string) => byTimeThenId<AudienceEntry>(tag, 'm."joinedAt"', 'm."userId"', (e) => [e.joinedAt, e.userId]);

/**
 * Every member with access to each content (spaces or collections, by ID) and their effective
 * role, in order of joining. Filtered by role, a page reads members until it has `limit` matches.
 */
export function audiencePages(db: Queryable, kind: Kind, ids: readonly string[], only: Role | null | undefined, args: PageArgs): Promise<Page<AudienceEntry>[]> {
  const page: PageQuery = (content, plan) =>
    sql`SELECT m."userId", m."joinedAt", ${roleOn(kind, content)} AS "role" FROM ${withAccess(kind, content, only, plan)} ORDER BY ${plan.orderBy} LIMIT ${plan.limit}`;
  return readPagesWith(db, ids, page, (id) => byJoining(`audience:${id}:${only ?? ''}`), args);
}

/**
 * How many members have access to each content: unfiltered, the organization's counter of
 * members with a role plus the guests a grant reaches; filtered by role, a COUNT.
 */
export function countAudience(db: Queryable, kind: Kind, ids: readonly string[], only: Role | null | undefined): Promise<number[]> {
  if (!only) {
    return countPerKey(db, ids, (content) => {
      const table = raw(kind === 'space' ? '"Space"' : '"Collection"');
      return sql`(SELECT o."roleMemberCount" AS n FROM ${table} x JOIN "Organization" o ON o."id" = x."organizationId" WHERE x."id" = ${content}
        UNION ALL
        SELECT 1 FROM "Member" m JOIN ${table} x ON x."organizationId" = m."organizationId" AND x."id" = ${content}
        WHERE m."role" IS NULL AND NOT m."disabled" AND m."userId" IN (${grantHolders(kind, content)})) a`;
    }, 'sum(a.n)');
  }
  return countPerKey(db, ids, (content) => withAccess(kind, content, only));
}
