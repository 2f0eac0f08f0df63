/**
 * Who has access to a space or a collection, paged in SQL: direct grants to users and to teams,
 * and every member with their effective role through any path (see role-sql.ts).
 */
import { Prisma, type ContentPermission } from '../../generated/prisma/client.js';
import { readPages, type Page, type PageArgs, type SortKey, type Queryable } from '../pagination/keyset.js';
import { countPerKey } from '../pagination/count.js';
import { callerSeesTeam } from '../teams/rows.js';
import type { Access } from './access.js';
import type { ContentRef } from './content.js';
import { collectionRoleSql, spaceRoleSql } from './role-sql.js';
import type { Role } from './roles.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

/** Grants on the content named by `content` (SQL naming a space or collection ID). */
const onContent = (content: Sql) => sql`(p."spaceId" = ${content} OR p."collectionId" = ${content})`;

const byGrantDate = (tag: string): SortKey<ContentPermission> => ({
  tag,
  columns: [
    { sql: raw('p."createdAt"'), type: 'timestamp' },
    { sql: raw('p."id"'), type: 'text' },
  ],
  keyOf: (p) => [p.createdAt, p.id],
});

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
type Kind = ContentRef['kind'];

/**
 * Members `m` with their role on the content row `x` named by `content` (a space, with its
 * parent `pc`, or a collection): members with an organization role all have access; guests when
 * a grant reaches the content (directly, on an ancestor collection, or through a team).
 */
function audienceQuery(kind: Kind, content: Sql, only: Role | null | undefined, columns: Sql): { select: Sql; conditions: Sql[] } {
  const ancestors = kind === 'space' ? raw('pc."ancestors"') : raw('x."ancestors"');
  const from = kind === 'space' ? sql`"Space" x LEFT JOIN "Collection" pc ON pc."id" = x."parentId"` : sql`"Collection" x`;
  const role = kind === 'space' ? spaceRoleSql('m', 'x', 'pc') : collectionRoleSql('m', 'x');
  const granted = kind === 'space' ? sql`(p."spaceId" = x."id" OR p."collectionId" = ANY(${ancestors}))` : sql`p."collectionId" = ANY(${ancestors})`;
  const reached = sql`(m."role" IS NOT NULL OR m."userId" IN (
    SELECT p."userId" FROM "ContentPermission" p WHERE ${granted} AND p."userId" IS NOT NULL
    UNION ALL
    SELECT t."userId" FROM "ContentPermission" p JOIN "TeamMember" t ON t."teamId" = p."teamId" WHERE ${granted}))`;
  return {
    select: sql`SELECT ${columns}, ${role} AS "role" FROM ${from} JOIN "Member" m ON m."organizationId" = x."organizationId"`,
    conditions: [sql`x."id" = ${content}`, sql`NOT m."disabled"`, reached, only ? sql`${role} = ${only}` : sql`${role} IS NOT NULL`],
  };
}

const byJoining = (tag: string): SortKey<AudienceEntry> => ({
  tag,
  columns: [
    { sql: raw('m."joinedAt"'), type: 'timestamp' },
    { sql: raw('m."userId"'), type: 'text' },
  ],
  keyOf: (e) => [e.joinedAt, e.userId],
});

/** Every member with access to each content (spaces or collections, by ID) and their effective role, in order of joining. */
export function audiencePages(db: Queryable, kind: Kind, ids: readonly string[], only: Role | null | undefined, args: PageArgs): Promise<Page<AudienceEntry>[]> {
  return readPages(db, ids, (content) => audienceQuery(kind, content, only, sql`m."userId", m."joinedAt"`), (id) => byJoining(`audience:${id}:${only ?? ''}`), args);
}

export function countAudience(db: Queryable, kind: Kind, ids: readonly string[], only: Role | null | undefined): Promise<number[]> {
  return countPerKey(db, ids, (content) => {
    const { select, conditions } = audienceQuery(kind, content, only, sql`1 AS one`);
    return sql`(${select} WHERE ${Prisma.join(conditions, ' AND ')}) a`;
  });
}

/**
 * Who may list who has access: members with an organization role, and whoever administers the
 * content (a guest granted `admin` manages its sharing). Other guests only see the content.
 */
export async function canListAudience(access: Access, content: ContentRef & { viewerRole: Role | null }): Promise<boolean> {
  const { role } = await access.orgRole(content.organizationId);
  return role !== null || content.viewerRole === 'admin';
}
