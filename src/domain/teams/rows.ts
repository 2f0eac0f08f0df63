/**
 * Team lists, paged in SQL: an organization's teams, a team's members, a member's teams. Who may
 * see a team is decided here too (see access.ts): members with an organization role see every
 * team; a guest sees the teams they belong to.
 */
import { Prisma, type Team, type TeamMember } from '../../generated/prisma/client.js';
import { readPage, type Page, type PageArgs, type SortKey } from '../pagination/keyset.js';
import { likePattern, selectMembers, toMemberRow, type MemberRow } from '../members/rows.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;
type Queryable = { $queryRaw<T>(query: Sql): Promise<T> };

export type TeamFilter = {
  /** A member (user ID): only the teams they can manage (all for an active organization admin, those they own otherwise). */
  owner?: string | null;
  /** Case-insensitive "contains" on the title. */
  title?: string | null;
};

const teamColumns = sql`t."id", t."organizationId", t."title", t."createdAt", t."memberCount"`;

const byCreation = (tag: string): SortKey<Team> => ({
  tag,
  columns: [
    { sql: raw('t."createdAt"'), type: 'timestamp' },
    { sql: raw('t."id"'), type: 'text' },
  ],
  keyOf: (t) => [t.createdAt, t.id],
});

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

export async function countTeams(db: Queryable, organizationId: string, filter: TeamFilter): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>(sql`SELECT count(*)::int AS n FROM "Team" t WHERE ${Prisma.join(teamConditions(organizationId, filter), ' AND ')}`);
  return row.n;
}

/** A team the caller sees: they have an organization role there, or belong to the team. */
export function callerSeesTeam(t: string, viewerId: string): Sql {
  const team = raw(t);
  return sql`(EXISTS (SELECT 1 FROM "Member" v WHERE v."organizationId" = ${team}."organizationId" AND v."userId" = ${viewerId} AND NOT v."disabled" AND v."role" IS NOT NULL)
    OR EXISTS (SELECT 1 FROM "TeamMember" x WHERE x."teamId" = ${team}."id" AND x."userId" = ${viewerId}))`;
}

export type MemberTeamRow = { team: Team; role: TeamMember['role'] };

function memberTeamConditions(viewerId: string, member: { organizationId: string; userId: string }, title?: string | null): Sql[] {
  const out = [sql`tm."userId" = ${member.userId}`, sql`t."organizationId" = ${member.organizationId}`, callerSeesTeam('t', viewerId)];
  if (title?.trim()) out.push(sql`t."title" ILIKE ${likePattern(title.trim())}`);
  return out;
}

/** A member's teams that the caller can see, oldest team first, with the member's role in each. */
export async function memberTeamsPage(
  db: Queryable,
  viewerId: string,
  member: { organizationId: string; userId: string },
  title: string | null | undefined,
  args: PageArgs,
): Promise<Page<MemberTeamRow>> {
  type Flat = Team & { teamRole: TeamMember['role'] };
  const page = await readPage<Flat>(
    db,
    sql`SELECT ${teamColumns}, tm."role"::text AS "teamRole" FROM "TeamMember" tm JOIN "Team" t ON t."id" = tm."teamId"`,
    memberTeamConditions(viewerId, member, title),
    byCreation(`member-teams:${member.organizationId}:${member.userId}:${title?.trim() ?? ''}`) as SortKey<Flat>,
    args,
  );
  const rows = page.rows.map(({ teamRole, ...team }) => ({ team, role: teamRole }));
  return { ...page, rows, cursorOf: (row) => page.cursorOf({ ...row.team, teamRole: row.role }) };
}

export async function countMemberTeams(db: Queryable, viewerId: string, member: { organizationId: string; userId: string }, title?: string | null): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>(sql`SELECT count(*)::int AS n FROM "TeamMember" tm JOIN "Team" t ON t."id" = tm."teamId"
    WHERE ${Prisma.join(memberTeamConditions(viewerId, member, title), ' AND ')}`);
  return row.n;
}

export type TeamMemberRow = MemberRow & { teamMembership: TeamMember };

/** Members of a team, in order of joining it, each with their organization membership. */
export async function teamMembersPage(db: Queryable, team: Team, args: PageArgs): Promise<Page<TeamMemberRow>> {
  type Flat = Parameters<typeof toMemberRow>[0] & { tm_role: TeamMember['role']; tm_createdAt: Date };
  const key: SortKey<Flat> = {
    tag: `team-members:${team.id}`,
    columns: [
      { sql: raw('tm."createdAt"'), type: 'timestamp' },
      { sql: raw('tm."userId"'), type: 'text' },
    ],
    keyOf: (r) => [r.tm_createdAt, r.userId],
  };
  const select = sql`${selectMembers(sql`, tm."role"::text AS "tm_role", tm."createdAt" AS "tm_createdAt"`)}
    JOIN "TeamMember" tm ON tm."userId" = m."userId" AND tm."teamId" = ${team.id}`;
  const page = await readPage<Flat>(db, select, [sql`m."organizationId" = ${team.organizationId}`], key, args);
  const rows = page.rows.map((r) => {
    const { tm_role, tm_createdAt, ...rest } = toMemberRow(r);
    return { ...rest, teamMembership: { teamId: team.id, userId: r.userId, role: tm_role, createdAt: tm_createdAt } };
  });
  return { ...page, rows, cursorOf: (row) => page.cursorOf({ tm_createdAt: row.teamMembership.createdAt, userId: row.userId } as Flat) };
}
