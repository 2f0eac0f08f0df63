/**
 * The site operations beyond its structure's plain writes: searching a site's content, how its
 * visitors authenticate (read, change, rotate the key), a signed preview link, sorting its
 * structure and duplicating a site space. Each calls one domain command
 * (src/domain/publishing/sites/: search, visitors/publishing-auth, visitors/preview, structure/sort, duplicate).
 */
import type { SiteExternalLink, SiteSection, SiteSectionGroup, SiteSpace } from '../../generated/prisma/client.js';
import { effectiveImportWaitMs } from '../../config.js';
import { kindOfId } from '../../domain/kernel/ids.js';
import { signingSecret } from '../../domain/kernel/signing-secret.js';
import { startSiteSpaceDuplicate } from '../../domain/publishing/sites/duplicate.js';
import { preparePreview, PREVIEW_TTL_SECONDS, signPreviewToken } from '../../domain/publishing/sites/visitors/preview.js';
import { readPublishingAuth, regeneratePublishingAuth, updatePublishingAuth, type PublishingAuth } from '../../domain/publishing/sites/visitors/publishing-auth.js';
import { prewarmSiteSearch, searchSite } from '../../domain/publishing/sites/search.js';
import { sortSiteStructure } from '../../domain/publishing/sites/structure/sort.js';
import { jobResult } from '../../jobs/outcome.js';
import { waitForJob } from '../../jobs/wait.js';
import { badRequest } from '../../lib/errors.js';
import { siteBaseUrl, siteSpaceBaseUrl } from '../../published/urls.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { apiUrl } from '../urls.js';
import { SearchSpaceResultRef } from './search.js';
import { SiteRef, SiteSectionGroupRef, SiteSectionRef, SiteSpaceRef } from './site.js';
import { SiteExternalLinkRef } from './site-external-link.js';
import { inOrganization, siteArgs } from './site-args.js';
import { body, fresh } from './site-mutations.js';

const SitePublishingAuthRef = builder.objectRef<PublishingAuth>('SitePublishingAuth').implement({
  description: "How visitors authenticate on a `visitor-auth` site: the key that signs their JWTs, and where they are sent without one.",
  fields: (t) => ({
    backend: t.exposeString('backend', { description: 'Always `custom`: the visitor brings a JWT signed with `privateKey` (this server has no integrations).' }),
    privateKey: t.exposeString('privateKey', { description: 'The secret that signs (HS256) the visitors\' JWTs (`?jwt_token=`). Rotating it refuses every token signed with the old one.' }),
    fallbackURL: t.exposeString('fallbackURL', { nullable: true, description: 'Where a visitor without a valid token is sent (with `?location=` the path asked for); null: the site answers 401.' }),
    logoutURL: t.exposeString('logoutURL', { nullable: true, description: 'The upstream URL that signs visitors out (a "Sign out" link in the published site\'s header).' }),
  }),
});

const UpdateSitePublishingAuthInput = builder.inputType('UpdateSitePublishingAuthInput', {
  description: 'New settings of how visitors authenticate on a site; omitted fields are kept.',
  fields: (t) => ({
    backend: t.string({ required: true, description: '`custom` (`integration` is refused: this server has no integrations).' }),
    fallbackURL: t.string({ description: 'An http(s) URL; null unsets it.' }),
    logoutURL: t.string({ description: 'An http(s) URL; null unsets it.' }),
  }),
});

const SiteSearchScopeInput = builder.inputType('SiteSearchScopeInput', {
  description: 'Which site spaces a site search reads (all of them when omitted).',
  fields: (t) => ({
    mode: t.string({ required: true, description: '`all` (every site space), `default` (each section\'s default, `currentSiteSpace` standing in for its own) or `specific` (`siteSpaceIds`).' }),
    currentSiteSpace: t.id({ description: 'With `default`: the site space the search is made from; always searched (unless `restrictTo` is `otherSiteSpaces`).' }),
    restrictTo: t.string({ description: 'With `default` and `currentSiteSpace`: `currentSiteSpace` (only it) or `otherSiteSpaces` (the others only).' }),
    siteSpaceIds: t.idList({ description: 'With `specific`: the site spaces to search.' }),
  }),
});

const PositionPointer = builder.inputType('SiteStructurePointerInput', {
  description: 'An item of a site\'s structure, by kind and ID.',
  fields: (t) => ({
    type: t.string({ required: true, description: '`site-space`, `site-section` or `site-section-group` (`site-external-link` names nothing here).' }),
    id: t.id({ required: true, description: 'The item\'s ID.' }),
  }),
});

const SiteStructurePositionInput = builder.inputType('SiteStructurePositionInput', {
  description: 'Before or after a sibling of the same kind and level; neither: at the end.',
  fields: (t) => ({
    before: t.field({ type: PositionPointer, description: 'The sibling to go before.' }),
    after: t.field({ type: PositionPointer, description: 'The sibling to go after.' }),
  }),
});

const SiteStructureItemUnion = builder.unionType('SiteStructureItem', {
  description: 'An item of a site\'s structure: a site space, a section, a section group or an external link.',
  types: [SiteSpaceRef, SiteSectionRef, SiteSectionGroupRef, SiteExternalLinkRef],
  resolveType: (item) => ({ SiteSpace: SiteSpaceRef, SiteSection: SiteSectionRef, SiteExternalLink: SiteExternalLinkRef })[kindOfId(item.id) as string] ?? SiteSectionGroupRef,
});

const SitePreviewRef = builder.simpleObject('SitePreview', {
  description: 'A signed link that opens a site on the published server, published or not, as a visitor with the given claims.',
  fields: (t) => ({
    url: t.string({ description: 'The link (`?preview=`); it works for an hour, while its user may still preview the site.' }),
    expiresAt: t.field({ type: 'DateTime', description: 'When the link stops working.' }),
  }),
});

/** `target` when it is a URL of the site at `base` (its origin, under its path); a 400 naming it otherwise. */
function targetIn(base: string, target: string): URL {
  const site = new URL(`${base}/`);
  const url = URL.canParse(target) ? new URL(target) : null;
  if (!url || url.origin !== site.origin || !`${url.pathname}/`.startsWith(site.pathname)) throw badRequest(`Invalid value for "target": a URL of the site (under ${site})`, 'target');
  return url;
}

builder.objectFields(SiteRef, (t) => ({
  search: t.connection({
    type: SearchSpaceResultRef,
    description:
      "Full-text search of the content the site publishes (the published site's own search): its spaces ordered by their best match, each with its best pages and sections. " +
      'The query reads like a web search: words, "quoted phrases", `or`, `-word`; at most 512 characters.',
    args: { query: t.arg.string({ required: true, description: 'What to search for.' }), scope: t.arg({ type: SiteSearchScopeInput, description: 'Which site spaces to search; all when omitted.' }) },
    resolve: async (site, { query, scope, ...args }, ctx) => {
      const page = await searchSite(ctx.db, ctx.access, site.id, query, scope ? body({ ...scope }) : undefined, args);
      return pageConnection(page, page.totalCount);
    },
  }),
  publishingAuth: t.field({
    type: SitePublishingAuthRef,
    description: 'How its visitors authenticate (organization admins).',
    resolve: (site, _a, ctx) => readPublishingAuth(ctx.access, site.id),
  }),
  preview: t.field({
    type: SitePreviewRef,
    description: 'A signed preview link of the site, published or not (who may edit the site).',
    args: {
      siteSpace: t.arg.id({ description: 'The site space the link opens; the site\'s default when omitted.' }),
      claims: t.arg({ type: 'JSON', description: 'The visitor\'s claims as the preview shows them (`visitor.claims` in conditions).' }),
      target: t.arg.string({ description: 'A URL of the published site to open instead (its query is kept).' }),
    },
    resolve: async (site, args, ctx) => {
      const prepared = await preparePreview(ctx.db, ctx.access, site.id, body({ siteSpace: args.siteSpace === null || args.siteSpace === undefined ? undefined : String(args.siteSpace), claims: args.claims }));
      const base = siteBaseUrl(ctx.config.publicUrl, prepared.site);
      const url = args.target ? targetIn(base, args.target) : new URL(`${prepared.siteSpace ? siteSpaceBaseUrl(ctx.config.publicUrl, prepared.site, prepared.section, prepared.siteSpace) : base}/`);
      const signer = { secret: await signingSecret(ctx.db, ctx.config.secret), issuer: ctx.config.publicUrl };
      url.searchParams.set('preview', await signPreviewToken(signer, { userId: ctx.viewer.userId, siteId: site.id, claims: prepared.claims }));
      return { url: url.toString(), expiresAt: new Date(Date.now() + PREVIEW_TTL_SECONDS * 1000) };
    },
  }),
}));

builder.objectFields(SiteSpaceRef, (t) => ({
  location: t.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).', resolve: async (ss, _a, ctx) => apiUrl(ctx, `/orgs/${(await ctx.loaders.site.load(ss.siteId))!.organizationId}/sites/${ss.siteId}/site-spaces/${ss.id}`) }),
}));

builder.mutationFields((t) => ({
  prewarmSiteSearch: t.boolean({
    description: "Hints that a site's search is about to be used (who may search the site). quire's search needs no warm-up: true, once the check passed.",
    args: { ...siteArgs(t) },
    resolve: async (_r, { siteId, organizationId }, ctx) => {
      await inOrganization(ctx, organizationId, siteId);
      await prewarmSiteSearch(ctx.access, String(siteId));
      return true;
    },
  }),
  updateSitePublishingAuth: t.field({
    type: SitePublishingAuthRef,
    description: 'Changes how visitors authenticate on a site (fallback and sign-out URLs); only the given fields change.',
    args: { ...siteArgs(t), input: t.arg({ type: UpdateSitePublishingAuthInput, required: true, description: 'The new settings.' }) },
    resolve: async (_r, { siteId, organizationId, input }, ctx) =>
      (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await updatePublishingAuth(ctx.db, ctx.access, String(siteId), body({ ...input }, ['fallbackURL', 'logoutURL']))),
  }),
  regenerateSitePublishingAuth: t.field({
    type: SitePublishingAuthRef,
    description: "Rotates the key that signs a site's visitor tokens: every token signed with the old key is refused from then on.",
    args: { ...siteArgs(t) },
    resolve: async (_r, { siteId, organizationId }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await regeneratePublishingAuth(ctx.db, ctx.access, String(siteId))),
  }),
  sortSiteStructure: t.field({
    type: SiteStructureItemUnion,
    description: 'Places a site space, section, section group or external link before or after a sibling of the same kind and level, or at the end.',
    args: {
      ...siteArgs(t),
      item: t.arg({ type: PositionPointer, required: true, description: 'The item to move.' }),
      position: t.arg({ type: SiteStructurePositionInput, description: 'Where it goes; the end when omitted.' }),
    },
    resolve: async (_r, { siteId, organizationId, item, position }, ctx): Promise<SiteSpace | SiteSection | SiteSectionGroup | SiteExternalLink> => {
      await inOrganization(ctx, organizationId, siteId);
      const pointer = (p: { type: string; id: string | number } | null | undefined) => (p ? { type: p.type, id: String(p.id) } : undefined);
      const input = { item: pointer(item), ...(position ? { position: body({ before: pointer(position.before), after: pointer(position.after) }) } : {}) };
      return fresh(ctx, (await sortSiteStructure(ctx.db, ctx.access, String(siteId), input)).item);
    },
  }),
  duplicateSiteSpace: t.field({
    type: SiteSpaceRef,
    description: "Copies the space a site space publishes (a `space_duplicate` job) and publishes the copy in the site: in a new section after the original's when it is alone in its section, else beside it. Answers the new site space once made.",
    args: { ...siteArgs(t), siteSpaceId: t.arg.id({ required: true, description: 'The site space\'s ID.' }), draft: t.arg.boolean({ description: '`true` is refused (no drafts here).' }) },
    resolve: async (_r, { siteId, organizationId, siteSpaceId, draft }, ctx) => {
      await inOrganization(ctx, organizationId, siteId);
      const started = await startSiteSpaceDuplicate(ctx.db, ctx.access, String(siteId), String(siteSpaceId), body({ draft }));
      const job = await waitForJob(ctx.db, ctx.events, started.id, effectiveImportWaitMs(ctx.config));
      const { siteSpaceId: created } = jobResult<{ siteSpaceId: string }>(job);
      fresh(ctx, null);
      return (await ctx.loaders.siteSpace.load(created))!;
    },
  }),
}));
