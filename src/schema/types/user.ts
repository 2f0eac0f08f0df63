import { updateProfile } from '../../domain/people/identity/profile.js';
import { builder } from '../builder.js';
import { forgetLoaded } from '../context.js';
import { apiUrl } from '../urls.js';

export const UserRef = builder.prismaNode('User', {
  description: 'A person with an account: a member of organizations, the author of edits and comments.',
  id: { field: 'id' },
  fields: (t) => ({
    displayName: t.exposeString('displayName', { description: 'The name shown for them.' }),
    email: t.string({
      nullable: true,
      description: 'Shown to the user themself, to members with an organization role in an organization of theirs, and to teammates; null to others (who see the name).',
      resolve: async (user, _args, ctx) => (user.id === ctx.viewer.userId || (await ctx.loaders.userVisible.load(user.id)) ? user.email : null),
    }),
    photoURL: t.exposeString('photoURL', { description: 'The URL of their picture; null when they have none.', nullable: true }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: builder.simpleObject('UserUrls', { description: 'Where a user is, in this API.', fields: (u) => ({ location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }) }) }),
      resolve: (user, _args, ctx) => ({ location: apiUrl(ctx, `/users/${user.id}`) }),
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: UserRef,
    description: 'The user behind the API token.',
    resolve: async (_root, _args, ctx) => (await ctx.loaders.user.load(ctx.viewer.userId))!,
  }),
);

const UpdateUserInput = builder.inputType('UpdateUserInput', {
  description: 'New values for a user\'s profile; at least one.',
  fields: (t) => ({
    displayName: t.string({ description: 'The full name shown for the user (1 to 64 characters).' }),
    photoURL: t.string({ description: 'An http(s) URL of the user\'s picture; null removes it.' }),
  }),
});

builder.mutationField('updateUser', (t) =>
  t.field({
    type: UserRef,
    description:
      'Changes a user\'s display name or photo. Only the user themself; a token issued by one organization (its SAML sign-in or invitation link) only while the account belongs to that organization alone.',
    args: {
      userId: t.arg.id({ required: true, description: 'The user\'s ID: the caller\'s own.' }),
      input: t.arg({ type: UpdateUserInput, required: true, description: 'The fields to change.' }),
    },
    resolve: async (_root, { userId, input }, ctx) => {
      const user = await updateProfile(ctx.db, ctx.access, String(userId), input);
      forgetLoaded(ctx);
      return user;
    },
  }),
);
