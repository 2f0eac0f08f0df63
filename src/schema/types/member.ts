import { findMember, requireMemberRead, requireMemberSpacesRead } from '../../domain/people/members/access.js';
import { countMembers, MEMBER_ROLE_FILTERS, MEMBER_SORTS, membersPage } from '../../domain/people/members/rows.js';
import { memberSpaces } from '../../domain/content/spaces/rows.js';
import { memberKey } from '../../domain/loaders/keys.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import type { MemberSpaceRow } from '../../domain/content/spaces/rows.js';
import { RoleEnum, SortOrderEnum } from './enums.js';
import { SpaceRef } from './space.js';
import { UserRef } from './user.js';

export const MemberRoleFilterEnum = builder.enumType('MemberRoleFilter', {
  description: 'A role, or `guest` for members without one.',
  values: {
    admin: { description: 'Members whose organization role is admin.' },
    create: { description: 'Members whose organization role is create.' },
    review: { description: 'Members whose organization role is review.' },
    edit: { description: 'Members whose organization role is edit.' },
    comment: { description: 'Members whose organization role is comment.' },
    read: { description: 'Members whose organization role is read.' },
    guest: { description: 'Members without an organization role (guests).' },
  } as const satisfies Record<(typeof MEMBER_ROLE_FILTERS)[number], { description: string }>,
});
export const MemberSortEnum = builder.enumType('MemberSort', {
  description: 'What to order an organization\'s members by.',
  values: {
    joinedAt: { description: 'When they joined the organization (the default).' },
    lastSeenAt: { description: 'When they were last active in it; only members seen at least once are listed.' },
    name: { description: 'Their display name, case-insensitively.' },
  } as const satisfies Record<(typeof MEMBER_SORTS)[number], { description: string }>,
});

const MemberSpaceAccess = builder.objectRef<MemberSpaceRow>('MemberSpaceAccess').implement({
  description: "A space a member can access, with the member's effective role on it.",
  fields: (t) => ({
    permission: t.field({ description: "The member's effective role on the space.", type: RoleEnum, resolve: (row: MemberSpaceRow) => row.memberRole }),
    space: t.field({ description: 'The space.', type: SpaceRef, resolve: (row: MemberSpaceRow) => row }),
  }),
});

export const MemberRef = builder.prismaObject('Member', {
  description: "A user's membership of an organization.",
  fields: (t) => ({
    id: t.exposeID('userId', { description: 'The user ID.' }),
    organizationId: t.exposeString('organizationId', { description: 'The ID of the organization.' }),
    user: t.field({ description: "The member's user.",
      type: UserRef,
      resolve: async (m, _args, ctx) => {
        // Whoever may read a membership may see its user (members/access.ts, teams/access.ts).
        ctx.loaders.userVisible.prime(m.userId, true);
        return (await ctx.loaders.user.load(m.userId))!;
      },
    }),
    role: t.expose('role', { type: RoleEnum, nullable: true, description: 'Null for guests.' }),
    disabled: t.exposeBoolean('disabled', { description: 'Whether the membership is disabled: a disabled member has no role anywhere in the organization.' }),
    joinedAt: t.expose('joinedAt', { description: 'When they joined the organization.', type: 'DateTime' }),
    lastSeenAt: t.expose('lastSeenAt', { description: 'When they were last active in the organization (`pingOrganization`); null if never.', type: 'DateTime', nullable: true }),
    sso: t.exposeBoolean('sso', { description: "Whether they are an SSO member: they sign in through the organization's SAML provider." }),
    spaces: t.int({
      description: 'Live spaces the member holds a direct grant on (those the caller can see).',
      resolve: (m, _args, ctx) => ctx.loaders.memberSpaceCount.load(memberKey(m.organizationId, m.userId)),
    }),
    teams: t.int({
      description: 'Teams of the organization the member belongs to (those the caller can see).',
      resolve: (m, _args, ctx) => ctx.loaders.memberTeamCount('').load(memberKey(m.organizationId, m.userId)),
    }),
    sites: t.int({
      description:
        'Sites the member has a role on (docs/access.md#sites), among those the caller has a role on: none for a disabled member.',
      resolve: (m, _args, ctx) => ctx.loaders.memberSiteCount.load(memberKey(m.organizationId, m.userId)),
    }),
    spaceAccess: t.connection({
      type: MemberSpaceAccess,
      description: "Spaces the member can access, by creation date (newest first by default). Organization admins and the member themself.",
      args: { order: t.arg({ description: "Newest first (`desc`, the default) or oldest first (`asc`) by the space's creation.", type: SortOrderEnum }) },
      resolve: async (m, args, ctx) => {
        const org = await requireMemberSpacesRead(ctx.access, m.organizationId, m.userId);
        return pageConnection(await memberSpaces(ctx.db, ctx.viewer.userId, m, org, args.order ?? 'desc', args));
      },
    }),
  }),
});

builder.prismaObjectFields('Organization', (t) => ({
  members: t.connection({
    type: MemberRef,
    description: 'Members of the organization, guests included (readable by members with an organization role). Newest first by `joinedAt` unless told otherwise.',
    args: {
      order: t.arg({ description: '`desc` (the default) or `asc`, by the `sort` key.', type: SortOrderEnum }),
      role: t.arg({ description: 'Only the members of this organization role, or the guests.', type: MemberRoleFilterEnum }),
      search: t.arg.string({ description: 'Case-insensitive "contains" on display name and email.' }),
      sort: t.arg({ type: MemberSortEnum, description: '`lastSeenAt` lists only members who have been seen.' }),
    },
    resolve: async (org, args, ctx) => {
      await requireMemberRead(ctx.access, org.id);
      const page = await membersPage(ctx.db, org.id, args, args);
      return pageConnection(page, () => countMembers(ctx.db, org, args));
    },
  }),
  member: t.field({
    type: MemberRef,
    description: 'A member by user ID; guests may only read themselves.',
    args: { userId: t.arg.id({ required: true, description: 'The user\'s ID.' }) },
    resolve: (org, { userId }, ctx) => findMember(ctx.access, org.id, String(userId)),
  }),
}));
