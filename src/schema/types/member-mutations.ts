import { signingSecret } from '../../domain/kernel/signing-secret.js';
import { pingOrganization } from '../../domain/people/members/ping.js';
import { removeMember } from '../../domain/people/members/remove.js';
import { setMemberSso, updateMember } from '../../domain/people/members/update.js';
import type { Member } from '../../generated/prisma/client.js';
import { reloaded } from '../../domain/loaders/reload.js';
import { memberKey } from '../../domain/loaders/keys.js';
import { builder } from '../builder.js';
import { forgetLoaded, type Context } from '../context.js';
import { RoleEnum } from './enums.js';
import { MemberRef } from './member.js';

const reload = (ctx: Context, organizationId: string, userId: string): Promise<Member> => {
  forgetLoaded(ctx);
  return reloaded(ctx.loaders.member, memberKey(organizationId, userId), 'Member');
};

const UpdateMemberInput = builder.inputType('UpdateMemberInput', {
  description: 'A member\'s new role in the organization.',
  fields: (t) => ({ role: t.field({ type: RoleEnum, description: 'null makes the member a guest; omitted leaves the role unchanged.' }) }),
});

const OrganizationPing = builder.simpleObject('OrganizationPing', {
  description: 'The caller\'s membership of an organization, and signed claims of it for visitor authentication.',
  fields: (t) => ({
    visitorClaims: t.string({ description: 'A signed JWT (HS256) of the caller\'s claims in the organization: sub, org, role, iss, iat, exp.' }),
    member: t.field({ description: "The caller's membership, as updated.", type: MemberRef }),
  }),
});

builder.mutationFields((t) => {
  const memberArgs = () => ({ organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), userId: t.arg.id({ required: true, description: 'The user\'s ID.' }) });
  return {
    updateMember: t.field({
      type: MemberRef,
      description: "Changes a member's organization role. Organization admins; the last admin cannot be demoted.",
      args: { ...memberArgs(), input: t.arg({ description: 'The new role.', type: UpdateMemberInput, required: true }) },
      resolve: async (_root, { organizationId, userId, input }, ctx) => {
        await updateMember(ctx.db, ctx.access, String(organizationId), String(userId), input);
        return reload(ctx, String(organizationId), String(userId));
      },
    }),
    removeMember: t.boolean({
      description: 'Removes a member, their team memberships and grants. False when the user was not a member.',
      args: memberArgs(),
      resolve: (_root, { organizationId, userId }, ctx) => removeMember(ctx.db, ctx.access, String(organizationId), String(userId)),
    }),
    setMemberSso: t.field({
      type: MemberRef,
      description: 'Marks a member as an SSO member. Organization admins.',
      args: memberArgs(),
      resolve: async (_root, { organizationId, userId }, ctx) => {
        await setMemberSso(ctx.db, ctx.access, String(organizationId), String(userId));
        return reload(ctx, String(organizationId), String(userId));
      },
    }),
    pingOrganization: t.field({
      type: OrganizationPing,
      description: "Updates the caller's last-seen time in the organization and returns their visitor claims.",
      args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }) },
      resolve: async (_root, { organizationId }, ctx) => {
        const id = String(organizationId);
        const signer = { secret: await signingSecret(ctx.db, ctx.config.secret), issuer: ctx.config.publicUrl };
        const visitorClaims = await pingOrganization(ctx.db, ctx.access, id, signer);
        return { visitorClaims, member: await reload(ctx, id, ctx.viewer.userId) };
      },
    }),
  };
});
