/**
 * Site redirects in the graph: `Site.redirects` (a keyset connection), `Site.redirect(source)`
 * and the writes (create, update, delete, bulk upsert). The inputs are the public document's
 * request bodies as JSON, validated by the domain (src/domain/publishing/sites/structure/redirects.ts), so
 * REST and GraphQL refuse the same things with the same field names.
 */
import type { SiteRedirect } from '../../generated/prisma/client.js';
import { bulkUpsertRedirects, createRedirect, deleteRedirect, redirectBySource, redirectsPage, updateRedirect, type BulkResult, type RedirectDestination } from '../../domain/publishing/sites/structure/redirects.js';
import { destinationUrl } from '../../published/redirects.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { forgetLoaded } from '../context.js';
import { SiteRef } from './site.js';
import { inOrganization, siteArgs } from './site-args.js';

export const SiteRedirectRef = builder.objectRef<SiteRedirect>('SiteRedirect');

SiteRedirectRef.implement({
  description: 'A redirect of a published site: a request to its source path that names no page is sent to its destination.',
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    source: t.exposeString('source', { description: 'The path under the site it answers (`/old/page`; a trailing `*` or `/*` matches any suffix).' }),
    draft: t.exposeBoolean('draft', { description: 'Whether it is a draft (kept, never served).' }),
    captureWildcard: t.exposeBoolean('captureWildcard', { description: 'Whether the suffix a wildcard matched is appended to the destination.' }),
    permanent: t.exposeBoolean('permanent', { description: 'Permanent redirects answer 308 on public and unlisted sites, 307 elsewhere; others answer 307.' }),
    destination: t.field({
      type: 'JSON',
      description: 'Where it goes: `{kind: "site-section", siteSectionId}`, `{kind: "site-space", siteSpaceId}`, `{kind: "site-page", siteSpaceId, pageId}` or `{kind: "external", url}`.',
      resolve: (r) => r.destination,
    }),
    target: t.string({
      nullable: true,
      description: 'The URL it sends readers to now (a page followed to its current path); null when what it names is gone.',
      resolve: async (r, _a, ctx) => {
        const site = await ctx.loaders.site.load(r.siteId);
        return site ? destinationUrl(ctx.db, ctx.config.publicUrl, site, r.destination as RedirectDestination) : null;
      },
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true, description: 'When it last changed; null if never since its creation.' }),
  }),
});

const SiteRedirectOrderEnum = builder.enumType('SiteRedirectOrderBy', {
  description: 'The order of a site\'s redirects.',
  values: {
    createdAt: { value: 'createdAt', description: 'Most recently created first (the default).' },
    updatedAt: { value: 'updatedAt', description: 'Most recently changed first (a redirect never changed counts from its creation).' },
    source: { value: 'source', description: 'By source path, alphabetically.' },
  } as const,
});

builder.objectFields(SiteRef, (t) => ({
  redirects: t.connection({
    type: SiteRedirectRef,
    description: 'Its live redirects (or its drafts), newest first by default (members with an organization role).',
    args: {
      draft: t.arg.boolean({ description: 'Drafts instead of live redirects.' }),
      search: t.arg.string({ description: 'Only redirects whose source contains this text.' }),
      orderBy: t.arg({ type: SiteRedirectOrderEnum, description: 'The order (`createdAt` by default).' }),
    },
    resolve: async (s, { draft, search, orderBy, ...args }, ctx) => pageConnection(await redirectsPage(ctx.db, ctx.access, s.id, { draft, search, orderBy }, args)),
  }),
  redirect: t.field({
    type: SiteRedirectRef,
    description: 'Its live redirect from exactly this source path (not found otherwise); `target` is where it sends readers.',
    args: { source: t.arg.string({ required: true, description: 'The source path, as the redirect spells it.' }) },
    resolve: (s, { source }, ctx) => redirectBySource(ctx.db, ctx.access, s.id, source),
  }),
}));

const BulkStatusEnum = builder.enumType('SiteRedirectUpsertStatus', {
  description: 'What a bulk upsert did with one item.',
  values: {
    created: { description: 'A redirect was created.' },
    updated: { description: 'The redirect of that source was changed.' },
    deleted: { description: 'The redirect of that source was deleted.' },
    published: { description: 'The draft redirect was published (it replaced the live one, if any).' },
    error: { description: 'Nothing was done: see `error`.' },
  } as const,
});

const BulkResultRef = builder.objectRef<BulkResult>('SiteRedirectUpsertResult').implement({
  description: 'The outcome of one item of `upsertSiteRedirects`.',
  fields: (t) => ({
    status: t.field({ type: BulkStatusEnum, description: 'What was done.', resolve: (r) => r.status }),
    source: t.exposeString('source', { description: 'The item\'s source path.' }),
    draft: t.exposeBoolean('draft', { description: 'Whether it concerned a draft redirect.' }),
    id: t.id({ nullable: true, description: 'The redirect created, updated or published.', resolve: (r) => ('id' in r ? r.id : null) }),
    error: t.string({ nullable: true, description: 'Why nothing was done.', resolve: (r) => ('error' in r ? r.error : null) }),
  }),
});

builder.mutationFields((t) => ({
  createSiteRedirect: t.field({
    type: SiteRedirectRef,
    description: 'Creates a redirect of a site (site managers). 409 when a redirect (live, or draft) from that source exists.',
    args: { ...siteArgs(t), input: t.arg({ type: 'JSON', required: true, description: 'The public document\'s body: `source`, `destination` (a site section, site space, page — or `{kind: "path", spaceId, path}` — or an external URL), `captureWildcard`, `draft`, `permanent`.' }) },
    resolve: async (_r, { siteId, organizationId, input }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || createRedirect(ctx.db, ctx.access, String(siteId), input),
  }),
  updateSiteRedirect: t.field({
    type: SiteRedirectRef,
    description: 'Changes a site redirect; only the given fields change (`draft: false` publishes a draft).',
    args: {
      ...siteArgs(t),
      redirectId: t.arg.id({ required: true, description: 'The redirect\'s ID.' }),
      input: t.arg({ type: 'JSON', required: true, description: 'Any of `source`, `destination`, `captureWildcard`, `draft`, `permanent`.' }),
    },
    resolve: async (_r, { siteId, organizationId, redirectId, input }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || updateRedirect(ctx.db, ctx.access, String(siteId), String(redirectId), input),
  }),
  deleteSiteRedirect: t.boolean({
    description: 'Deletes a site redirect: true when one was removed, false when there was none.',
    args: { ...siteArgs(t), redirectId: t.arg.id({ required: true, description: 'The redirect\'s ID.' }) },
    resolve: async (_r, { siteId, organizationId, redirectId }, ctx) => {
      await inOrganization(ctx, organizationId, siteId);
      const removed = await deleteRedirect(ctx.db, ctx.access, String(siteId), String(redirectId));
      forgetLoaded(ctx);
      return removed;
    },
  }),
  upsertSiteRedirects: t.field({
    type: [BulkResultRef],
    description: 'Up to 500 redirect operations in one transaction, each answered on its own: an upsert (a destination), a delete (`destination: null`) or publishing a draft (`intent: "publish"`).',
    args: { ...siteArgs(t), redirects: t.arg({ type: ['JSON'], required: true, description: 'The items: `{source, intent?: "live"|"draft", destination, captureWildcard?, permanent?}` or `{source, intent: "publish"}`.' }) },
    resolve: async (_r, { siteId, organizationId, redirects }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || bulkUpsertRedirects(ctx.db, ctx.access, String(siteId), { redirects }),
  }),
}));
