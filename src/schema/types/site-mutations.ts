/**
 * Every write to sites: the sites themselves (create, update, publish, unpublish, delete), their
 * sections and site spaces (add, update, move, delete), share links and customization. Each runs
 * one domain command (src/domain/publishing/sites/), which checks the caller's role and validates its input.
 */
import { deleteSiteSpaceCustomization, patchSiteSpaceCustomization, putSiteCustomization } from '../../domain/publishing/sites/customization/store.js';
import { addSection, deleteSection, moveSection, updateSection } from '../../domain/publishing/sites/structure/sections.js';
import { createSectionGroup, deleteSectionGroup, moveSectionGroup, updateSectionGroup } from '../../domain/publishing/sites/structure/section-groups.js';
import { createShareLink, deleteShareLink, updateShareLink } from '../../domain/publishing/sites/visitors/share-links.js';
import { addSiteSpace, deleteSiteSpace, moveSiteSpace, updateSiteSpace } from '../../domain/publishing/sites/structure/site-spaces.js';
import { createSite, deleteSite, setPublished, updateSite } from '../../domain/publishing/sites/sites.js';
import { builder } from '../builder.js';
import { forgetLoaded, type Context } from '../context.js';
import { PositionInput } from './position.js';
import { inOrganization, siteArgs } from './site-args.js';
import { SiteRef, SiteSectionGroupRef, SiteSectionRef, SiteShareLinkRef, SiteSpaceRef, SiteVisibilityEnum } from './site.js';

/** The input as the domain reads it: GraphQL's nulls for omitted arguments dropped, explicit nulls kept where `keepNull` says. */
export function body(args: Record<string, unknown>, keepNull: readonly string[] = []): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([key, value]) => value !== undefined && (value !== null || keepNull.includes(key))));
}

export const fresh = <T>(ctx: Context, value: T) => (forgetLoaded(ctx), value);

const CreateSiteInput = builder.inputType('CreateSiteInput', {
  description: 'A new site of an organization.',
  fields: (t) => ({
    title: t.string({ description: 'Its title (2 to 128 characters); `Documentation` when left out.' }),
    visibility: t.field({ description: 'Who may read it once published; public when left out.', type: SiteVisibilityEnum }),
    type: t.string({ description: '`basic`, `premium`, `ultimate` (default), `sponsored`, `legacy-basic` or `legacy-premium`.' }),
    spaces: t.idList({ description: 'Spaces to publish in it, in order, at its root.' }),
  }),
});

const UpdateSiteInput = builder.inputType('UpdateSiteInput', {
  description: 'A site\'s new settings; only the given fields change.',
  fields: (t) => ({
    title: t.string({ description: 'The new title (2 to 128 characters).' }),
    visibility: t.field({ description: 'Who may read it once published.', type: SiteVisibilityEnum }),
    basename: t.string({ description: 'Its path segment in URLs: lowercase letters, digits and `-`, unique within the organization.' }),
    hostname: t.string({ description: 'A custom hostname the site is served on; null removes it.' }),
    defaultLevel: t.string({ description: '`inherit` (members have their organization role on the site), a role (at least that), or null (only grants and organization admins reach the site).' }),
    defaultSiteSpace: t.id({ description: "The ID of the site space to serve at the site's root (a site without sections)." }),
    defaultSiteSection: t.id({ description: "The ID of the section to serve at the site's root." }),
  }),
});

const UpdateSiteSectionInput = builder.inputType('UpdateSiteSectionInput', {
  description: 'A site section\'s new settings; only the given fields change.',
  fields: (t) => ({
    title: t.string({ description: 'The new title (2 to 128 characters).' }),
    path: t.string({ description: "Its path segment in the site's URLs, unique among the sections." }),
    defaultSiteSpace: t.id({ description: 'The ID of one of its site spaces to serve at its root.' }),
    condition: t.string({ description: 'An expression over `visitor.claims`; null removes it.' }),
    icon: t.string({ description: 'Its icon (at most 50 characters); null removes it.' }),
    description: t.string({ description: 'Its description (at most 256 characters); null removes it.' }),
  }),
});

const UpdateSiteSpaceInput = builder.inputType('UpdateSiteSpaceInput', {
  description: 'A site space\'s new settings; only the given fields change.',
  fields: (t) => ({ path: t.string({ description: "Its path segment in the site's URLs, unique among its siblings." }), condition: t.string({ description: 'An expression over `visitor.claims`; null removes it.' }) }),
});

builder.mutationFields((t) => ({
  createSite: t.field({
    description: 'Creates a site of an organization: spaces published together, unpublished until `publishSite`.',
    type: SiteRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), input: t.arg({ description: 'Its title, visibility, type and first spaces; left out, a public site titled `Documentation`.', type: CreateSiteInput, required: false }) },
    resolve: async (_r, { organizationId, input }, ctx) => fresh(ctx, await createSite(ctx.db, ctx.access, String(organizationId), body({ ...input }))),
  }),
  updateSite: t.field({
    description: 'Changes a site\'s title, visibility, hostname, basename and defaults; only the given fields change.',
    type: SiteRef,
    args: { ...siteArgs(t), input: t.arg({ description: 'The settings to change.', type: UpdateSiteInput, required: true }) },
    resolve: async (_r, { siteId, organizationId, input }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await updateSite(ctx.db, ctx.access, String(siteId), body({ ...input }, ['hostname', 'defaultLevel']))),
  }),
  publishSite: t.field({ description: 'Publishes a site: its pages are served to readers (by its visibility) from then on.', type: SiteRef, args: { ...siteArgs(t) }, resolve: async (_r, { siteId, organizationId }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await setPublished(ctx.db, ctx.access, String(siteId), true)) }),
  unpublishSite: t.field({ description: 'Stops serving a site\'s pages to readers; its settings and content are kept.', type: SiteRef, args: { ...siteArgs(t) }, resolve: async (_r, { siteId, organizationId }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await setPublished(ctx.db, ctx.access, String(siteId), false)) }),
  deleteSite: t.boolean({ description: 'Deletes a site: its published pages stop being served.', args: { ...siteArgs(t) }, resolve: async (_r, { siteId, organizationId }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || (await deleteSite(ctx.db, ctx.access, String(siteId)), true) }),

  addSiteSection: t.field({
    type: SiteSectionRef,
    description: 'Adds a section holding the space. The first section takes the site spaces at the root.',
    args: { ...siteArgs(t), spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), title: t.arg.string({ description: "Its title (2 to 64 characters); the space's title when left out." }) },
    resolve: async (_r, { siteId, organizationId, ...input }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await addSection(ctx.db, ctx.access, String(siteId), body(input))),
  }),
  updateSiteSection: t.field({
    description: 'Changes a site section\'s title, description, icon, path, condition or default site space.',
    type: SiteSectionRef,
    args: { ...siteArgs(t), sectionId: t.arg.id({ required: true, description: 'The site section\'s ID.' }), input: t.arg({ description: 'The settings to change.', type: UpdateSiteSectionInput, required: true }) },
    resolve: async (_r, { siteId, organizationId, sectionId, input }, ctx) => (await inOrganization(ctx, organizationId, siteId)) ||
      fresh(ctx, await updateSection(ctx.db, ctx.access, String(siteId), String(sectionId), body({ ...input }, ['condition', 'icon', 'description']))),
  }),
  moveSiteSection: t.field({
    description: 'Moves a site section to another position, or into or out of a section group.',
    type: SiteSectionRef,
    args: { ...siteArgs(t), sectionId: t.arg.id({ required: true, description: 'The site section\'s ID.' }), position: t.arg({ description: 'Before or after another section or section group; left out: at the end.', type: PositionInput }) },
    resolve: async (_r, { siteId, organizationId, sectionId, position }, ctx) => (await inOrganization(ctx, organizationId, siteId)) ||
      fresh(ctx, await moveSection(ctx.db, ctx.access, String(siteId), String(sectionId), position ? { position: body({ ...position }) } : {})),
  }),
  deleteSiteSection: t.boolean({
    description: 'Removes a section (a space published as part of the site\'s navigation) from a site.',
    args: { ...siteArgs(t), sectionId: t.arg.id({ required: true, description: 'The site section\'s ID.' }) },
    resolve: async (_r, { siteId, organizationId, sectionId }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || (await deleteSection(ctx.db, ctx.access, String(siteId), String(sectionId)), true),
  }),

  addSiteSpace: t.field({
    type: SiteSpaceRef,
    description: 'Publishes a space in the site: in the section given, else the default section, else at the root.',
    args: { ...siteArgs(t), spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), sectionId: t.arg.id({ description: 'The ID of the section to put it in; left out: the default section, or the root of a site without sections.' }) },
    resolve: async (_r, { siteId, organizationId, ...input }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await addSiteSpace(ctx.db, ctx.access, String(siteId), body(input))),
  }),
  updateSiteSpace: t.field({
    description: 'Changes how a space is published in a site: its path and its condition.',
    type: SiteSpaceRef,
    args: { ...siteArgs(t), siteSpaceId: t.arg.id({ required: true, description: 'The site space\'s ID.' }), input: t.arg({ description: 'The settings to change.', type: UpdateSiteSpaceInput, required: true }) },
    resolve: async (_r, { siteId, organizationId, siteSpaceId, input }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await updateSiteSpace(ctx.db, ctx.access, String(siteId), String(siteSpaceId), body({ ...input }, ['condition']))),
  }),
  moveSiteSpace: t.field({
    description: 'Moves a site space to another position in its site.',
    type: SiteSpaceRef,
    args: { ...siteArgs(t), siteSpaceId: t.arg.id({ required: true, description: 'The site space\'s ID.' }), position: t.arg({ description: 'Before or after a sibling site space; left out: at the end.', type: PositionInput }) },
    resolve: async (_r, { siteId, organizationId, siteSpaceId, position }, ctx) => (await inOrganization(ctx, organizationId, siteId)) ||
      fresh(ctx, await moveSiteSpace(ctx.db, ctx.access, String(siteId), String(siteSpaceId), position ? { position: body({ ...position }) } : {})),
  }),
  deleteSiteSpace: t.boolean({
    description: 'Removes a space from a site; the space itself is kept.',
    args: { ...siteArgs(t), siteSpaceId: t.arg.id({ required: true, description: 'The site space\'s ID.' }) },
    resolve: async (_r, { siteId, organizationId, siteSpaceId }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || (await deleteSiteSpace(ctx.db, ctx.access, String(siteId), String(siteSpaceId)), true),
  }),

  createSiteSectionGroup: t.field({
    description: 'Creates a group of sections in a site\'s navigation.',
    type: SiteSectionGroupRef,
    args: { ...siteArgs(t), title: t.arg.string({ description: 'Its title (1 to 100 characters).', required: true }), icon: t.arg.string({ description: 'Its icon (at most 50 characters).' }), sections: t.arg.idList({ description: "The IDs of the site's sections to put in it." }) },
    resolve: async (_r, { siteId, organizationId, ...input }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await createSectionGroup(ctx.db, ctx.access, String(siteId), body(input))),
  }),
  updateSiteSectionGroup: t.field({
    description: 'Changes a section group\'s title or icon.',
    type: SiteSectionGroupRef,
    args: { ...siteArgs(t), groupId: t.arg.id({ required: true, description: 'The section group\'s ID.' }), title: t.arg.string({ description: 'The new title (1 to 100 characters).' }), icon: t.arg.string({ description: 'The new icon (at most 50 characters); null removes it.' }) },
    resolve: async (_r, { siteId, organizationId, groupId, ...input }, ctx) =>
      (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await updateSectionGroup(ctx.db, ctx.access, String(siteId), String(groupId), body(input, ['icon']))),
  }),
  moveSiteSectionGroup: t.field({
    description: 'Moves a section group to another position among the site\'s sections.',
    type: SiteSectionGroupRef,
    args: { ...siteArgs(t), groupId: t.arg.id({ required: true, description: 'The section group\'s ID.' }), position: t.arg({ description: 'Before or after another section or section group; left out: at the end.', type: PositionInput }) },
    resolve: async (_r, { siteId, organizationId, groupId, position }, ctx) =>
      (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await moveSectionGroup(ctx.db, ctx.access, String(siteId), String(groupId), position ? { position: body({ ...position }) } : {})),
  }),
  deleteSiteSectionGroup: t.boolean({
    description: 'Deletes a section group of a site.',
    args: { ...siteArgs(t), groupId: t.arg.id({ required: true, description: 'The section group\'s ID.' }) },
    resolve: async (_r, { siteId, organizationId, groupId }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || (await deleteSectionGroup(ctx.db, ctx.access, String(siteId), String(groupId)), true),
  }),

  createSiteShareLink: t.field({
    description: 'Creates a named link that opens a site with share-link visibility without signing in.',
    type: SiteShareLinkRef,
    args: { ...siteArgs(t), name: t.arg.string({ description: 'Its name (1 to 50 characters).', required: true }) },
    resolve: async (_r, { siteId, organizationId, name }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await createShareLink(ctx.db, ctx.access, String(siteId), { name })),
  }),
  updateSiteShareLink: t.field({
    description: 'Renames a site\'s share link.',
    type: SiteShareLinkRef,
    args: { ...siteArgs(t), shareLinkId: t.arg.id({ required: true, description: 'The share link\'s ID.' }), name: t.arg.string({ description: 'The new name (1 to 50 characters).' }), active: t.arg.boolean({ description: 'False stops it opening the site; true opens it again.' }) },
    resolve: async (_r, { siteId, organizationId, shareLinkId, ...input }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await updateShareLink(ctx.db, ctx.access, String(siteId), String(shareLinkId), body(input))),
  }),
  deleteSiteShareLink: t.boolean({
    description: 'Revokes a site\'s share link: it stops opening the site.',
    args: { ...siteArgs(t), shareLinkId: t.arg.id({ required: true, description: 'The share link\'s ID.' }) },
    resolve: async (_r, { siteId, organizationId, shareLinkId }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || (await deleteShareLink(ctx.db, ctx.access, String(siteId), String(shareLinkId)), true),
  }),

  updateSiteCustomization: t.field({
    type: 'JSON',
    description: "Replaces the site's customization with the full record given (validated against the public document's schema).",
    args: { ...siteArgs(t), customization: t.arg({ description: "The full customization record (the public document's SiteCustomizationSettings).", type: 'JSON', required: true }) },
    resolve: async (_r, { siteId, organizationId, customization }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || putSiteCustomization(ctx.db, ctx.access, String(siteId), customization),
  }),
  updateSiteSpaceCustomization: t.field({
    type: 'JSON',
    description: "Changes a site space's override: a field set to null is removed (falling back to the site's), an omitted field is kept. Answers the effective customization.",
    args: { ...siteArgs(t), siteSpaceId: t.arg.id({ required: true, description: 'The site space\'s ID.' }), override: t.arg({ description: "The fields to set (null: removed, falling back to the site's); the others are kept.", type: 'JSON', required: true }) },
    resolve: async (_r, { siteId, organizationId, siteSpaceId, override }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || patchSiteSpaceCustomization(ctx.db, ctx.access, String(siteId), String(siteSpaceId), override),
  }),
  deleteSiteSpaceCustomization: t.boolean({
    description: 'Drops a site space\'s own customization: it takes the site\'s again.',
    args: { ...siteArgs(t), siteSpaceId: t.arg.id({ required: true, description: 'The site space\'s ID.' }) },
    resolve: async (_r, { siteId, organizationId, siteSpaceId }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || (await deleteSiteSpaceCustomization(ctx.db, ctx.access, String(siteId), String(siteSpaceId)), true),
  }),
}));

