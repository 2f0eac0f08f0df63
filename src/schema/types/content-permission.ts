/** Section 4.12: who may access a space or collection, and direct grants to users and teams. */
import type { Collection, Space } from '../../generated/prisma/client.js';
import { canListAudience } from '../../domain/access/content.js';
import { pageVariant } from '../../domain/loaders/index.js';
import type { ContentRef } from '../../domain/access/content.js';
import { forbidden } from '../../lib/errors.js';
import { inviteToContent, setGrant, type Grantee } from '../../domain/access/grants.js';
import { kindOfId } from '../../domain/kernel/ids.js';
import type { Role } from '../../domain/access/roles.js';
import { reloaded } from '../../domain/loaders/reload.js';
import { builder } from '../builder.js';
import { pageConnection, type PageArgs } from '../connection.js';
import { forgetLoaded, type Context } from '../context.js';
import { CollectionRef } from './collection.js';
import { RoleEnum } from './enums.js';
import { SpaceRef } from './space.js';
import { TeamRef } from './team.js';
import { UserRef } from './user.js';

type UserPermission = { role: Role; userId: string };

const UserContentPermissionRef = builder.objectRef<UserPermission>('UserContentPermission').implement({
  description: "A user's role on a space or collection.",
  fields: (t) => ({
    permission: t.field({ description: 'The role: the direct grant in `users`, the effective role in `aggregatedUsers`.', type: RoleEnum, resolve: (p) => p.role }),
    user: t.field({ description: 'The user.', type: UserRef, resolve: async (p, _args, ctx) => (await ctx.loaders.user.load(p.userId))! }),
  }),
});

type TeamPermission = { role: Role; teamId: string };

const TeamContentPermissionRef = builder.objectRef<TeamPermission>('TeamContentPermission').implement({
  description: "A team's role on a space or collection.",
  fields: (t) => ({
    permission: t.field({ description: 'The role granted to the team.', type: RoleEnum, resolve: (p) => p.role }),
    team: t.field({ description: 'The team.', type: TeamRef, resolve: async (p, _args, ctx) => (await ctx.loaders.team.load(p.teamId))! }),
  }),
});

type ContentRow = (Space | Collection) & { viewerRole?: Role | null };

/** The content as a grant target, after checking the caller may list who has access to it. */
async function audienceOf(ctx: Context, row: ContentRow): Promise<ContentRef> {
  const kind = kindOfId(row.id) === 'Space' ? 'space' : 'collection';
  const viewerRole = kind === 'space' ? await ctx.access.spaceRole(row as Space) : await ctx.access.collectionRole(row as Collection);
  const content = { kind, id: row.id, organizationId: row.organizationId, viewerRole } as const;
  if (!(await canListAudience(ctx.access, content))) throw forbidden();
  return content;
}

const usersDescription = 'Users granted a role directly on this content (not through teams or inheritance), oldest grant first.';
const teamsDescription = 'Teams granted a role on this content (those the caller can see), oldest grant first.';
const aggregatedDescription = 'Every member with access, through any path, and their effective role, in order of joining; `role` keeps only that exact role.';

/** `users`, `teams` and `aggregatedUsers` of a space or a collection (members with a role, or admins of the content). */
function audienceFields(t: any) {
  return {
    teams: t.connection({
      type: TeamContentPermissionRef,
      description: teamsDescription,
      resolve: async (row: ContentRow, args: PageArgs, ctx: Context) => {
        const content = await audienceOf(ctx, row);
        return pageConnection(await ctx.loaders.teamGrants(pageVariant(args)).load(content.id), () => ctx.loaders.teamGrantCount.load(content.id));
      },
    }),
    users: t.connection({
      type: UserContentPermissionRef,
      description: usersDescription,
      resolve: async (row: ContentRow, args: PageArgs, ctx: Context) => {
        const content = await audienceOf(ctx, row);
        return pageConnection(await ctx.loaders.userGrants(pageVariant(args)).load(content.id), () => ctx.loaders.userGrantCount.load(content.id));
      },
    }),
    aggregatedUsers: t.connection({
      type: UserContentPermissionRef,
      description: aggregatedDescription,
      args: { role: t.arg({ description: 'Only the members whose effective role is exactly this one; left out, all.', type: RoleEnum, required: false }) },
      resolve: async (row: ContentRow, args: PageArgs & { role?: Role | null }, ctx: Context) => {
        const content = await audienceOf(ctx, row);
        const page = await ctx.loaders.audience(pageVariant(args, args.role ?? null)).load(content.id);
        return pageConnection(page, () => ctx.loaders.audienceCount(args.role ?? '').load(content.id));
      },
    }),
  };
}

builder.prismaObjectFields('Space', (t) => audienceFields(t));
builder.prismaObjectFields('Collection', (t) => audienceFields(t));

const ContentUnion = builder.unionType('Content', {
  description: 'A space or a collection.',
  types: [SpaceRef, CollectionRef],
  resolveType: (content) => (kindOfId(content.id) === 'Space' ? SpaceRef : CollectionRef),
});

/** The space or collection after its grants changed (the write recorded its event). */
async function reloadContent(ctx: Context, id: string): Promise<Space | Collection> {
  forgetLoaded(ctx);
  return kindOfId(id) === 'Space' ? reloaded(ctx.loaders.space, id, 'Space') : reloaded(ctx.loaders.collection, id, 'Collection');
}

async function applyGrant(ctx: Context, contentId: string | number, grantee: Grantee, role: Role | null | undefined) {
  await setGrant(ctx.db, ctx.access, String(contentId), grantee, role);
  return reloadContent(ctx, String(contentId));
}

builder.mutationFields((t) => {
  const contentId = () => t.arg.id({ required: true, description: 'ID of a space or a collection.' });
  const role = () => t.arg({ type: RoleEnum, required: false, description: 'null removes the grant; omitted changes nothing.' });
  const updateDescription = (who: string) => `Sets the ${who}'s direct grant on the space or collection, or removes it with \`role: null\`.`;
  const removeDescription = (who: string) => `Removes the ${who}'s direct grant on the space or collection (no error if there is none).`;
  return {
    updateUserContentPermission: t.field({
      type: ContentUnion,
      description: updateDescription('user'),
      args: { contentId: contentId(), userId: t.arg.id({ required: true, description: 'The user\'s ID.' }), role: role() },
      resolve: (_root, args, ctx) => applyGrant(ctx, args.contentId, { kind: 'user', id: String(args.userId) }, args.role),
    }),
    removeUserContentPermission: t.field({
      type: ContentUnion,
      description: removeDescription('user'),
      args: { contentId: contentId(), userId: t.arg.id({ required: true, description: 'The user\'s ID.' }) },
      resolve: (_root, args, ctx) => applyGrant(ctx, args.contentId, { kind: 'user', id: String(args.userId) }, null),
    }),
    updateTeamContentPermission: t.field({
      type: ContentUnion,
      description: updateDescription('team'),
      args: { contentId: contentId(), teamId: t.arg.id({ required: true, description: 'The team\'s ID.' }), role: role() },
      resolve: (_root, args, ctx) => applyGrant(ctx, args.contentId, { kind: 'team', id: String(args.teamId) }, args.role),
    }),
    removeTeamContentPermission: t.field({
      type: ContentUnion,
      description: removeDescription('team'),
      args: { contentId: contentId(), teamId: t.arg.id({ required: true, description: 'The team\'s ID.' }) },
      resolve: (_root, args, ctx) => applyGrant(ctx, args.contentId, { kind: 'team', id: String(args.teamId) }, null),
    }),
  };
});

builder.mutationField('grantContentPermissions', (t) =>
  t.field({
    type: ContentUnion,
    description: 'Grants a role on a space or collection to users and/or teams of its organization, replacing their previous direct grant.',
    args: {
      contentId: t.arg.id({ required: true, description: 'ID of a space or a collection.' }),
      role: t.arg({ description: 'The role to grant them.', type: RoleEnum, required: true }),
      users: t.arg.idList({ required: false, description: 'IDs of members of the organization.' }),
      teams: t.arg.idList({ required: false, description: 'IDs of teams of the organization.' }),
    },
    resolve: async (_root, { contentId, role, users, teams }, ctx) => {
      await inviteToContent(ctx.db, ctx.access, String(contentId), {
        role,
        users: users?.map(String) ?? undefined,
        teams: teams?.map(String) ?? undefined,
      });
      return reloadContent(ctx, String(contentId));
    },
  }),
);
