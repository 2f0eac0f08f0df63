/**
 * `node(id)` resolution: an explicit registry from type name to an access-checked loader, so a
 * node refetch passes the same checks as the resource's own root field.
 */
import { notFound } from '../lib/errors.js';
import { requireTeam } from '../domain/people/teams/access.js';
import type { Context } from './context.js';

type NodeLoader = (ctx: Context, id: string) => Promise<object>;

export const nodeLoaders: Record<string, NodeLoader> = {
  Organization: (ctx, id) => ctx.access.requireOrganization(id),
  Space: async (ctx, id) => (await ctx.access.requireSpace(id, 'view', { allowDeleted: true })).space,
  Collection: async (ctx, id) => (await ctx.access.requireCollection(id)).collection,
  Team: (ctx, id) => requireTeam(ctx.access, id, 'view'),
  /** Visible with its space (a change request of a space the caller cannot read is not found). */
  ChangeRequest: async (ctx, id) => {
    const row = await ctx.loaders.changeRequest.load(id);
    if (!row) throw notFound('Change request');
    return (await ctx.access.requireChangeRequest(row.spaceId, id)).changeRequest;
  },
  User: async (ctx, id) => {
    const user = id === ctx.viewer.userId || (await ctx.loaders.userVisible.load(id)) ? await ctx.loaders.user.load(id) : null;
    if (!user) throw notFound('User');
    return user;
  },
};

export async function loadNode(ctx: Context, typename: string, id: string): Promise<object> {
  const loader = nodeLoaders[typename];
  if (!loader) throw notFound('Node');
  return { ...(await loader(ctx, id)), __typename: typename };
}
