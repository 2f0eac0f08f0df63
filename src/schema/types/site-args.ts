/** The arguments every site write takes (the site, and the organization REST paths name) and the check that the site is in it. */
import { notFound } from '../../lib/errors.js';
import type { Context } from '../context.js';

/** REST paths name the organization too: a site of another organization is not found there. */
export const siteArgs = (t: { arg: { id: (options: { required?: boolean; description?: string }) => any } }) => ({
  siteId: t.arg.id({ required: true, description: 'The site\'s ID.' }),
  organizationId: t.arg.id({ required: false, description: 'When given, the site must belong to it (not found otherwise).' }),
});

/** Answers undefined (so `||` goes on to the write) once the site is known to be in `organizationId`. */
export async function inOrganization(ctx: Context, organizationId: unknown, siteId: unknown): Promise<undefined> {
  if (organizationId === null || organizationId === undefined) return undefined;
  const site = await ctx.access.requireSite(String(siteId), 'view');
  if (site.organizationId !== String(organizationId)) throw notFound('Site');
  return undefined;
}
