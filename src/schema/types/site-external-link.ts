/**
 * External links of a site's navigation in the graph: `Site.externalLinks`,
 * `SiteSectionGroup.externalLinks` and the writes. Inputs are the public document's request
 * bodies as JSON, validated by the domain (src/domain/publishing/sites/structure/external-links.ts).
 */
import type { SiteExternalLink } from '../../generated/prisma/client.js';
import { createExternalLink, deleteExternalLink, updateExternalLink } from '../../domain/publishing/sites/structure/external-links.js';
import { builder } from '../builder.js';
import { apiUrl } from '../urls.js';
import { forgetLoaded, type Context } from '../context.js';
import { SiteRef, SiteSectionGroupRef } from './site.js';
import { inOrganization, siteArgs } from './site-args.js';

export const SiteExternalLinkRef = builder.objectRef<SiteExternalLink>('SiteExternalLink');

SiteExternalLinkRef.implement({
  description: "A link to an outside URL in a site's navigation, beside its sections (at the root or in a section group).",
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    title: t.exposeString('title', { description: 'What the navigation shows.' }),
    description: t.exposeString('description', { nullable: true, description: 'A short description.' }),
    icon: t.exposeString('icon', { nullable: true, description: 'An icon name.' }),
    url: t.exposeString('url', { description: 'The absolute HTTP(S) URL it opens.' }),
    sectionGroupId: t.exposeID('sectionGroupId', { nullable: true, description: 'The section group it is in; null at the site\'s root.' }),
    draft: t.exposeBoolean('draft', { description: 'Whether it is a draft (left out of the published navigation).' }),
    condition: t.exposeString('condition', { nullable: true, description: 'An expression over `visitor.claims`: the link is shown only to visitors for whom it holds.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    urls: t.field({
      description: 'Where it is in this API.',
      type: builder.simpleObject('SiteExternalLinkUrls', { description: 'Where a site\'s external link is, in this API.', fields: (u) => ({ location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }) }) }),
      resolve: async (l, _a, ctx) => {
        const site = await ctx.loaders.site.load(l.siteId);
        return { location: apiUrl(ctx, `/orgs/${site?.organizationId}/sites/${l.siteId}/external-links/${l.id}`) };
      },
    }),
  }),
});

const linksOf = (ctx: Context, siteId: string) => ctx.loaders.externalLinksOfSite.load(siteId);

builder.objectFields(SiteRef, (t) => ({
  externalLinks: t.field({ type: [SiteExternalLinkRef], description: 'Its external links, at the root and in section groups, in order (a few).', resolve: (s, _a, ctx) => linksOf(ctx, s.id) }),
}));

builder.objectFields(SiteSectionGroupRef, (t) => ({
  externalLinks: t.field({ type: [SiteExternalLinkRef], description: 'The external links in this group, in order.', resolve: async (g, _a, ctx) => (await linksOf(ctx, g.siteId)).filter((l) => l.sectionGroupId === g.id) }),
}));

const fresh = <T>(ctx: Context, value: T) => (forgetLoaded(ctx), value);

builder.mutationFields((t) => ({
  addSiteExternalLink: t.field({
    type: SiteExternalLinkRef,
    description: 'Adds an external link to the navigation of a site with sections, at its root or in a section group (site managers).',
    args: { ...siteArgs(t), input: t.arg({ type: 'JSON', required: true, description: 'The public document\'s body: `title`, `url` (absolute http or https), `parent` (a section group), `description`, `icon`, `draft`, `condition`.' }) },
    resolve: async (_r, { siteId, organizationId, input }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await createExternalLink(ctx.db, ctx.access, String(siteId), input)),
  }),
  updateSiteExternalLink: t.field({
    type: SiteExternalLinkRef,
    description: 'Changes an external link; only the given fields change (`parent: null` moves it to the root).',
    args: {
      ...siteArgs(t),
      linkId: t.arg.id({ required: true, description: 'The external link\'s ID.' }),
      input: t.arg({ type: 'JSON', required: true, description: 'Any of `title`, `url`, `parent`, `description`, `icon`, `draft`, `condition`.' }),
    },
    resolve: async (_r, { siteId, organizationId, linkId, input }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await updateExternalLink(ctx.db, ctx.access, String(siteId), String(linkId), input)),
  }),
  deleteSiteExternalLink: t.boolean({
    description: 'Deletes an external link: true when one was removed, false when there was none.',
    args: { ...siteArgs(t), linkId: t.arg.id({ required: true, description: 'The external link\'s ID.' }) },
    resolve: async (_r, { siteId, organizationId, linkId }, ctx) => {
      await inOrganization(ctx, organizationId, siteId);
      return fresh(ctx, await deleteExternalLink(ctx.db, ctx.access, String(siteId), String(linkId)));
    },
  }),
}));
