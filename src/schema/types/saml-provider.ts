/** SAML providers in the graph: `Organization.samlProviders`, `samlProvider(id)`, `ssoProviders` (how members sign in) and the mutations. */
import type { SamlProvider } from '../../generated/prisma/client.js';
import { createProvider, deleteProvider, findProvider, loginProviders, providerStatus, providersPage, updateProvider } from '../../domain/people/sso/providers.js';
import { linksAt } from '../../http/paths.js';
import { builder } from '../builder.js';
import type { Context } from '../context.js';
import { pageConnection } from '../connection.js';
import { apiUrl } from '../urls.js';
import { RoleEnum } from './enums.js';
import { OrganizationRef } from './organization.js';
import { TeamRef } from './team.js';

const ServiceRef = builder.simpleObject('SamlService', {
  description: 'What to give the identity provider: where it sends responses, where sign-in starts, and this service provider\'s entity ID.',
  fields: (t) => ({
    acsURL: t.string({ description: 'The assertion consumer service URL: where the identity provider POSTs its responses.' }),
    startURL: t.string({ description: 'Where a member starts signing in through this provider.' }),
    entityID: t.string({ description: "This server's entity ID as a service provider of this identity provider." }),
  }),
});

export const SamlProviderRef = builder.objectRef<SamlProvider>('SamlProvider').implement({
  description: 'A SAML identity provider through which members of an organization sign in.',
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    label: t.exposeString('label', { description: 'Its name, shown to members signing in.' }),
    entityID: t.exposeString('entityId', { description: "The identity provider's entity ID (issuer); null until set.", nullable: true }),
    ssoURL: t.exposeString('ssoUrl', { description: "The identity provider's sign-in URL, where members are sent; null until set.", nullable: true }),
    certificate: t.exposeString('certificate', { description: "The identity provider's signing certificate (PEM); null until set.", nullable: true }),
    status: t.field({ description: 'Whether members can sign in through it yet.',
      type: builder.enumType('SamlProviderStatus', { values: { active: { description: 'Members can sign in through it (ssoURL and certificate set).' }, pending: { description: 'Not yet configured.' } } as const, description: '`active`: members can sign in through it (ssoURL and certificate set); `pending`: not yet configured.' }),
      resolve: (p) => providerStatus(p),
    }),
    defaultRole: t.expose('defaultRole', { description: "The organization role of users who join the organization by signing in through it; null: the organization's default role.", type: RoleEnum, nullable: true }),
    defaultTeam: t.field({ description: 'The team members are added to when they sign in through it; null when none.', type: TeamRef, nullable: true, resolve: (p, _a, ctx) => (p.defaultTeamId ? ctx.loaders.team.load(p.defaultTeamId) : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    service: t.field({ description: 'What to configure in the identity provider.', type: ServiceRef, resolve: (p, _a, ctx) => linksAt(ctx.config.publicUrl).samlService(p) }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: builder.simpleObject('SamlProviderUrls', { description: 'Where a SAML identity provider is, in this API.', fields: (u) => ({ location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }) }) }),
      resolve: (p, _a, ctx) => ({ location: apiUrl(ctx, `/orgs/${p.organizationId}/saml/${p.id}`) }),
    }),
  }),
});

const SsoLoginRef = builder.simpleObject('SsoLoginProvider', { description: 'A way for members of an organization to sign in through single sign-on.', fields: (t) => ({
    id: t.id({ description: "The SAML provider's ID." }),
    label: t.string({ description: 'Its name, to show on the sign-in button.' }),
    startURL: t.string({ description: 'Where signing in through it starts.' }),
  }) });

builder.objectFields(OrganizationRef, (t) => ({
  samlProviders: t.connection({
    type: SamlProviderRef,
    description: 'Organization admins.',
    resolve: async (org, args, ctx) => pageConnection(await providersPage(ctx.db, ctx.access, org.id, args)),
  }),
  samlProvider: t.field({ type: SamlProviderRef, description: 'One of its SAML providers by ID (organization admins).', args: { id: t.arg.id({ required: true, description: "The provider's ID." }) }, resolve: (org, { id }, ctx) => findProvider(ctx.db, ctx.access, org.id, String(id)) }),
  ssoProviders: t.field({
    type: [SsoLoginRef],
    description: 'How members sign in: each configured provider with its start URL.',
    resolve: (org, _a, ctx) => ssoLogins(ctx, org.id),
  }),
}));

const ssoLogins = async (ctx: Context, organizationId: string) =>
  (await loginProviders(ctx.db, ctx.access, organizationId)).map((p) => ({ id: p.id, label: p.label, startURL: linksAt(ctx.config.publicUrl).samlService(p).startURL }));

builder.queryField('ssoProviders', (t) =>
  t.field({
    type: [SsoLoginRef],
    description: "How members of the organization sign in — also for a member whose organization requires SSO and who has not signed in through it yet (its other fields answer them 403).",
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }) },
    resolve: (_root, { organizationId }, ctx) => ssoLogins(ctx, String(organizationId)),
  }),
);

const SamlProviderInput = builder.inputType('SamlProviderInput', {
  description: 'The settings of a SAML identity provider.',
  fields: (t) => ({
    label: t.string({ description: 'Its name, shown to members signing in (1 to 30 characters); required to create.' }),
    entityID: t.string({ description: "The identity provider's entity ID (issuer)." }),
    certificate: t.string({ description: "The identity provider's signing certificate (PEM)." }),
    ssoURL: t.string({ description: "The identity provider's sign-in URL (http or https)." }),
    defaultTeam: t.id({ description: 'The ID of a team of the organization that members are added to when they sign in through it.' }),
    defaultRole: t.field({ type: RoleEnum, description: 'Null: the organization\'s default role.' }),
  }),
});

/** The input as the domain reads it: omitted fields dropped, an explicit null kept for `defaultRole`. */
const body = (input: Record<string, unknown>) => Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && (v !== null || k === 'defaultRole')));

builder.mutationFields((t) => ({
  createSamlProvider: t.field({
    description: 'Configures a SAML identity provider through which members of the organization sign in.',
    type: SamlProviderRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), input: t.arg({ description: 'Its settings.', type: SamlProviderInput, required: true }) },
    resolve: (_r, { organizationId, input }, ctx) => createProvider(ctx.db, ctx.access, String(organizationId), body({ ...input })),
  }),
  updateSamlProvider: t.field({
    description: 'Changes a SAML identity provider\'s settings.',
    type: SamlProviderRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ description: "The provider's ID.", required: true }), input: t.arg({ description: 'The settings to change.', type: SamlProviderInput, required: true }) },
    resolve: (_r, { organizationId, id, input }, ctx) => updateProvider(ctx.db, ctx.access, String(organizationId), String(id), body({ ...input })),
  }),
  deleteSamlProvider: t.boolean({
    description: 'Removes a SAML identity provider of an organization.',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ description: "The provider's ID.", required: true }) },
    resolve: async (_r, { organizationId, id }, ctx) => (await deleteProvider(ctx.db, ctx.access, String(organizationId), String(id)), true),
  }),
}));
