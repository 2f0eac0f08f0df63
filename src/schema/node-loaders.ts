/**
 * `node(id)` resolution: an explicit registry from type name to an access-checked loader, so a
 * node refetch passes the same checks as the resource's own root field.
 */
import { notFound } from '../domain/errors.js';
import { requireTeam } from '../domain/teams/access.js';
import type { Context } from './context.js';

type NodeLoader = (ctx: Context, id: string) => Promise<object>;

export const nodeLoaders: Record<string, NodeLoader> = {
  Organization: (ctx, id) => ctx.access.requireOrganization(id),
  Space: async (ctx, id) => (await ctx.access.requireSpace(id, 'read', { allowDeleted: true })).space,
  Collection: async (ctx, id) => (await ctx.access.requireCollection(id)).collection,
  Team: (ctx, id) => requireTeam(ctx.access, id, 'view'),
  User: async (ctx, id) => {
    const shared = await ctx.db.member.count({
      where: { userId: id, organization: { members: { some: { userId: ctx.viewer.userId, disabled: false } } } },
    });
    const user = shared || id === ctx.viewer.userId ? await ctx.loaders.user.load(id) : null;
    if (!user) throw notFound('User');
    return user;
  },
};

export async function loadNode(ctx: Context, typename: string, id: string): Promise<object> {
  const loader = nodeLoaders[typename];
  if (!loader) throw notFound('Node');
  return { ...(await loader(ctx, id)), __typename: typename };
}
