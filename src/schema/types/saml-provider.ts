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
  fields: (t) => ({ acsURL: t.string(), startURL: t.string(), entityID: t.string() }),
});

export const SamlProviderRef = builder.objectRef<SamlProvider>('SamlProvider').implement({
  description: 'A SAML identity provider through which members of an organization sign in.',
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    label: t.exposeString('label'),
    entityID: t.exposeString('entityId', { nullable: true }),
    ssoURL: t.exposeString('ssoUrl', { nullable: true }),
    certificate: t.exposeString('certificate', { nullable: true }),
    status: t.field({
      type: builder.enumType('SamlProviderStatus', { values: ['active', 'pending'] as const, description: '`active`: members can sign in through it (ssoURL and certificate set); `pending`: not yet configured.' }),
      resolve: (p) => providerStatus(p),
    }),
    defaultRole: t.expose('defaultRole', { type: RoleEnum, nullable: true }),
    defaultTeam: t.field({ type: TeamRef, nullable: true, resolve: (p, _a, ctx) => (p.defaultTeamId ? ctx.loaders.team.load(p.defaultTeamId) : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    service: t.field({ type: ServiceRef, resolve: (p, _a, ctx) => linksAt(ctx.config.publicUrl).samlService(p) }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: builder.simpleObject('SamlProviderUrls', { description: 'Where a SAML identity provider is, in this API.', fields: (u) => ({ location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }) }) }),
      resolve: (p, _a, ctx) => ({ location: apiUrl(ctx, `/orgs/${p.organizationId}/saml/${p.id}`) }),
    }),
  }),
});

const SsoLoginRef = builder.simpleObject('SsoLoginProvider', { description: 'A way for members of an organization to sign in through single sign-on.', fields: (t) => ({ id: t.id(), label: t.string(), startURL: t.string() }) });

builder.objectFields(OrganizationRef, (t) => ({
  samlProviders: t.connection({
    type: SamlProviderRef,
    description: 'Organization admins.',
    resolve: async (org, args, ctx) => pageConnection(await providersPage(ctx.db, ctx.access, org.id, args)),
  }),
  samlProvider: t.field({ type: SamlProviderRef, args: { id: t.arg.id({ required: true }) }, resolve: (org, { id }, ctx) => findProvider(ctx.db, ctx.access, org.id, String(id)) }),
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
    label: t.string(),
    entityID: t.string(),
    certificate: t.string(),
    ssoURL: t.string(),
    defaultTeam: t.id(),
    defaultRole: t.field({ type: RoleEnum, description: 'Null: the organization\'s default role.' }),
  }),
});

/** The input as the domain reads it: omitted fields dropped, an explicit null kept for `defaultRole`. */
const body = (input: Record<string, unknown>) => Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && (v !== null || k === 'defaultRole')));

builder.mutationFields((t) => ({
  createSamlProvider: t.field({
    description: 'Configures a SAML identity provider through which members of the organization sign in.',
    type: SamlProviderRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), input: t.arg({ type: SamlProviderInput, required: true }) },
    resolve: (_r, { organizationId, input }, ctx) => createProvider(ctx.db, ctx.access, String(organizationId), body({ ...input })),
  }),
  updateSamlProvider: t.field({
    description: 'Changes a SAML identity provider\'s settings.',
    type: SamlProviderRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ required: true }), input: t.arg({ type: SamlProviderInput, required: true }) },
    resolve: (_r, { organizationId, id, input }, ctx) => updateProvider(ctx.db, ctx.access, String(organizationId), String(id), body({ ...input })),
  }),
  deleteSamlProvider: t.boolean({
    description: 'Removes a SAML identity provider of an organization.',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ required: true }) },
    resolve: async (_r, { organizationId, id }, ctx) => (await deleteProvider(ctx.db, ctx.access, String(organizationId), String(id)), true),
  }),
}));
