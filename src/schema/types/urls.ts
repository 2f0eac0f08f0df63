/**
 * URLs resolved to what they show, without fetching them (src/published/resolve-url.ts):
 * `publishedUrl` (a published site's URL → site, section, site space, space, page, anchor),
 * `contentUrl` (a content URL of this server, or a published one → collection or space, change
 * request, page) and `embed` (a link-shaped embed of any URL). REST: `/urls/…`, `/spaces/{id}/embed`.
 */
import { pageByPath } from '../../domain/versions/revisions/pages.js';
import { embedOf, resolveContentUrl, resolvePublishedUrl, type ContentResolution, type PublishedResolution, type VisitorInput } from '../../published/resolve-url.js';
import { builder } from '../builder.js';
import type { Context } from '../context.js';
import { ChangeRequestRef } from './change-request.js';
import { CollectionRef } from './collection.js';
import { OrganizationRef } from './organization.js';
import { PageRef } from './page.js';
import { SiteRef, SiteSectionRef, SiteSpaceRef } from './site.js';
import { SpaceRef } from './space.js';

/** The page at `path` of a revision (none for an empty path: the root of a space). */
async function pageAt(ctx: Context, revisionId: string | undefined, path: string) {
  if (!revisionId || !path) return null;
  const revision = await ctx.loaders.revision.load(revisionId);
  const node = revision && (await pageByPath(ctx.db, revision, path));
  return node ? { node, scope: revision } : null;
}

const UrlVisitorInput = builder.inputType('UrlVisitorInput', {
  description: 'Who visits a published URL: what decides the conditions of sections and site spaces.',
  fields: (t) => ({
    jwtToken: t.string({ description: "A JWT signed (HS256) with the site's visitor-auth key; its claims are the visitor's (an invalid one counts as none)." }),
    unsignedClaims: t.field({ type: 'JSON', description: 'Claims taken as they are, under those of `jwtToken`.' }),
  }),
});

export const PublishedUrlRef = builder.objectRef<PublishedResolution>('PublishedUrl');
PublishedUrlRef.implement({
  description: 'What a published URL shows, located as the published site itself locates it.',
  fields: (t) => ({
    organization: t.field({ type: OrganizationRef, description: "The site's organization.", resolve: async (r, _a, ctx) => (await ctx.loaders.organization.load(r.organizationId))! }),
    site: t.field({ type: SiteRef, description: 'The site.', resolve: (r) => r.site }),
    siteSection: t.field({ type: SiteSectionRef, nullable: true, description: 'The section (null for a site without sections).', resolve: (r) => r.siteSection }),
    siteSpace: t.field({ type: SiteSpaceRef, description: 'The site space.', resolve: (r) => r.siteSpace }),
    space: t.field({ type: SpaceRef, nullable: true, description: 'The space it publishes, when the caller may see it.', resolve: async (r, _a, ctx) => (await ctx.access.requireSpace(r.spaceId).catch(() => null))?.space ?? null }),
    page: t.field({ type: PageRef, nullable: true, description: "The page at `pathname` in the space's current revision (null at the site space's root, or for no page).", resolve: (r, _a, ctx) => pageAt(ctx, r.revisionId, r.pathname) }),
    pathname: t.string({ description: "The page's path in the space, as in the URL (empty: the site space's root).", resolve: (r) => r.pathname }),
    anchor: t.string({ nullable: true, description: "The URL's fragment (a heading's anchor), decoded.", resolve: (r) => r.anchor }),
    basePath: t.string({ description: "The URL's path up to the page's path (site, section and site space), with a trailing slash.", resolve: (r) => r.basePath }),
    siteBasePath: t.string({ description: "The site's own path prefix in the URL, with a trailing slash.", resolve: (r) => r.siteBasePath }),
    canonicalUrl: t.string({ description: 'The URL the site serves this content at.', resolve: (r) => r.canonicalUrl }),
    shareKey: t.string({ nullable: true, description: "The URL's `shareKey`, when it is an active share link's of the site.", resolve: (r) => r.shareKey }),
  }),
});

const ContentUrlRef = builder.objectRef<ContentResolution>('ContentUrl');
ContentUrlRef.implement({
  description: 'The content a URL of this server names: a collection, or a space (with a change request and a page).',
  fields: (t) => ({
    organization: t.field({ type: OrganizationRef, description: 'Its organization.', resolve: async (r, _a, ctx) => (await ctx.loaders.organization.load(r.organizationId))! }),
    collection: t.field({ type: CollectionRef, nullable: true, description: 'The collection, for a collection URL.', resolve: (r, _a, ctx) => (r.collectionId ? ctx.loaders.collection.load(r.collectionId) : null) }),
    space: t.field({ type: SpaceRef, nullable: true, description: 'The space, for a space, change request, page or published URL.', resolve: (r, _a, ctx) => (r.spaceId ? ctx.loaders.space.load(r.spaceId) : null) }),
    changeRequest: t.field({ type: ChangeRequestRef, nullable: true, description: "The change request whose content the URL shows.", resolve: (r, _a, ctx) => (r.changeRequestId ? ctx.loaders.changeRequest.load(r.changeRequestId) : null) }),
    page: t.field({ type: PageRef, nullable: true, description: 'The page at `pathname`, in the change request or the space.', resolve: (r, _a, ctx) => pageAt(ctx, r.revisionId, r.pathname) }),
    pathname: t.string({ description: "The page's path in the space (empty: none).", resolve: (r) => r.pathname }),
    anchor: t.string({ nullable: true, description: "The URL's fragment, decoded.", resolve: (r) => r.anchor }),
    published: t.field({ type: PublishedUrlRef, nullable: true, description: 'Where the URL is a published one: how the site locates it.', resolve: (r) => r.published ?? null }),
  }),
});

const EmbedRef = builder.simpleObject('Embed', {
  description: 'How a URL shows when embedded: always a link here (quire fetches no URL to build a richer one).',
  fields: (t) => ({
    type: t.string({ description: '`link`.' }),
    title: t.string({ description: "The page's (or space's, collection's) title for content of this server; the URL otherwise." }),
    site: t.string({ description: "The site's (or organization's) name for content of this server; the URL's host otherwise." }),
    url: t.string({ description: 'The URL.' }),
  }),
});

const urlArg = (t: { arg: { string: (o: { required: true; description: string }) => any } }) => ({ url: t.arg.string({ required: true, description: 'The URL to resolve (http or https, at most 2,048 characters).' }) });

builder.queryFields((t) => ({
  publishedUrl: t.field({
    type: PublishedUrlRef,
    description: "Resolves a published site's URL (`/sites/{siteId}/…` or a verified custom hostname) to its site, section, site space, space, page and anchor; NOT_FOUND unless the site is published and the caller sees the organization's sites.",
    args: { ...urlArg(t), visitor: t.arg({ type: UrlVisitorInput, description: 'The visitor, whose claims decide conditions.' }) },
    resolve: (_r, { url, visitor }, ctx) => resolvePublishedUrl(ctx.db, ctx.access, ctx.config, String(url), (visitor ?? undefined) as VisitorInput | undefined),
  }),
  contentUrl: t.field({
    type: ContentUrlRef,
    description: 'Resolves a URL of this server (the app\'s `/s/{spaceId}/…` and `/c/{collectionId}`, the API\'s `/v1/spaces/{id}` and `/v1/collections/{id}`, or a published URL) to the content it shows; NOT_FOUND when the caller cannot see it.',
    args: urlArg(t),
    resolve: (_r, { url }, ctx) => resolveContentUrl(ctx.db, ctx.access, ctx.config, String(url)),
  }),
  embed: t.field({
    type: EmbedRef,
    description: 'A link-shaped embed of a URL: titled from the content for URLs of this server the caller may read, from the URL itself otherwise. With `spaceId`, in the context of a space the caller must see.',
    args: { ...urlArg(t), spaceId: t.arg.id({ description: 'The space the URL is embedded in.' }) },
    resolve: async (_r, { url, spaceId }, ctx) => {
      if (spaceId) await ctx.access.requireSpace(String(spaceId));
      return embedOf(ctx.db, ctx.access, ctx.config, String(url), {
        pageTitle: async (revisionId, path) => (await pageAt(ctx, revisionId, path))?.node.entry.title ?? null,
        organizationTitle: async (id) => (await ctx.loaders.organization.load(id))?.title ?? null,
      });
    },
  }),
}));
