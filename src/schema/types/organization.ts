import { organizationPermissions } from '../../domain/access/capabilities.js';
import { organizationsByEmailDomain } from '../../domain/people/organizations/by-email-domain.js';
import { updateOrganization } from '../../domain/people/organizations/update.js';
import { createOrganization } from '../../domain/people/organizations/create.js';
import { joinByEmailDomain } from '../../domain/people/organizations/join.js';
import { reloaded } from '../../domain/loaders/reload.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { countViewerOrganizations, viewerOrganizationsPage } from '../../domain/people/organizations/rows.js';
import type { GraphQLResolveInfo } from 'graphql';
import { forgetLoaded, type Context } from '../context.js';
import { OrganizationTypeEnum, RoleEnum } from './enums.js';
import { apiUrl, appUrl } from '../urls.js';

const OrganizationPermissions = builder.simpleObject('OrganizationPermissions', {
  description: 'What the caller may do in an organization.',
  fields: (t) => ({
    view: t.boolean({ description: 'The caller can read the organization (any member, guests included).' }),
    access: t.boolean({ description: 'The caller can open the organization in the application.' }),
    admin: t.boolean({ description: 'The caller administers the organization.' }),
    ownTeam: t.boolean({ description: 'The caller owns at least one team of the organization.' }),
    createContent: t.boolean({ description: 'The caller can create spaces and collections.' }),
    createOpenAPISpec: t.boolean({ description: 'The caller can create OpenAPI specifications (the create role).' }),
    viewBilling: t.boolean({ description: 'Billing. Not served by this server yet: always false.' }),
    listMembers: t.boolean({ description: 'The caller can list the members (members with an organization role).' }),
    listTeams: t.boolean({ description: 'The caller can list the teams (members with an organization role).' }),
    listIntegrations: t.boolean({ description: 'Integrations. Not served by this server yet: always false.' }),
    listInstallations: t.boolean({ description: 'Integrations. Not served by this server yet: always false.' }),
    installIntegration: t.boolean({ description: 'Integrations. Not served by this server yet: always false.' }),
  }),
});

const OrganizationUrls = builder.simpleObject('OrganizationUrls', {
  description: 'Where an organization is: in this API and in the app.',
  fields: (t) => ({
    location: t.string({ description: 'Its absolute URL in this API.' }),
    app: t.string({ description: 'Its absolute URL in the app.' }),
    logo: t.string({ nullable: true, description: 'The URL of its logo (http or https); null when it has none.' }),
  }),
});

const OrganizationTrial = builder.simpleObject('OrganizationTrial', {
  description: 'A self-hosted instance has no billing: trials do not apply.',
  fields: (t) => ({
    status: t.string({ description: 'Always `notapplicable`.' }),
    count: t.int({ description: 'How many trials it had: always 0.' }),
  }),
});

const OrganizationDefaultContent = builder.simpleObject('OrganizationDefaultContent', {
  description: 'The content an organization opens on by default.',
  fields: (t) => ({
    type: t.string({ description: 'What kind of content: always `site`.' }),
    site: t.string({ description: 'The ID of the site it opens on.' }),
  }),
});

/**
 * Lists of an organization that `organization(id)` can read in its own statement when they are
 * selected (collection.ts registers the collections), so a tree of the organization's content is
 * one round trip. Each reads the organization (and primes its loader) and says whether it did.
 */
export const organizationReadAheads: ((ctx: Context, info: GraphQLResolveInfo, organizationId: string) => Promise<boolean>)[] = [];

export const OrganizationRef = builder.prismaNode('Organization', {
  description: 'A team\'s account: its members, spaces, collections, sites and settings.',
  id: { field: 'id' },
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Its name.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    emailDomains: t.exposeStringList('emailDomains', { description: 'E-mail domains it claims (lowercase, e.g. `example.com`); see `organizationsByEmailDomain`.' }),
    hostname: t.exposeString('hostname', { description: 'Its unique hostname: 3 to 32 lowercase letters, digits or hyphens; null when unset.', nullable: true }),
    type: t.expose('type', { description: 'Whether it is a business or a community.', type: OrganizationTypeEnum }),
    useCase: t.exposeString('useCase', { description: 'What it uses the platform for, as the public API records it; null when unset.', nullable: true }),
    communityType: t.exposeString('communityType', { description: 'Community organizations: what kind of community, as the public API records it; null when unset.', nullable: true }),
    defaultRole: t.expose('defaultRole', { description: 'The organization role new members get unless their invite or SSO provider says otherwise; null: they join as guests.', type: RoleEnum, nullable: true }),
    defaultContent: t.field({ description: 'The content it opens on by default; null when unset.',
      type: OrganizationDefaultContent,
      nullable: true,
      resolve: (org) => (org.defaultContentSite ? { type: 'site', site: org.defaultContentSite } : null),
    }),
    sso: t.exposeBoolean('sso', { description: 'Whether SSO is enforced: members who signed in through its SAML provider must keep coming through it (admins excepted).' }),
    ai: t.exposeBoolean('ai', { description: 'If true, the organization is configured to use AI features (a setting this server keeps; it has none).' }),
    inviteLinks: t.exposeBoolean('inviteLinks', { description: 'If true, invite links are enabled for this organization.' }),
    plan: t.exposeString('plan', { description: 'Its plan: `free` unless set otherwise (a self-hosted instance has no billing).' }),
    trial: t.field({ description: 'Its trial: not applicable on a self-hosted instance.', type: OrganizationTrial, resolve: () => ({ status: 'notapplicable', count: 0 }) }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: OrganizationUrls,
      resolve: (org, _args, ctx) => ({
        location: apiUrl(ctx, `/orgs/${org.id}`),
        app: appUrl(ctx, `/o/${org.id}`),
        logo: org.logoURL,
      }),
    }),
    viewerRole: t.field({
      type: RoleEnum,
      nullable: true,
      description: "The caller's organization role (null for guests).",
      resolve: async (org, _args, ctx) => (await ctx.access.orgRole(org.id)).role,
    }),
    permissions: t.field({
      description: 'What the caller may do with it.',
      type: OrganizationPermissions,
      resolve: async (org, _args, ctx) => {
        const membership = await ctx.access.orgRole(org.id);
        return organizationPermissions({ ...membership, ownsTeam: !!(await ctx.loaders.organization.load(org.id))?.viewerOwnsTeam });
      },
    }),
  }),
});

builder.queryFields((t) => ({
  organizations: t.connection({
    type: OrganizationRef,
    description: 'Organizations the caller is a member of.',
    resolve: async (_root, args, ctx) =>
      pageConnection(await viewerOrganizationsPage(ctx.db, ctx.viewer.userId, ctx.viewer, args), () => countViewerOrganizations(ctx.db, ctx.viewer.userId, ctx.viewer)),
  }),
  organization: t.field({
    description: 'An organization the caller is a member of; otherwise NOT_FOUND.',
    type: OrganizationRef,
    args: { id: t.arg.id({ description: "The organization's ID.", required: true }) },
    resolve: async (_root, { id }, ctx, info) => {
      for (const readAhead of organizationReadAheads) if (await readAhead(ctx, info, String(id))) break;
      return ctx.access.requireOrganization(String(id));
    },
  }),
  organizationsByEmailDomain: t.field({
    type: [OrganizationRef],
    description: "Organizations that list the domain among their email domains. Only the caller's own email domain can be looked up.",
    args: { emailDomain: t.arg.string({ description: "The domain to look up (case-insensitive): only the caller's own e-mail domain finds anything.", required: true }) },
    resolve: (_root, { emailDomain }, ctx) => organizationsByEmailDomain(ctx.db, ctx.viewer, emailDomain),
  }),
}));

const DefaultContentInput = builder.inputType('OrganizationDefaultContentInput', {
  description: 'The content an organization opens on by default.',
  fields: (t) => ({
    type: t.string({ required: true, description: 'What kind of content: only `site`.' }),
    site: t.string({ required: true, description: 'The ID of a site of the organization.' }),
  }),
});

const UpdateOrganizationInput = builder.inputType('UpdateOrganizationInput', {
  description: 'An organization\'s new settings; only the given fields change.',
  fields: (t) => ({
    title: t.string({ description: 'Its new name (2 to 255 characters).' }),
    emailDomains: t.stringList({ description: 'The e-mail domains it claims (replacing the list; at most 100).' }),
    hostname: t.string({ description: 'Its hostname: 3 to 32 lowercase letters, digits or hyphens, unique across organizations (CONFLICT otherwise); null removes it.' }),
    defaultRole: t.field({ description: 'The organization role new members get; null: they join as guests.', type: RoleEnum }),
    defaultContent: t.field({ description: 'The content it opens on by default; null removes it.', type: DefaultContentInput }),
    logo: t.string({ description: 'The URL of its logo (http or https, at most 2048 characters); null removes it.' }),
    sso: t.boolean({ description: 'Whether SSO is enforced for members who signed in through its SAML provider.' }),
    ai: t.boolean({ description: 'Whether AI features are on (kept; this server has none).' }),
    inviteLinks: t.boolean({ description: 'Whether invite links are enabled.' }),
    mergeRules: t.field({ type: 'JSON', description: '{type: "none"} or {type: "rules", rules: MergeRule[]}; needs organization admin.' }),
  }),
});

builder.mutationField('updateOrganization', (t) =>
  t.field({
    description: "Changes an organization's settings; only the given fields change.",
    type: OrganizationRef,
    args: { id: t.arg.id({ description: "The organization's ID.", required: true }), input: t.arg({ description: 'The settings to change.', type: UpdateOrganizationInput, required: true }) },
    resolve: async (_root, { id, input }, ctx) => {
      await updateOrganization(ctx.db, ctx.access, String(id), input as never);
      forgetLoaded(ctx);
      return reloaded(ctx.loaders.organization, String(id), 'Organization');
    },
  }),
);

const CreateOrganizationInput = builder.inputType('CreateOrganizationInput', {
  description: 'A new organization: its title, and the e-mail domains its members may join from.',
  fields: (t) => ({
    title: t.string({ required: true, description: 'Its name (2-255 characters).' }),
    emailDomains: t.stringList({ description: 'Domains whose users may join it (`joinOrganizationByEmailDomain`) once one of its admins has an address there.' }),
    withDefaultSite: t.boolean({ description: 'A default documentation site. Not supported by this server yet: true is refused.' }),
  }),
});

builder.mutationFields((t) => ({
  createOrganization: t.field({
    description: 'Creates an organization with the caller as its first admin (refused when the operator turned it off, QUIRE_ALLOW_ORGANIZATION_CREATION, and for a token confined to one organization).',
    type: OrganizationRef,
    args: { input: t.arg({ type: CreateOrganizationInput, required: true, description: 'The new organization.' }) },
    resolve: async (_root, { input }, ctx) => {
      const id = await createOrganization(ctx.db, { ...ctx.viewer, from: ctx.access.from }, ctx.config.allowOrganizationCreation, input as never);
      forgetLoaded(ctx);
      return reloaded(ctx.loaders.organization, id, 'Organization');
    },
  }),
  joinOrganizationByEmailDomain: t.field({
    description: "Joins an organization whose proven e-mail domains include the caller's address's, with its default role; a no-op for a member.",
    type: OrganizationRef,
    args: { organizationId: t.arg.id({ required: true, description: "The organization's ID." }) },
    resolve: async (_root, { organizationId }, ctx) => {
      await joinByEmailDomain(ctx.db, ctx.access, String(organizationId));
      forgetLoaded(ctx);
      return reloaded(ctx.loaders.organization, String(organizationId), 'Organization');
    },
  }),
}));
