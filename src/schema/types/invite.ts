/**
 * Invites in the graph (4.3): e-mail invites (`inviteMembers`, pending ones in
 * `Organization.memberInvites`, `revokeMemberInvite`), link invites (`Organization.linkInvites`
 * / `linkInvite(id)` and their mutations) and joining with either (`joinOrganization`).
 */
import type { LinkInvite } from '../../generated/prisma/client.js';
import { atLeast } from '../../domain/access/roles.js';
import { joinWithInvite } from '../../domain/people/invites/accept.js';
import { linksAt } from '../../http/paths.js';
import { countMemberInvites, inviteByEmail, memberInvitesPage, revokeMemberInvite, type PendingInvite, type SentInvite } from '../../domain/people/invites/email-invites.js';
import { countLinkInvites, createLinkInvite, deleteLinkInvite, findLinkInvite, linkInvitesPage, updateLinkInvite } from '../../domain/people/invites/link-invites.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { forgetLoaded, type Context } from '../context.js';
import { CollectionRef } from './collection.js';
import { RoleEnum } from './enums.js';
import { OrganizationRef } from './organization.js';
import { SpaceRef } from './space.js';
import { UserRef } from './user.js';

const roleField = { type: RoleEnum, nullable: true, description: 'The role the invitee joins with; null: as a guest.' } as const;

export const MemberInviteRef = builder.objectRef<PendingInvite>('MemberInvite').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: 'A pending membership: an e-mail invitation not yet accepted.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    email: t.exposeString('email', { description: 'The address the invitation was sent to.' }),
    user: t.field({ description: "The invitee's user (created for a new address).", type: UserRef, resolve: async (i, _a, ctx) => (await ctx.loaders.user.load(i.userId))! }),
    role: t.expose('role', roleField),
    sso: t.exposeBoolean('sso', { description: 'Whether the invitee joins as an SSO member.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    expiresAt: t.expose('expiresAt', { description: 'When its link stops working.', type: 'DateTime' }),
  }),
});

const SentInviteRef = builder.objectRef<SentInvite>('SentMemberInvite').implement({
  description: 'An invite made by `inviteMembers`, and whether its e-mail was handed to the SMTP server.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    email: t.exposeString('email', { description: 'The address invited.' }),
    role: t.expose('role', roleField),
    sso: t.exposeBoolean('sso', { description: 'Whether the invitee joins as an SSO member.' }),
    expiresAt: t.expose('expiresAt', { description: 'When its link stops working.', type: 'DateTime' }),
    delivered: t.exposeBoolean('delivered', { description: 'Whether its e-mail was handed to the SMTP server; when false, `link` is to be passed on.' }),
    link: t.string({
      nullable: true,
      description: 'The invitation link, when its e-mail was not delivered (no SMTP server configured, or it refused): pass it on to the invitee. Shown once.',
      resolve: (i) => (i.delivered ? null : i.link),
    }),
  }),
});

const InviteMembersResult = builder.simpleObject('InviteMembersResult', {
  description: 'The outcome of inviting people to an organization by e-mail.',
  fields: (t) => ({
    users: t.idList({ description: 'The IDs of the invited users (accounts are created for new addresses).' }),
    invited: t.int({ description: 'How many invites were made.' }),
    failedSSOEmails: t.stringList({ description: 'Addresses invited without SSO, as their users are members of another organization.' }),
    invites: t.field({ description: 'The invites made, one per address invited.', type: [SentInviteRef] }),
  }),
});

const InviteeInput = builder.inputType('InviteeInput', {
  description: 'A person to invite by e-mail, and the role to give them.',
  fields: (t) => ({
    email: t.string({ description: 'The address to invite.', required: true }),
    role: t.field({ type: RoleEnum, description: 'This invitee\'s role (null: as a guest); else the request\'s.' }),
  }),
});

const LinkInviteKindEnum = builder.enumType('LinkInviteKind', { description: 'What an invite link admits to: an organization, a space or a collection.', values: { organization: { description: 'Joins the organization.' }, space: { description: 'Gives access to one space.' }, collection: { description: 'Gives access to one collection.' } } as const });

/** Whether the caller already has what the invite gives. */
async function redundant(invite: LinkInvite, ctx: Context): Promise<boolean> {
  const { member, role } = await ctx.access.orgRole(invite.organizationId);
  if (invite.kind === 'organization') return member && (invite.role === null || atLeast(role, invite.role));
  const content = invite.spaceId ? await ctx.loaders.space.load(invite.spaceId) : await ctx.loaders.collection.load(invite.collectionId!);
  return atLeast(content?.viewerRole, invite.role!);
}

export const LinkInviteRef = builder.objectRef<LinkInvite>('LinkInvite').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: 'An invite link: its ID lets whoever holds it join the organization, or a space or collection as a guest.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    kind: t.field({ description: 'What it admits to: the organization, a space or a collection.', type: LinkInviteKindEnum, resolve: (i) => i.kind as 'organization' | 'space' | 'collection' }),
    role: t.field({ ...roleField, description: 'An organization invite\'s role (null: as a guest); null for content invites.', resolve: (i) => (i.kind === 'organization' ? i.role : null) }),
    level: t.field({ type: RoleEnum, nullable: true, description: 'A content invite\'s level on its space or collection.', resolve: (i) => (i.kind === 'organization' ? null : i.role) }),
    space: t.field({ description: 'The space a space invite gives access to; null for other kinds.', type: SpaceRef, nullable: true, resolve: (i, _a, ctx) => (i.spaceId ? ctx.loaders.space.load(i.spaceId) : null) }),
    collection: t.field({ description: 'The collection a collection invite gives access to; null for other kinds.', type: CollectionRef, nullable: true, resolve: (i, _a, ctx) => (i.collectionId ? ctx.loaders.collection.load(i.collectionId) : null) }),
    redundant: t.boolean({ description: 'Whether the caller already has all that the invite gives.', resolve: (i, _a, ctx) => redundant(i, ctx) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    expiresAt: t.expose('expiresAt', { description: 'When it stops working.', type: 'DateTime' }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  memberInvites: t.connection({
    type: MemberInviteRef,
    description: 'Pending e-mail invites, oldest first (organization admins).',
    resolve: async (org, args, ctx) => pageConnection(await memberInvitesPage(ctx.db, ctx.access, org.id, args), () => countMemberInvites(ctx.db, org.id)),
  }),
  linkInvites: t.connection({
    type: LinkInviteRef,
    description: 'Invite links, newest first (organization admins); `kind`: only those.',
    args: { kind: t.arg({ description: 'Only the invites of this kind; left out, all.', type: LinkInviteKindEnum }) },
    resolve: async (org, args, ctx) => pageConnection(await linkInvitesPage(ctx.db, ctx.access, org.id, args, args.kind), () => countLinkInvites(ctx.db, org.id, args.kind)),
  }),
  linkInvite: t.field({ description: 'An invite link of the organization by ID (organization admins).', type: LinkInviteRef, args: { id: t.arg.id({ description: "The invite's ID.", required: true }) }, resolve: (org, { id }, ctx) => findLinkInvite(ctx.db, ctx.access, org.id, String(id)) }),
}));

const orgArg = (t: any) => t.arg.id({ required: true, description: "The organization's ID." });

builder.mutationFields((t) => ({
  inviteMembers: t.field({
    type: InviteMembersResult,
    description: 'Invites addresses by e-mail (organization admins): pending memberships, each sent a link to accept. Members already in the organization are skipped.',
    args: {
      organizationId: orgArg(t),
      emails: t.arg({ description: 'Who to invite: each address, with its own role if it names one (at most 100).', type: [InviteeInput], required: true }),
      role: t.arg({ type: RoleEnum, description: 'The role of invitees that name none (null: as guests); the organization\'s default role when omitted.' }),
      sso: t.arg.boolean({ description: 'Invite as SSO members.' }),
    },
    resolve: (_r, { organizationId, emails, role, sso }, ctx) =>
      inviteByEmail({ db: ctx.db, mailer: ctx.mailer, inviteUrl: linksAt(ctx.config.publicUrl).invite, inviteMs: ctx.config.inviteMs }, ctx.access, String(organizationId), { emails, role, sso: sso ?? undefined }),
  }),
  revokeMemberInvite: t.boolean({
    description: 'Withdraws a pending e-mail invite: its link stops working.',
    args: { organizationId: orgArg(t), id: t.arg.id({ description: "The invite's ID.", required: true }) },
    resolve: async (_r, { organizationId, id }, ctx) => (await revokeMemberInvite(ctx.db, ctx.access, String(organizationId), String(id)), true),
  }),
  joinOrganization: t.field({
    type: OrganizationRef,
    description: 'Joins with a link invite of the organization, or with one\'s own pending e-mail invite there.',
    args: { organizationId: orgArg(t), inviteId: t.arg.id({ required: true, description: 'The invite\'s ID.' }) },
    resolve: async (_r, { organizationId, inviteId }, ctx) => {
      await joinWithInvite(ctx.db, ctx.access, String(organizationId), String(inviteId));
      forgetLoaded(ctx);
      return (await ctx.loaders.organization.load(String(organizationId)))!;
    },
  }),
  createLinkInvite: t.field({
    type: LinkInviteRef,
    description: 'An invite link to the organization (`role`), or to a space or collection (`level` and `spaceId` or `collectionId`). Organization admins, while invite links are on.',
    args: {
      organizationId: orgArg(t),
      role: t.arg({ description: 'Organization invites: the organization role it gives (null: as a guest); give this or `level`.', type: RoleEnum }),
      level: t.arg({ description: 'Space and collection invites: the role it gives on the space or collection.', type: RoleEnum }),
      spaceId: t.arg.id({ description: "A space invite's space (its ID)." }),
      collectionId: t.arg.id({ description: "A collection invite's collection (its ID)." }),
      expiresAt: t.arg({ type: 'DateTime', description: 'In the future, at most a year ahead; 14 days (QUIRE_INVITE_DAYS) when omitted.' }),
    },
    resolve: (_r, { organizationId, role, level, spaceId, collectionId, expiresAt }, ctx) =>
      createLinkInvite(ctx.db, ctx.access, String(organizationId), { role, level, space: spaceId, collection: collectionId, expiresAt: expiresAt ? new Date(expiresAt).toISOString() : expiresAt }, ctx.config.inviteMs),
  }),
  updateLinkInvite: t.field({
    type: LinkInviteRef,
    description: 'Changes an organization invite\'s `role` or a content invite\'s `level`.',
    args: { organizationId: orgArg(t), id: t.arg.id({ description: "The invite's ID.", required: true }), role: t.arg({ description: 'Organization invites: the new organization role (null: as a guest).', type: RoleEnum }), level: t.arg({ description: 'Space and collection invites: the new role on the space or collection.', type: RoleEnum }) },
    resolve: (_r, { organizationId, id, role, level }, ctx) => updateLinkInvite(ctx.db, ctx.access, String(organizationId), String(id), { role, level }),
  }),
  deleteLinkInvite: t.boolean({
    description: 'False when there was no such invite.',
    args: { organizationId: orgArg(t), id: t.arg.id({ description: "The invite's ID.", required: true }) },
    resolve: (_r, { organizationId, id }, ctx) => deleteLinkInvite(ctx.db, ctx.access, String(organizationId), String(id)),
  }),
}));
