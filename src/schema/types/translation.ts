/** Translation settings in the graph: `Organization.translations`, `translationSettings(id)` and their mutations. */
import type { TranslationSettings } from '../../generated/prisma/client.js';
import { mayOrganization } from '../../domain/access/capabilities.js';
import { createTranslation, deleteTranslation, findTranslation, replaceTranslation, translationsPage } from '../../domain/publishing/translations/settings.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { apiUrl } from '../urls.js';
import { OrganizationRef } from './organization.js';

export const TranslationSettingsRef = builder.objectRef<TranslationSettings>('TranslationSettings').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: 'A title and the languages content is translated into.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    title: t.exposeString('title', { description: 'Its title.' }),
    languages: t.exposeStringList('languages', { description: 'The languages content is translated into, as codes (`fr`, `pt-br`, `zh-tw`, …).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    permissions: t.field({
      description: 'What the caller may do with it.',
      type: builder.simpleObject('TranslationSettingsPermissions', { description: 'What the caller may do with translation settings.', fields: (p) => ({ edit: p.boolean({ description: 'Whether the caller may rename, change or delete them (organization admins).' }) }) }),
      resolve: async (s, _a, ctx) => ({ edit: mayOrganization('manageTranslations', await ctx.access.orgRole(s.organizationId)) }),
    }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: builder.simpleObject('TranslationSettingsUrls', { description: 'Where translation settings are, in this API.', fields: (u) => ({ location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }) }) }),
      resolve: (s, _a, ctx) => ({ location: apiUrl(ctx, `/orgs/${s.organizationId}/translations/${s.id}`) }),
    }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  translations: t.connection({
    type: TranslationSettingsRef,
    description: 'Oldest first (members with an organization role).',
    resolve: async (org, args, ctx) => pageConnection(await translationsPage(ctx.db, ctx.access, org.id, args)),
  }),
  translationSettings: t.field({ type: TranslationSettingsRef, description: 'One of its translation settings by ID (members with an organization role).', args: { id: t.arg.id({ required: true, description: "The translation settings' ID." }) }, resolve: (org, { id }, ctx) => findTranslation(ctx.db, ctx.access, org.id, String(id)) }),
}));

const body = (title: string, languages: readonly string[] | null | undefined) => ({ title, ...(languages ? { languages } : {}) });

builder.mutationFields((t) => ({
  createTranslationSettings: t.field({
    description: 'Creates translation settings of an organization: a title and the languages its content is translated into.',
    type: TranslationSettingsRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), title: t.arg.string({ description: 'Its title (1 to 100 characters).', required: true }), languages: t.arg.stringList({ description: 'Language codes (`fr`, `pt-br`, …), each at most once; left out, none.' }) },
    resolve: (_r, { organizationId, title, languages }, ctx) => createTranslation(ctx.db, ctx.access, String(organizationId), body(title, languages)),
  }),
  replaceTranslationSettings: t.field({
    description: 'Replaces translation settings\' title and languages as a whole.',
    type: TranslationSettingsRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ description: "The translation settings' ID.", required: true }), title: t.arg.string({ description: 'Its title (1 to 100 characters).', required: true }), languages: t.arg.stringList({ description: 'Language codes (`fr`, `pt-br`, …), each at most once; left out, none.' }) },
    resolve: (_r, { organizationId, id, title, languages }, ctx) => replaceTranslation(ctx.db, ctx.access, String(organizationId), String(id), body(title, languages)),
  }),
  deleteTranslationSettings: t.boolean({
    description: 'Deletes translation settings.',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ description: "The translation settings' ID.", required: true }) },
    resolve: async (_r, { organizationId, id }, ctx) => (await deleteTranslation(ctx.db, ctx.access, String(organizationId), String(id)), true),
  }),
}));
