/** Loaders of organizations (with the caller's membership), users, members and teams. */
import { countPerKey } from '../kernel/pagination/count.js';
import { liveSql } from '../content/spaces/lifecycle.js';
import { Prisma, type Member, type Team, type TeamMember, type User } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';
import { loadOrganizations, type OrganizationRow } from '../people/organizations/rows.js';
import { visibleUsers } from '../people/members/rows.js';
import { guestSeesSpace, siteRoleSql } from '../access/role-sql.js';
import type { Reach } from '../access/reach.js';
import { countMemberTeams, memberTeamsPages, teamMembersPages, type MemberTeamRow, type TeamMemberRow } from '../people/teams/rows.js';
import type { Page } from '../kernel/pagination/keyset.js';
import { fromPageVariant } from './registry.js';
import { byId, memberKey, splitKey, teamMemberKey } from './keys.js';
import type { LoaderRegistry } from './registry.js';

const { sql } = Prisma;

/** Counts keyed by `memberKey`, from rows of (organizationId, userId, n). */
function countsByMember(rows: { organizationId: string; userId: string; n: number }[], keys: readonly string[]): number[] {
  const map = new Map(rows.map((r) => [memberKey(r.organizationId, r.userId), r.n]));
  return keys.map((k) => map.get(k) ?? 0);
}

export function peopleLoaders(db: Db, viewerId: string, registry: LoaderRegistry, reach: Reach) {
  return {
    organization: registry.track<string, OrganizationRow | null>(async (ids) => byId(await loadOrganizations(db, viewerId, ids), ids)),
    user: registry.track<string, User | null>(async (ids) => byId(await db.user.findMany({ where: { id: { in: [...ids] } } }), ids)),
    /** Whether the caller may see a user in full (members/access.ts visibleUsers); primed where a read implies it. */
    userVisible: registry.track<string, boolean>(async (ids) => {
      const visible = await visibleUsers(db, viewerId, ids, reach);
      return ids.map((id) => visible.has(id));
    }),
    team: registry.track<string, Team | null>(async (ids) => byId(await db.team.findMany({ where: { id: { in: [...ids] } } }), ids)),
    /** One membership, by `memberKey`. */
    member: registry.track<string, Member | null>(async (keys) => {
      const rows = await db.member.findMany({ where: { OR: keys.map(splitKey).map(([organizationId, userId]) => ({ organizationId, userId })) } });
      const map = new Map(rows.map((r) => [memberKey(r.organizationId, r.userId), r]));
      return keys.map((k) => map.get(k) ?? null);
    }),
    /** One user's membership of one team, by `teamMemberKey`. */
    teamMember: registry.track<string, TeamMember | null>(async (keys) => {
      const rows = await db.teamMember.findMany({ where: { OR: keys.map(splitKey).map(([teamId, userId]) => ({ teamId, userId })) } });
      const map = new Map(rows.map((r) => [teamMemberKey(r.teamId, r.userId), r]));
      return keys.map((k) => map.get(k) ?? null);
    }),
    /** How many teams each member (by memberKey) belongs to, among the teams the caller sees; variant: the title filter. */
    memberTeamCount: registry.variants<number>((title, keys) => countMemberTeams(db, viewerId, keys, title || null)),
    /** A page of each member's (by memberKey) teams; variant: pageVariant(args, title). */
    memberTeams: registry.variants<Page<MemberTeamRow>>((variant, keys) => {
      const { args, more } = fromPageVariant(variant);
      return memberTeamsPages(db, viewerId, keys, more[0] as string | null, args);
    }),
    /** A page of each team's members; variant: pageVariant(args). */
    teamMembers: registry.variants<Page<TeamMemberRow>>((variant, ids) => teamMembersPages(db, ids, fromPageVariant(variant).args)),
    /** How many live spaces each member (by memberKey) holds a direct grant on, among the spaces the caller sees. */
    memberSpaceCount: registry.track<string, number>(async (keys) => {
      const pairs = keys.map(splitKey);
      const rows = await db.$queryRaw<{ organizationId: string; userId: string; n: number }[]>(sql`
        SELECT p."organizationId", p."userId", count(*)::int AS n FROM "ContentPermission" p
        JOIN "Space" s ON s."id" = p."spaceId" AND ${liveSql('s')}
        JOIN "Member" viewer ON viewer."organizationId" = s."organizationId" AND viewer."userId" = ${viewerId} AND NOT viewer."disabled"
        WHERE (p."organizationId", p."userId") IN (SELECT * FROM unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[]))
          AND (viewer."role" IS NOT NULL OR ${guestSeesSpace('s', viewerId)})
        GROUP BY 1, 2`);
      return countsByMember(rows, keys);
    }),
    /**
     * How many sites each member (by memberKey) has a role on (role-sql.ts siteRoleSql), among
     * those the caller has a role on too: one statement for a whole member list (an organization
     * holds few sites).
     */
    memberSiteCount: registry.track<string, number>(async (keys) => {
      const pairs = keys.map(splitKey);
      const rows = await db.$queryRaw<{ organizationId: string; userId: string; n: number }[]>(sql`
        SELECT m."organizationId", m."userId", count(*)::int AS n FROM "Member" m
        JOIN "Site" s ON s."organizationId" = m."organizationId"
        LEFT JOIN "Member" viewer ON viewer."organizationId" = s."organizationId" AND viewer."userId" = ${viewerId}
        WHERE (m."organizationId", m."userId") IN (SELECT * FROM unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[]))
          AND ${siteRoleSql('m', 's')} IS NOT NULL AND ${siteRoleSql('viewer', 's')} IS NOT NULL
        GROUP BY 1, 2`);
      return countsByMember(rows, keys);
    }),
    /** How many live spaces each team holds a grant on. */
    teamSpaceCount: registry.track<string, number>((ids) =>
      countPerKey(db, ids, (team) => sql`"ContentPermission" p JOIN "Space" s ON s."id" = p."spaceId" AND ${liveSql('s')} WHERE p."teamId" = ${team}`),
    ),
  };
}
