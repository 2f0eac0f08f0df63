/**
 * Who may do what with a site (docs/access.md#sites): its grants to users and teams, who has
 * access through any path, and the mutations that grant, change and remove roles on it. REST:
 * src/rest/routes/site-permissions.ts.
 */
import type { Site } from '../../generated/prisma/client.js';
import type { Role } from '../../domain/access/roles.js';
import { inviteToSite, setSiteGrant, siteAudience, siteTeamGrants, siteUserGrants, type SiteAudienceEntry } from '../../domain/publishing/sites/visitors/permissions.js';
import type { Grantee } from '../../domain/access/grants.js';
import { notFound } from '../../lib/errors.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { forgetLoaded, type Context } from '../context.js';
import { RoleEnum, SortOrderEnum } from './enums.js';
import { MemberRoleFilterEnum, MemberSortEnum } from './member.js';
import { SiteRef } from './site.js';
import { inOrganization, siteArgs } from './site-args.js';
import { TeamRef } from './team.js';
import { UserRef } from './user.js';

type Grant = { role: Role; userId?: string | null; teamId?: string | null };

const UserSitePermissionRef = builder.objectRef<Grant & { userId: string }>('UserSitePermission').implement({
  description: "A role granted on a site to one user.",
  fields: (t) => ({
    permission: t.field({ type: RoleEnum, description: 'The role granted.', resolve: (p) => p.role }),
    user: t.field({ type: UserRef, description: 'Who holds it.', resolve: async (p, _a, ctx) => (await ctx.loaders.user.load(p.userId))! }),
  }),
});

const TeamSitePermissionRef = builder.objectRef<Grant & { teamId: string }>('TeamSitePermission').implement({
  description: 'A role granted on a site to a team (each of its members has it).',
  fields: (t) => ({
    permission: t.field({ type: RoleEnum, description: 'The role granted.', resolve: (p) => p.role }),
    team: t.field({ type: TeamRef, description: 'The team holding it.', resolve: async (p, _a, ctx) => (await ctx.loaders.team.load(p.teamId))! }),
  }),
});

const SitePermissionOriginRef = builder.simpleObject('SitePermissionOrigin', {
  description: "Where a member's role on a site comes from.",
  fields: (t) => ({
    type: t.string({ description: '`organization` (their organization role) or `site` (a grant on the site, or its default level).' }),
    reason: t.string({ nullable: true, description: 'For `site`: `member` (a grant to them), `team` (a grant to a team of theirs) or `default` (the site\'s default level).' }),
    teamId: t.id({ nullable: true, description: 'For `team`: the team whose grant gives the role.' }),
  }),
});

const SiteAudienceMemberRef = builder.objectRef<SiteAudienceEntry>('SiteAudienceMember').implement({
  description: 'A member with access to a site, and their role on it.',
  fields: (t) => ({
    permission: t.field({ type: RoleEnum, description: 'Their role on the site.', resolve: (m) => m.siteRole }),
    user: t.field({ type: UserRef, description: 'The member.', resolve: (m) => m.user }),
    origin: t.field({ type: SitePermissionOriginRef, description: 'Where the role comes from.', resolve: (m) => ({ type: m.origin.type, reason: m.origin.type === 'site' ? m.origin.reason : null, teamId: m.origin.type === 'site' ? (m.origin.teamId ?? null) : null }) }),
    disabled: t.boolean({ description: 'Always false: disabled members have no access.', resolve: (m) => m.disabled }),
    lastSeenAt: t.field({ type: 'DateTime', nullable: true, description: 'When the member was last seen.', resolve: (m) => m.lastSeenAt }),
  }),
});

builder.objectFields(SiteRef, (t) => ({
  users: t.connection({
    type: UserSitePermissionRef,
    description: 'Users granted a role on the site (not through teams), oldest grant first. Members with an organization role, and who may share the site.',
    resolve: async (s, args, ctx) => pageConnection(await siteUserGrants(ctx.db, ctx.access, s.id, args)),
  }),
  teams: t.connection({
    type: TeamSitePermissionRef,
    description: 'Teams granted a role on the site (those the caller can see), oldest grant first.',
    resolve: async (s, args, ctx) => pageConnection(await siteTeamGrants(ctx.db, ctx.access, s.id, args)),
  }),
  aggregatedUsers: t.connection({
    type: SiteAudienceMemberRef,
    description: 'Every member with access to the site, through any path, with their role on it; sorted and searched as the member list (newest first by `joinedAt` unless told otherwise).',
    args: {
      role: t.arg({ type: MemberRoleFilterEnum, description: 'Only members with this role on the site; `guest`: members without an organization role (reached by grants).' }),
      search: t.arg.string({ description: 'Case-insensitive "contains" on display name and email.' }),
      sort: t.arg({ type: MemberSortEnum, description: '`lastSeenAt` lists only members who have been seen.' }),
      order: t.arg({ type: SortOrderEnum, description: 'Default `desc`.' }),
      team: t.arg.id({ description: 'Only members of this team.' }),
    },
    resolve: async (s, args, ctx) => pageConnection(await siteAudience(ctx.db, ctx.access, s.id, { ...args, team: args.team === null || args.team === undefined ? null : String(args.team) }, args)),
  }),
}));

/** The site again after its grants changed (loaders forgotten: roles may have changed). */
async function reloadSite(ctx: Context, siteId: string): Promise<Site> {
  forgetLoaded(ctx);
  const site = await ctx.loaders.site.load(siteId);
  if (!site) throw notFound('Site');
  return site;
}

const SiteGrantChange = builder.simpleObject('SitePermissionChange', {
  description: 'A site after a change of one grant.',
  fields: (t) => ({
    removed: t.boolean({ description: 'Whether a grant was removed (REST answers 205 then, 204 otherwise).' }),
    site: t.field({ type: SiteRef, description: 'The site as it is now.' }),
  }),
});

builder.mutationFields((t) => {
  const change = async (ctx: Context, args: { siteId?: unknown; organizationId?: unknown }, grantee: Grantee, role: Role | null | undefined) => {
    const siteId = String(args.siteId);
    await inOrganization(ctx, args.organizationId, siteId);
    const { removed } = await setSiteGrant(ctx.db, ctx.access, siteId, grantee, role);
    return { removed, site: await reloadSite(ctx, siteId) };
  };
  const role = () => t.arg({ type: RoleEnum, required: false, description: 'The role; null removes the grant, omitted changes nothing.' });
  const userId = () => t.arg.id({ required: true, description: "The user's ID." });
  const teamId = () => t.arg.id({ required: true, description: "The team's ID." });
  return {
    inviteToSite: t.field({
      type: SiteRef,
      description: 'Grants a role on a site to users and/or teams of its organization, replacing their previous grant on it (`admin` on the site).',
      args: {
        ...siteArgs(t),
        role: t.arg({ type: RoleEnum, required: true, description: 'The role to grant.' }),
        users: t.arg.idList({ required: false, description: 'IDs of members of the organization.' }),
        teams: t.arg.idList({ required: false, description: 'IDs of teams of the organization.' }),
      },
      resolve: async (_r, args, ctx) => {
        const siteId = String(args.siteId);
        await inOrganization(ctx, args.organizationId, siteId);
        await inviteToSite(ctx.db, ctx.access, siteId, { role: args.role, users: args.users?.map(String) ?? undefined, teams: args.teams?.map(String) ?? undefined });
        return reloadSite(ctx, siteId);
      },
    }),
    updateSiteUserPermission: t.field({
      type: SiteGrantChange,
      description: "Sets a user's role on a site, or removes it with `role: null`.",
      args: { ...siteArgs(t), userId: userId(), role: role() },
      resolve: (_r, args, ctx) => change(ctx, args, { kind: 'user', id: String(args.userId) }, args.role),
    }),
    removeSiteUserPermission: t.field({
      type: SiteGrantChange,
      description: "Removes a user's grant on a site (no error when there is none).",
      args: { ...siteArgs(t), userId: userId() },
      resolve: (_r, args, ctx) => change(ctx, args, { kind: 'user', id: String(args.userId) }, null),
    }),
    updateSiteTeamPermission: t.field({
      type: SiteGrantChange,
      description: "Sets a team's role on a site, or removes it with `role: null`.",
      args: { ...siteArgs(t), teamId: teamId(), role: role() },
      resolve: (_r, args, ctx) => change(ctx, args, { kind: 'team', id: String(args.teamId) }, args.role),
    }),
    removeSiteTeamPermission: t.field({
      type: SiteGrantChange,
      description: "Removes a team's grant on a site (no error when there is none).",
      args: { ...siteArgs(t), teamId: teamId() },
      resolve: (_r, args, ctx) => change(ctx, args, { kind: 'team', id: String(args.teamId) }, null),
    }),
  };
});
