import { createTeam } from '../../domain/people/teams/create.js';
import { removeTeamMember, setTeamMember, updateTeamMembers } from '../../domain/people/teams/members.js';
import { deleteTeam, updateTeam } from '../../domain/people/teams/update.js';
import type { Team } from '../../generated/prisma/client.js';
import { reloaded } from '../../domain/loaders/reload.js';
import { builder } from '../builder.js';
import { forgetLoaded, type Context } from '../context.js';
import { TeamRoleEnum } from './enums.js';
import { TeamRef } from './team.js';

/** The team after a committed write (which recorded its event). */
const reload = (ctx: Context, id: string): Promise<Team> => {
  forgetLoaded(ctx);
  return reloaded(ctx.loaders.team, id, 'Team');
};

const CreateTeamInput = builder.inputType('CreateTeamInput', {
  description: 'A new team of an organization.',
  fields: (t) => ({
    title: t.string({ description: 'Its name (1 to 64 characters).', required: true }),
    members: t.stringList({ description: 'User IDs or e-mails of organization members.' }),
  }),
});

const UpdateTeamInput = builder.inputType('UpdateTeamInput', { description: 'A team\'s new title.', fields: (t) => ({ title: t.string({ required: true, description: 'Its new name (1 to 64 characters).' }) }) });

const TeamMembershipInput = builder.inputType('TeamMembershipInput', {
  description: 'A user to add to a team, and their role in it.',
  fields: (t) => ({
    user: t.string({ required: true, description: 'User ID or e-mail of an organization member.' }),
    role: t.field({ description: 'Their role in the team.', type: TeamRoleEnum, required: true }),
  }),
});

const UpdateTeamMembersInput = builder.inputType('UpdateTeamMembersInput', {
  description: 'Members are user IDs or e-mails. A user both added (or given a role) and removed is removed.',
  fields: (t) => ({
    add: t.stringList({ description: 'Members to add as plain members (user IDs or e-mails); those already in keep their role.' }),
    remove: t.stringList({ description: 'Members to remove from the team (user IDs or e-mails).' }),
    memberships: t.field({ type: [TeamMembershipInput], description: 'Roles to set; members not in the team yet are added.' }),
  }),
});

builder.mutationFields((t) => {
  const teamArgs = () => ({ organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), teamId: t.arg.id({ required: true, description: 'The team\'s ID.' }) });
  return {
    createTeam: t.field({
      type: TeamRef,
      description: 'Organization admins.',
      args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), input: t.arg({ description: "The team's name and first members.", type: CreateTeamInput, required: true }) },
      resolve: async (_root, { organizationId, input }, ctx) =>
        reload(ctx, await createTeam(ctx.db, ctx.access, { organizationId: String(organizationId), title: input.title, members: input.members ?? undefined })),
    }),
    updateTeam: t.field({
      type: TeamRef,
      description: 'Organization admins and team owners.',
      args: { ...teamArgs(), input: t.arg({ description: 'The new name.', type: UpdateTeamInput, required: true }) },
      resolve: async (_root, { organizationId, teamId, input }, ctx) =>
        reload(ctx, await updateTeam(ctx.db, ctx.access, String(organizationId), String(teamId), input)),
    }),
    deleteTeam: t.boolean({
      description: 'Organization admins. False when no such team exists in the organization.',
      args: teamArgs(),
      resolve: (_root, { organizationId, teamId }, ctx) => deleteTeam(ctx.db, ctx.access, String(organizationId), String(teamId)),
    }),
    updateTeamMembers: t.field({
      type: TeamRef,
      description: 'Adds, re-roles and removes team members in one transaction. Organization admins and team owners.',
      args: { ...teamArgs(), input: t.arg({ description: 'Who to add, re-role and remove.', type: UpdateTeamMembersInput, required: true }) },
      resolve: async (_root, { organizationId, teamId, input }, ctx) =>
        reload(
          ctx,
          await updateTeamMembers(ctx.db, ctx.access, String(organizationId), String(teamId), {
            add: input.add ?? undefined,
            remove: input.remove ?? undefined,
            memberships: input.memberships ?? undefined,
          }),
        ),
    }),
    setTeamMember: t.field({
      type: TeamRef,
      description: 'Adds an organization member to the team or changes their role (new members default to `member`).',
      args: { ...teamArgs(), userId: t.arg.id({ required: true, description: 'The user\'s ID.' }), role: t.arg({ description: 'Their role in the team; left out: `member` for a new member, unchanged otherwise.', type: TeamRoleEnum }) },
      resolve: async (_root, { organizationId, teamId, userId, role }, ctx) =>
        reload(ctx, await setTeamMember(ctx.db, ctx.access, String(organizationId), String(teamId), String(userId), { role: role ?? undefined })),
    }),
    removeTeamMember: t.boolean({
      description: 'False when the user was not in the team.',
      args: { ...teamArgs(), userId: t.arg.id({ required: true, description: 'The user\'s ID.' }) },
      resolve: (_root, { organizationId, teamId, userId }, ctx) => removeTeamMember(ctx.db, ctx.access, String(organizationId), String(teamId), String(userId)),
    }),
  };
});
