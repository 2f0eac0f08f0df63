/**
 * Team lists, paged in SQL: an organization's teams, a team's members, a member's teams. Who may
 * see a team is decided here too (see access.ts): members with an organization role see every
 * team; a guest sees the teams they belong to.
 */
import { Prisma, type Team, type TeamMember } from '../../../generated/prisma/client.js';
import { byTimeThenId, readPage, readPages, type Page, type PageArgs, type SortKey, type Queryable } from '../../kernel/pagination/keyset.js';
import { countPerKey, countRows } from '../../kernel/pagination/count.js';
import { likePattern, selectMembers, toMemberRow, type MemberRow } from '../members/rows.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

export type TeamFilter = {
  /** A member (user ID): only the teams they can manage (all for an active organization admin, those they own otherwise). */
  owner?: string | null;
  /** Case-insensitive "contains" on the title. */
  title?: string | null;
};

const teamColumns = sql`t."id", t."organizationId", t."title", t."createdAt", t."memberCount"`;

const byCreation = (tag: string) => byTimeThenId<Team>(tag, 't."createdAt"', 't."id"', (t) => [t.createdAt, t.id]);

function teamConditions(organizationId: string, filter: TeamFilter): Sql[] {
  const out = [sql`t."organizationId" = ${organizationId}`];
  const title = filter.title?.trim();
  if (title) out.push(sql`t."title" ILIKE ${likePattern(title)}`);
  if (filter.owner != null) {
    out.push(sql`EXISTS (SELECT 1 FROM "Member" o WHERE o."organizationId" = t."organizationId" AND o."userId" = ${filter.owner} AND NOT o."disabled"
      AND (o."role" = 'admin' OR EXISTS (SELECT 1 FROM "TeamMember" x WHERE x."teamId" = t."id" AND x."userId" = o."userId" AND x."role" = 'owner')))`);
  }
  return out;
}

export const isUnfilteredTeams = (filter: TeamFilter) => filter.owner == null && !filter.title?.trim();

/** Teams of an organization, oldest first (readers are members with an organization role: they see every team). */
export function teamsPage(db: Queryable, organizationId: string, filter: TeamFilter, args: PageArgs): Promise<Page<Team>> {
  const tag = `teams:${organizationId}:${filter.owner ?? ''}:${filter.title?.trim() ?? ''}`;
  return readPage(db, sql`SELECT ${teamColumns} FROM "Team" t`, teamConditions(organizationId, filter), byCreation(tag), args);
}

export function countTeams(db: Queryable, organizationId: string, filter: TeamFilter): Promise<number> {
  return countRows(db, sql`"Team" t WHERE ${Prisma.join(teamConditions(organizationId, filter), ' AND ')}`);
}

/** A team the caller sees: they have an organization role there, or belong to the team. */
export function callerSeesTeam(t: string, viewerId: string): Sql {
  const team = raw(t);
  return sql`(EXISTS (SELECT 1 FROM "Member" v WHERE v."organizationId" = ${team}."organizationId" AND v."userId" = ${viewerId} AND NOT v."disabled" AND v."role" IS NOT NULL)
    OR EXISTS (SELECT 1 FROM "TeamMember" x WHERE x."teamId" = ${team}."id" AND x."userId" = ${viewerId}))`;
}

export type MemberTeamRow = { team: Team; role: TeamMember['role'] };

/** A member named by `key` (SQL of a memberKey, "organizationId:userId"): their teams the caller sees. */
function memberTeamConditions(viewerId: string, key: Sql, title?: string | null): Sql[] {
  const out = [sql`tm."userId" = split_part(${key}, ':', 2)`, sql`t."organizationId" = split_part(${key}, ':', 1)`, callerSeesTeam('t', viewerId)];
  if (title?.trim()) out.push(sql`t."title" ILIKE ${likePattern(title.trim())}`);
  return out;
}

const memberTeamsFrom = sql`"TeamMember" tm JOIN "Team" t ON t."id" = tm."teamId"`;

/** Each member's (by memberKey) teams that the caller can see, oldest team first, with the member's role in each. */
export async function memberTeamsPages(db: Queryable, viewerId: string, memberKeys: readonly string[], title: string | null | undefined, args: PageArgs): Promise<Page<MemberTeamRow>[]> {
  type Flat = Team & { teamRole: TeamMember['role'] };
  const pages = await readPages<Flat>(
    db,
    memberKeys,
    (key) => ({ select: sql`SELECT ${teamColumns}, tm."role"::text AS "teamRole" FROM ${memberTeamsFrom}`, conditions: memberTeamConditions(viewerId, key, title) }),
    (key) => byCreation(`member-teams:${key}:${title?.trim() ?? ''}`) as SortKey<Flat>,
    args,
  );
  return pages.map((page) => ({
    ...page,
    rows: page.rows.map(({ teamRole, ...team }) => ({ team, role: teamRole })),
    cursorOf: (row: MemberTeamRow) => page.cursorOf({ ...row.team, teamRole: row.role }),
  }));
}

/** Per member (by memberKey), how many of their teams the caller sees (matching `title` when given). */
export function countMemberTeams(db: Queryable, viewerId: string, memberKeys: readonly string[], title?: string | null): Promise<number[]> {
  return countPerKey(db, memberKeys, (key) => sql`${memberTeamsFrom} WHERE ${Prisma.join(memberTeamConditions(viewerId, key, title), ' AND ')}`);
}

export type TeamMemberRow = MemberRow & { teamMembership: TeamMember };

/** Members of each team (by ID), in order of joining it, each with their organization membership. */
export async function teamMembersPages(db: Queryable, teamIds: readonly string[], args: PageArgs): Promise<Page<TeamMemberRow>[]> {
  type Flat = Parameters<typeof toMemberRow>[0] & { tm_teamId: string; tm_role: TeamMember['role']; tm_createdAt: Date };
  const keyOf = (teamId: string) => byTimeThenId<Flat>(`team-members:${teamId}`, 'tm."createdAt"', 'tm."userId"', (r) => [r.tm_createdAt, r.userId]);
  const select = sql`${selectMembers(sql`, tm."teamId" AS "tm_teamId", tm."role"::text AS "tm_role", tm."createdAt" AS "tm_createdAt"`)}
    JOIN "TeamMember" tm ON tm."userId" = m."userId" JOIN "Team" team ON team."id" = tm."teamId" AND team."organizationId" = m."organizationId"`;
  const pages = await readPages<Flat>(db, teamIds, (teamId) => ({ select, conditions: [sql`tm."teamId" = ${teamId}`] }), keyOf, args);
  return pages.map((page) => ({
    ...page,
    rows: page.rows.map((r) => {
      const { tm_teamId, tm_role, tm_createdAt, ...rest } = toMemberRow(r);
      return { ...rest, teamMembership: { teamId: tm_teamId, userId: r.userId, role: tm_role, createdAt: tm_createdAt } };
    }),
    cursorOf: (row: TeamMemberRow) => page.cursorOf({ tm_createdAt: row.teamMembership.createdAt, userId: row.userId } as Flat),
  }));
}
