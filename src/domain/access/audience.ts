/**
 * Who has access to a space or a collection, paged in SQL: direct grants to users and to teams,
 * and every member with their effective role through any path (see role-sql.ts).
 */
import { Prisma, type ContentPermission } from '../../generated/prisma/client.js';
import { readPage, type Page, type PageArgs, type SortKey } from '../pagination/keyset.js';
import { callerSeesTeam } from '../teams/rows.js';
import type { Access } from './access.js';
import type { ContentRef } from './content.js';
import { collectionRoleSql, spaceRoleSql } from './role-sql.js';
import type { Role } from './roles.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;
type Queryable = { $queryRaw<T>(query: Sql): Promise<T> };

const grantColumn = (content: ContentRef) => raw(content.kind === 'space' ? 'p."spaceId"' : 'p."collectionId"');

const byGrantDate = (tag: string): SortKey<ContentPermission> => ({
  tag,
  columns: [
    { sql: raw('p."createdAt"'), type: 'timestamp' },
    { sql: raw('p."id"'), type: 'text' },
  ],
  keyOf: (p) => [p.createdAt, p.id],
});

const grantColumns = sql`p."id", p."organizationId", p."spaceId", p."collectionId", p."userId", p."teamId", p."role"::text AS "role", p."createdAt"`;

export type UserGrant = ContentPermission & { userId: string };

/** Users granted a role directly on the content, oldest grant first. */
export function userGrantsPage(db: Queryable, content: ContentRef, args: PageArgs): Promise<Page<UserGrant>> {
  return readPage(db, sql`SELECT ${grantColumns} FROM "ContentPermission" p`, [sql`${grantColumn(content)} = ${content.id}`, sql`p."userId" IS NOT NULL`], byGrantDate(`users:${content.id}`), args) as Promise<Page<UserGrant>>;
}

export async function countUserGrants(db: Queryable, content: ContentRef): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>(sql`SELECT count(*)::int AS n FROM "ContentPermission" p WHERE ${grantColumn(content)} = ${content.id} AND p."userId" IS NOT NULL`);
  return row.n;
}

export type TeamGrant = ContentPermission & { teamId: string };

const teamGrantConditions = (viewerId: string, content: ContentRef) => [
  sql`${grantColumn(content)} = ${content.id}`,
  sql`p."teamId" IS NOT NULL`,
  sql`EXISTS (SELECT 1 FROM "Team" t WHERE t."id" = p."teamId" AND ${callerSeesTeam('t', viewerId)})`,
];

/** Teams granted a role on the content that the caller can see, oldest grant first. */
export function teamGrantsPage(db: Queryable, viewerId: string, content: ContentRef, args: PageArgs): Promise<Page<TeamGrant>> {
  return readPage(db, sql`SELECT ${grantColumns} FROM "ContentPermission" p`, teamGrantConditions(viewerId, content), byGrantDate(`teams:${content.id}`), args) as Promise<Page<TeamGrant>>;
}

export async function countTeamGrants(db: Queryable, viewerId: string, content: ContentRef): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>(sql`SELECT count(*)::int AS n FROM "ContentPermission" p WHERE ${Prisma.join(teamGrantConditions(viewerId, content), ' AND ')}`);
  return row.n;
}

export type AudienceEntry = { userId: string; role: Role; joinedAt: Date };

/**
 * The content row `x` (with its parent `pc` for a space), the role of member `m` on it, and the
 * condition that finds guests holding a grant that reaches it (members with an organization
 * role all have access).
 */
function audienceParts(content: ContentRef) {
  const ancestors = content.kind === 'space' ? raw('pc."ancestors"') : raw('x."ancestors"');
  const from =
    content.kind === 'space'
      ? sql`"Space" x LEFT JOIN "Collection" pc ON pc."id" = x."parentId"`
      : sql`"Collection" x`;
  const role = content.kind === 'space' ? spaceRoleSql('m', 'x', 'pc') : collectionRoleSql('m', 'x');
  const onContent = content.kind === 'space' ? sql`(p."spaceId" = x."id" OR p."collectionId" = ANY(${ancestors}))` : sql`p."collectionId" = ANY(${ancestors})`;
  const reached = sql`(m."role" IS NOT NULL OR m."userId" IN (
    SELECT p."userId" FROM "ContentPermission" p WHERE ${onContent} AND p."userId" IS NOT NULL
    UNION ALL
    SELECT t."userId" FROM "ContentPermission" p JOIN "TeamMember" t ON t."teamId" = p."teamId" WHERE ${onContent}))`;
  return { from, role, reached };
}

function audienceQuery(content: ContentRef, only: Role | null | undefined, select: Sql): { select: Sql; conditions: Sql[] } {
  const { from, role, reached } = audienceParts(content);
  return {
    select: sql`SELECT ${select}, ${role} AS "role" FROM ${from} JOIN "Member" m ON m."organizationId" = x."organizationId"`,
    conditions: [sql`x."id" = ${content.id}`, sql`NOT m."disabled"`, reached, only ? sql`${role} = ${only}` : sql`${role} IS NOT NULL`],
  };
}

/** Every member with access to the content and their effective role (only `only` when given), in order of joining. */
export function audiencePage(db: Queryable, content: ContentRef, only: Role | null | undefined, args: PageArgs): Promise<Page<AudienceEntry>> {
  const { select, conditions } = audienceQuery(content, only, sql`m."userId", m."joinedAt"`);
  const key: SortKey<AudienceEntry> = {
    tag: `audience:${content.id}:${only ?? ''}`,
    columns: [
      { sql: raw('m."joinedAt"'), type: 'timestamp' },
      { sql: raw('m."userId"'), type: 'text' },
    ],
    keyOf: (e) => [e.joinedAt, e.userId],
  };
  return readPage(db, select, conditions, key, args);
}

export async function countAudience(db: Queryable, content: ContentRef, only: Role | null | undefined): Promise<number> {
  const { select, conditions } = audienceQuery(content, only, sql`1 AS one`);
  const [row] = await db.$queryRaw<{ n: number }[]>(sql`SELECT count(*)::int AS n FROM (${select} WHERE ${Prisma.join(conditions, ' AND ')}) a`);
  return row.n;
}

/**
 * Who may list who has access: members with an organization role, and whoever administers the
 * content (a guest granted `admin` manages its sharing). Other guests only see the content.
 */
export async function canListAudience(access: Access, content: ContentRef & { viewerRole: Role | null }): Promise<boolean> {
  const { role } = await access.orgRole(content.organizationId);
  return role !== null || content.viewerRole === 'admin';
}
