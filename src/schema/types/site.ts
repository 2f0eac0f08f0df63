/**
 * Published sites in the graph: `site(id)`, `Organization.sites`, and a site's sections, section
 * groups and root site spaces (keyset connections cut from the site's whole list, which a site
 * keeps short and the loaders read for every site of a request in one statement:
 * sibling-pages.ts; a section's own site spaces and a group's sections stay plain lists, a few
 * each), share links and customization. Every type here
 * is a Node (`node(id)`, node-loaders.ts). Mutations live in site-mutations.ts.
 */
import type { Site, SiteSection, SiteSectionGroup, SiteShareLink, SiteSpace } from '../../generated/prisma/client.js';
import { sitePermissions } from '../../domain/access/capabilities.js';
import { notFound } from '../../lib/errors.js';
import { sectionBaseUrl, shareLinkUrl, siteBaseUrl, siteSpaceBaseUrl } from '../../published/urls.js';
import { shareLinksPage } from '../../domain/publishing/sites/visitors/share-links.js';
import { siteCustomization, siteSpaceCustomization } from '../../domain/publishing/sites/customization/store.js';
import { apiVisibility } from '../../domain/publishing/sites/sites.js';
import { organizationSites } from '../../domain/publishing/sites/read.js';
import { siblingsPage } from '../../domain/publishing/sites/structure/sibling-pages.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import type { Context } from '../context.js';
import { apiUrl, appUrl } from '../urls.js';
import { OrganizationRef } from './organization.js';
import { SpaceRef } from './space.js';

export const SiteVisibilityEnum = builder.enumType('SiteVisibility', {
  description: 'Who may read a published site.',
  values: {
    public: { value: 'public', description: 'Anyone; indexed by search engines.' },
    unlisted: { value: 'unlisted', description: 'Anyone; pages carry `noindex`.' },
    share_link: { value: 'share-link', description: "Whoever holds an active share link's key (`?shareKey=`)." },
    visitor_auth: { value: 'visitor-auth', description: "Visitors with a JWT signed by the site's visitor-auth key." },
  } as const,
});

const published = (ctx: Context, site: Site, url: () => string) => (site.published ? url() : null);

const PublishedUrls = builder.simpleObject('SitePublishedUrls', { description: 'Where a site\'s published content is read.', fields: (t) => ({ published: t.string({ nullable: true, description: 'Only once the site is published.' }) }) });

export const SiteRef = builder.objectRef<Site>('Site');
export const SiteSectionRef = builder.objectRef<SiteSection>('SiteSection');
export const SiteSpaceRef = builder.objectRef<SiteSpace>('SiteSpace');
export const SiteShareLinkRef = builder.objectRef<SiteShareLink>('SiteShareLink');
export const SiteSectionGroupRef = builder.objectRef<SiteSectionGroup>('SiteSectionGroup');

SiteSectionGroupRef.implement({
  description: "A named group of a site's sections.",
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    title: t.exposeString('title', { description: 'Its title.' }),
    icon: t.exposeString('icon', { description: 'Its icon; null when it has none.', nullable: true }),
    sections: t.field({ type: [SiteSectionRef], description: 'Its sections, in site order.', resolve: async (g, _a, ctx) => (await ctx.loaders.sectionsOfSite.load(g.siteId)).filter((s) => s.sectionGroupId === g.id) }),
  }),
});

const SitePermissionsRef = builder.simpleObject('SitePermissions', {
  description: 'What the caller may do with a site, from their role on it.',
  fields: (p) => ({
    view: p.boolean({ description: 'See the site and read it through the API (`read`).' }),
    access: p.boolean({ description: 'The same as `view`.' }),
    edit: p.boolean({ description: 'Edit content in the site (`edit`).' }),
    create: p.boolean({ description: "Change the site's structure: site spaces, sections, section groups, external links, their order; duplicate a site space (`create`)." }),
    admin: p.boolean({ description: 'Change its settings, customization, publishing, publishing auth, share links, redirects and grants; make preview links; delete it (`admin`).' }),
    installIntegration: p.boolean({ description: 'Always false: integrations are not served.' }),
    viewAdaptiveSchema: p.boolean({ description: 'The same as `view`.' }),
    editAdaptiveSchema: p.boolean({ description: 'Whether the caller may replace its visitor attributes schema (adaptive content): `admin` on the site.' }),
  }),
});

const siteOf = async (ctx: Context, siteId: string) => (await ctx.loaders.site.load(siteId))!;

SiteRef.implement({
  description: 'A published site: spaces published as site spaces, optionally in sections, with its customization and share links.',
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    organization: t.field({ description: 'Its organization.', type: OrganizationRef, resolve: async (s, _a, ctx) => (await ctx.loaders.organization.load(s.organizationId))! }),
    title: t.exposeString('title', { description: 'Its title.' }),
    type: t.exposeString('type', { description: 'The plan type the public API reports (`basic`, `premium`, `ultimate`, …); it changes nothing here.' }),
    visibility: t.field({ description: 'Who may read it once published.', type: SiteVisibilityEnum, resolve: (s) => apiVisibility(s.visibility) }),
    defaultLevel: t.exposeString('defaultLevel', { nullable: true, description: 'What members with an organization role get on the site without a grant: `inherit` (their organization role), a role (at least that), or null (only grants and organization admins reach it).' }),
    basename: t.exposeString('basename', { description: 'Its path segment in URLs, unique within the organization.' }),
    hostname: t.exposeString('hostname', { description: 'A custom hostname the site is also served on; null when it has none.', nullable: true }),
    published: t.exposeBoolean('published', { description: 'Whether its pages are served to readers.' }),
    publishedAt: t.expose('publishedAt', { description: 'When it was last published; null if never.', type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    customization: t.field({ type: 'JSON', description: 'The full customization record (REST 2.11).', resolve: (s) => siteCustomization(s) }),
    siteSpaceCount: t.int({
      description: 'Its site spaces, at the root and in every section.',
      resolve: (s, _a, ctx) => ctx.loaders.siteSpaceCount.load(s.id),
    }),
    sections: t.connection({
      type: SiteSectionRef,
      description: 'In order; empty for a site without sections.',
      resolve: async (s, args, ctx) => pageConnection(siblingsPage(`sections:${s.id}`, await ctx.loaders.sectionsOfSite.load(s.id), args)),
    }),
    sectionGroups: t.connection({
      type: SiteSectionGroupRef,
      description: 'In order.',
      resolve: async (s, args, ctx) => pageConnection(siblingsPage(`section-groups:${s.id}`, await ctx.loaders.sectionGroupsOfSite.load(s.id), args)),
    }),
    defaultSection: t.field({ description: 'The section served at its root; null for a site without sections.', type: SiteSectionRef, nullable: true, resolve: (s, _a, ctx) => (s.defaultSectionId ? ctx.loaders.siteSection.load(s.defaultSectionId) : null) }),
    siteSpaces: t.connection({
      type: SiteSpaceRef,
      description: "The site spaces at the site's root (a site without sections), in order.",
      resolve: async (s, args, ctx) => pageConnection(siblingsPage(`site-spaces:${s.id}`, await ctx.loaders.rootSiteSpacesOfSite.load(s.id), args)),
    }),
    siteSpace: t.field({
      type: SiteSpaceRef,
      description: 'One of its site spaces, at the root or in a section.',
      args: { id: t.arg.id({ description: "The site space's ID.", required: true }) },
      resolve: async (s, { id }, ctx) => {
        const siteSpace = await ctx.loaders.siteSpace.load(String(id));
        if (!siteSpace || siteSpace.siteId !== s.id) throw notFound('Site space');
        return siteSpace;
      },
    }),
    shareLinks: t.connection({ description: 'Its share links, which open a share-link site to whoever holds one.',
      type: SiteShareLinkRef,
      resolve: async (s, args, ctx) => pageConnection(await shareLinksPage(ctx.db, ctx.access, s.id, args)),
    }),
    visitorAuthKey: t.string({
      description: 'The secret that signs (HS256) the JWTs opening a visitor-auth site to its visitors (`?jwt_token=`). Site managers only.',
      resolve: async (s, _a, ctx) => (await ctx.access.requireSite(s.id, 'manage')).visitorAuthKey,
    }),
    permissions: t.field({
      description: 'What the caller may do with it (from their role on it: docs/access.md#sites).',
      type: SitePermissionsRef,
      resolve: async (s, _a, ctx) => sitePermissions(await ctx.access.siteRole(s)),
    }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: builder.simpleObject('SiteUrls', { description: 'Where a site is: in this API, in the app, its preview and its published address.', fields: (u) => ({ location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }), app: u.string({ description: 'Its URL in the app (under QUIRE_APP_URL).' }), preview: u.string({ description: 'Where its pages are served once published.' }), published: u.string({ nullable: true, description: 'Where its pages are served; null while it is unpublished.' }) }) }),
      resolve: (s, _a, ctx) => ({
        location: apiUrl(ctx, `/orgs/${s.organizationId}/sites/${s.id}`),
        app: appUrl(ctx, `/o/${s.organizationId}/sites/${s.id}`),
        preview: `${siteBaseUrl(ctx.config.publicUrl, s)}/`,
        published: published(ctx, s, () => `${siteBaseUrl(ctx.config.publicUrl, s)}/`),
      }),
    }),
  }),
});

SiteSectionRef.implement({
  description: 'A section of a site (a tab), holding site spaces (its variants).',
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    title: t.exposeString('title', { description: 'Its title, shown on its tab.' }),
    description: t.exposeString('description', { description: 'Its description; null when it has none.', nullable: true }),
    icon: t.exposeString('icon', { description: 'Its icon; null when it has none.', nullable: true }),
    path: t.exposeString('path', { description: "Its path segment in the site's URLs, unique among the site's sections." }),
    condition: t.exposeString('condition', { description: 'An expression over `visitor.claims` that must hold for a visitor to see it; null: always shown.', nullable: true }),
    sectionGroupId: t.exposeID('sectionGroupId', { description: 'The ID of the section group it is in; null when in none.', nullable: true }),
    default: t.field({ description: "Whether it is the site's default section (served at the site's root).", type: 'Boolean', resolve: async (s, _a, ctx) => (await siteOf(ctx, s.siteId)).defaultSectionId === s.id }),
    defaultSiteSpace: t.field({ description: "Its default site space (served at the section's root); null when it has none.", type: SiteSpaceRef, nullable: true, resolve: (s, _a, ctx) => (s.defaultSiteSpaceId ? ctx.loaders.siteSpace.load(s.defaultSiteSpaceId) : null) }),
    siteSpaces: t.field({ type: [SiteSpaceRef], description: 'Its site spaces (its variants: a few), in order.', resolve: (s, _a, ctx) => ctx.loaders.siteSpacesOfSection.load(s.id) }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: PublishedUrls,
      resolve: async (s, _a, ctx) => {
        const site = await siteOf(ctx, s.siteId);
        return { published: published(ctx, site, () => `${sectionBaseUrl(ctx.config.publicUrl, site, s)}/`) };
      },
    }),
  }),
});

SiteSpaceRef.implement({
  description: 'A space published in a site, at its root or in a section.',
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    path: t.exposeString('path', { description: "Its path segment in the site's URLs, unique among its siblings." }),
    condition: t.exposeString('condition', { description: 'An expression over `visitor.claims` that must hold for a visitor to see it; null: always shown.', nullable: true }),
    sectionId: t.exposeID('sectionId', { description: "The ID of its section; null at the site's root (a site without sections).", nullable: true }),
    spaceId: t.exposeID('spaceId', { description: 'The ID of the space it publishes.' }),
    space: t.field({
      type: SpaceRef,
      nullable: true,
      description: 'The space, when the caller can see it.',
      resolve: async (ss, _a, ctx) => (await ctx.access.requireSpace(ss.spaceId, 'view', { allowDeleted: true }).catch(() => null))?.space ?? null,
    }),
    title: t.string({ description: "The title shown for it: its own, or the space's.", resolve: async (ss, _a, ctx) => ss.title ?? (await ctx.loaders.space.load(ss.spaceId))?.title ?? '' }),
    default: t.field({ description: "Whether it is the default of its section (or of the site's root): served at that root.",
      type: 'Boolean',
      resolve: async (ss, _a, ctx) => {
        if (ss.sectionId) return (await ctx.loaders.siteSection.load(ss.sectionId))?.defaultSiteSpaceId === ss.id;
        return (await siteOf(ctx, ss.siteId)).defaultSiteSpaceId === ss.id;
      },
    }),
    customization: t.field({
      type: 'JSON',
      description: "The effective customization: the site's, with this site space's override laid over it.",
      resolve: async (ss, _a, ctx) => siteSpaceCustomization(ctx.db, await siteOf(ctx, ss.siteId), ss),
    }),
    customizationOverride: t.field({ type: 'JSON', nullable: true, description: 'Only what this site space overrides.', resolve: (ss) => ss.customization }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: PublishedUrls,
      resolve: async (ss, _a, ctx) => {
        const site = await siteOf(ctx, ss.siteId);
        const section = ss.sectionId ? await ctx.loaders.siteSection.load(ss.sectionId) : null;
        return { published: published(ctx, site, () => `${siteSpaceBaseUrl(ctx.config.publicUrl, site, section, ss)}/`) };
      },
    }),
  }),
});

SiteShareLinkRef.implement({
  description: "A secret key that opens a share-link site to whoever holds it, while active. `urls.published` carries the key.",
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    name: t.exposeString('name', { description: 'Its name (1 to 50 characters).', nullable: true }),
    active: t.exposeBoolean('active', { description: 'Whether it opens the site now.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: PublishedUrls,
      resolve: async (l, _a, ctx) => {
        const site = await siteOf(ctx, l.siteId);
        return { published: published(ctx, site, () => shareLinkUrl(ctx.config.publicUrl, site, l)) };
      },
    }),
  }),
});

builder.queryField('site', (t) =>
  t.field({
    type: SiteRef,
    description: "A site of an organization where the caller has a role (admins manage it).",
    args: { id: t.arg.id({ description: "The site's ID.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.access.requireSite(String(id), 'view'),
  }),
);

builder.objectFields(OrganizationRef, (t) => ({
  site: t.field({
    type: SiteRef,
    description: 'One of its sites (another organization\'s site is not found here).',
    args: { id: t.arg.id({ description: "The site's ID.", required: true }) },
    resolve: async (org, { id }, ctx) => {
      const site = await ctx.access.requireSite(String(id), 'view');
      if (site.organizationId !== org.id) throw notFound('Site');
      return site;
    },
  }),
  sites: t.connection({
    type: SiteRef,
    description: "The organization's sites, oldest first (members with an organization role).",
    resolve: async (org, args, ctx) => pageConnection(await organizationSites(ctx.db, ctx.access, org.id, args)),
  }),
}));
