import { memberKey } from '../../domain/loaders/keys.js';
import { requireTeam, teamPermissions } from '../../domain/people/teams/access.js';
import { countTeams, isUnfilteredTeams, teamsPage, type TeamMemberRow } from '../../domain/people/teams/rows.js';
import { pageVariant } from '../../domain/loaders/index.js';
import { forbidden } from '../../lib/errors.js';
import type { Team } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import type { Context } from '../context.js';
import { TeamRoleEnum } from './enums.js';
import { MemberRef } from './member.js';

const TeamPermissions = builder.simpleObject('TeamPermissions', {
  description: 'What the caller may do with the team.',
  fields: (t) => ({
    admin: t.boolean({ description: 'Manage the team: its title and members.' }),
    view: t.boolean({ description: 'See the team: its title and member count.' }),
    listMembers: t.boolean({ description: 'List its members: members with an organization role, and the team owners.' }),
  }),
});

const TeamMemberPermissions = builder.simpleObject('TeamMemberPermissions', {
  description: 'What the caller may do with a team member.',
  fields: (t) => ({ view: t.boolean({ description: 'The caller can see this team member.' }) }),
});

const permissionsOf = async (ctx: Context, team: Team) => (await teamPermissions(ctx.access, team)) ?? { admin: false, view: false, listMembers: false };

export const TeamRef = builder.prismaNode('Team', {
  description: 'A named group of an organization\'s members, given roles together.',
  id: { field: 'id' },
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Its name.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    organizationId: t.exposeString('organizationId', { description: 'The ID of its organization.' }),
    memberCount: t.exposeInt('memberCount', { description: 'Members of the team.' }),
    spaces: t.int({ description: 'Live spaces the team holds a grant on.', resolve: (team, _args, ctx) => ctx.loaders.teamSpaceCount.load(team.id) }),
    permissions: t.field({ description: 'What the caller may do with it.', type: TeamPermissions, resolve: (team, _args, ctx) => permissionsOf(ctx, team) }),
    members: t.connection(
      {
        type: MemberRef,
        description: 'Members of the team, in order of joining it; edges carry the team role.',
        resolve: async (team, args, ctx) => {
          if (!(await permissionsOf(ctx, team)).listMembers) throw forbidden();
          return pageConnection(await ctx.loaders.teamMembers(pageVariant(args)).load(team.id), team.memberCount);
        },
      },
      {},
      {
        fields: (e) => ({
          role: e.field({ description: 'The member\'s role in the team.', type: TeamRoleEnum, resolve: (edge) => (edge.node as TeamMemberRow).teamMembership.role }),
          permissions: e.field({
            description: 'What the caller may do with this team member.',
            type: TeamMemberPermissions,
            // Whoever lists a team's members sees each of them.
            resolve: async (edge, _args, ctx) => {
              const team = await ctx.loaders.team.load((edge.node as TeamMemberRow).teamMembership.teamId);
              return { view: !!team && (await permissionsOf(ctx, team)).listMembers };
            },
          }),
        }),
      },
    ),
  }),
});

const MemberTeamMembership = builder.simpleObject('MemberTeamMembership', {
  description: 'A member\'s place in one team.',
  fields: (t) => ({ team: t.field({ type: TeamRef, description: 'The team.' }), role: t.field({ type: TeamRoleEnum, description: "The member's role in it: owner or member." }) }),
});

builder.prismaObjectFields('Member', (t) => ({
  teamMemberships: t.connection({
    type: MemberTeamMembership,
    description: "The member's teams that the caller can see, oldest first.",
    args: { title: t.arg.string({ description: 'Case-insensitive "contains" on the team title.' }) },
    resolve: async (member, args, ctx) => {
      const key = memberKey(member.organizationId, member.userId);
      const page = await ctx.loaders.memberTeams(pageVariant(args, args.title ?? null)).load(key);
      return pageConnection(page, () => ctx.loaders.memberTeamCount(args.title ?? '').load(key));
    },
  }),
}));

builder.prismaObjectFields('Organization', (t) => ({
  teams: t.connection({
    type: TeamRef,
    description: 'Teams of the organization, oldest first (readable by members with an organization role).',
    args: {
      owner: t.arg.id({ description: 'A member (user ID): only the teams they can manage.' }),
      title: t.arg.string({ description: 'Case-insensitive "contains" on the title.' }),
    },
    resolve: async (org, args, ctx) => {
      await ctx.access.requireOrganization(org.id, 'readTeams');
      const filter = { owner: args.owner == null ? null : String(args.owner), title: args.title };
      const page = await teamsPage(ctx.db, org.id, filter, args);
      return pageConnection(page, () => (isUnfilteredTeams(filter) ? org.teamCount : countTeams(ctx.db, org.id, filter)));
    },
  }),
  team: t.field({ description: "A team of the organization by ID (organization members with a role, and the team's own members).",
    type: TeamRef,
    args: { id: t.arg.id({ description: "The team's ID.", required: true }) },
    resolve: (org, { id }, ctx) => requireTeam(ctx.access, String(id), 'view', org.id),
  }),
}));
