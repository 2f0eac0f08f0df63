/** Custom fonts in the graph (`Organization.fonts`, `font(id)`), their mutations, and the storage upload that precedes them. */
import type { CustomFont } from '../../generated/prisma/client.js';
import { createFont, deleteFont, facesOf, findFont, fontsPage, updateFont } from '../../domain/publishing/fonts/custom-fonts.js';
import { mayOrganization } from '../../domain/access/capabilities.js';
import { signingSecret } from '../../domain/kernel/signing-secret.js';
import { startUpload } from '../../domain/versions/storage/uploads.js';
import { linksAt } from '../../http/paths.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { OrganizationRef } from './organization.js';

const FontSourceRef = builder.simpleObject('FontSource', { description: 'A file of a font face: where to download it and its format.', fields: (t) => ({ url: t.string({ description: 'The absolute URL the file is served at.' }), format: t.string({ description: 'Its format: `woff` or `woff2`.' }) }) });
const FontFaceRef = builder.simpleObject('FontFace', { description: 'One weight of a custom font and the files that hold it.', fields: (t) => ({ weight: t.int({ description: 'Its CSS font weight (1 to 1000; 400 is regular).' }), sources: t.field({ type: [FontSourceRef], description: 'The files that hold it.' }) }) });

export const CustomFontRef = builder.objectRef<CustomFont>('CustomFont').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: 'A custom font: a family and its faces, served at their URLs (usable in site customization).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    custom: t.boolean({ description: 'Always true: a font the organization uploaded.', resolve: () => true }),
    fontFamily: t.exposeString('fontFamily', { description: 'Its family name, as CSS `font-family` uses it.' }),
    fontFaces: t.field({ description: 'Its faces, one per weight, lightest first.',
      type: [FontFaceRef],
      resolve: (font, _a, ctx) =>
        facesOf(font).map((face) => ({ weight: face.weight, sources: [{ url: linksAt(ctx.config.publicUrl).font(`${font.id}/${face.weight}.${face.format}`), format: face.format }] })),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    permissions: t.field({
      description: 'What the caller may do with it.',
      type: builder.simpleObject('CustomFontPermissions', { description: 'What the caller may do with a custom font.', fields: (p) => ({ edit: p.boolean({ description: 'Whether the caller may change or delete the font (organization admins).' }) }) }),
      resolve: async (font, _a, ctx) => ({ edit: mayOrganization('manageFonts', await ctx.access.orgRole(font.organizationId)) }),
    }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  fonts: t.connection({ description: 'Its custom fonts, oldest first (members with an organization role).',
    type: CustomFontRef,
    resolve: async (org, args, ctx) => pageConnection(await fontsPage(ctx.db, ctx.access, org.id, args)),
  }),
  font: t.field({ type: CustomFontRef, description: 'One of its custom fonts by ID (members with an organization role).', args: { id: t.arg.id({ required: true, description: "The font's ID." }) }, resolve: (org, { id }, ctx) => findFont(ctx.db, ctx.access, org.id, String(id)) }),
}));

const FontFaceInput = builder.inputType('FontFaceInput', {
  description: 'One weight of a custom font and its files.',
  fields: (t) => ({ weight: t.int({ required: true, description: 'Its CSS font weight (1 to 1000; 400 is regular).' }), storageKey: t.string({ description: 'The key of an uploaded font file; null (on update) removes the weight.' }) }),
});

const faces = (list: readonly { weight: number; storageKey?: string | null }[] | null | undefined, keepNull: boolean) =>
  list?.map((f) => ({ weight: f.weight, storageKey: f.storageKey ?? (keepNull ? null : undefined) }));

builder.mutationFields((t) => ({
  startStorageUpload: t.field({
    type: 'JSON',
    description: 'Step one of an upload: answers `{object: "storage-signed-url", url, key}`; PUT the bytes to `url`, then name the file by `key`. Kind `customization_font` only.',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), name: t.arg.string({ description: "The file's name.", required: true }), type: t.arg.string({ description: "The file's media type (e.g. `font/woff2`).", required: true }), size: t.arg.int({ description: "The file's size in bytes (at most 10 MiB); the bytes PUT must be exactly this many.", required: true }), kind: t.arg.string({ description: 'What the file is for: only `customization_font` is accepted.', required: true }) },
    resolve: async (_r, { organizationId, name, type, size, kind }, ctx) =>
      startUpload(ctx.db, ctx.access, String(organizationId), { file: { name, type, size }, kind }, { secret: await signingSecret(ctx.db, ctx.config.secret), issuer: ctx.config.publicUrl }, linksAt(ctx.config.publicUrl).upload),
  }),
  createFont: t.field({
    description: 'Creates a custom font of an organization: a font family and its faces.',
    type: CustomFontRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), fontFamily: t.arg.string({ description: 'Its family name (1 to 50 characters, no quotes, backslashes, semicolons, braces or angle brackets).', required: true }), fontFaces: t.arg({ description: 'Its faces, each weight once; weight 400 is required.', type: [FontFaceInput], required: true }) },
    resolve: (_r, { organizationId, fontFamily, fontFaces }, ctx) => createFont(ctx.db, ctx.access, String(organizationId), { fontFamily, fontFaces: faces(fontFaces, false) }),
  }),
  updateFont: t.field({
    description: 'Changes a custom font\'s family name or its faces.',
    type: CustomFontRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ description: "The font's ID.", required: true }), fontFamily: t.arg.string({ description: 'Its new family name; left out, unchanged.' }), fontFaces: t.arg({ description: 'Faces to add or replace by weight (`storageKey: null` removes one; 400 stays); left out, unchanged.', type: [FontFaceInput] }) },
    resolve: (_r, { organizationId, id, fontFamily, fontFaces }, ctx) =>
      updateFont(ctx.db, ctx.access, String(organizationId), String(id), { ...(fontFamily ? { fontFamily } : {}), ...(fontFaces ? { fontFaces: faces(fontFaces, true) } : {}) }),
  }),
  deleteFont: t.boolean({
    description: 'Deletes a custom font of an organization.',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ description: "The font's ID.", required: true }) },
    resolve: async (_r, { organizationId, id }, ctx) => (await deleteFont(ctx.db, ctx.access, String(organizationId), String(id)), true),
  }),
}));
