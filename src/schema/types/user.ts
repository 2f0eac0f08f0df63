import { builder } from '../builder.js';
import { apiUrl } from '../urls.js';

export const UserRef = builder.prismaNode('User', {
  id: { field: 'id' },
  fields: (t) => ({
    displayName: t.exposeString('displayName'),
    email: t.exposeString('email'),
    photoURL: t.exposeString('photoURL', { nullable: true }),
    urls: t.field({
      type: builder.simpleObject('UserUrls', { fields: (u) => ({ location: u.string() }) }),
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
