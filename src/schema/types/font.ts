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

const FontSourceRef = builder.simpleObject('FontSource', { description: 'A file of a font face: where to download it and its format.', fields: (t) => ({ url: t.string(), format: t.string() }) });
const FontFaceRef = builder.simpleObject('FontFace', { description: 'One weight of a custom font and the files that hold it.', fields: (t) => ({ weight: t.int(), sources: t.field({ type: [FontSourceRef] }) }) });

export const CustomFontRef = builder.objectRef<CustomFont>('CustomFont').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: 'A custom font: a family and its faces, served at their URLs (usable in site customization).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    custom: t.boolean({ resolve: () => true }),
    fontFamily: t.exposeString('fontFamily'),
    fontFaces: t.field({
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
  fonts: t.connection({
    type: CustomFontRef,
    resolve: async (org, args, ctx) => pageConnection(await fontsPage(ctx.db, ctx.access, org.id, args)),
  }),
  font: t.field({ type: CustomFontRef, args: { id: t.arg.id({ required: true }) }, resolve: (org, { id }, ctx) => findFont(ctx.db, ctx.access, org.id, String(id)) }),
}));

const FontFaceInput = builder.inputType('FontFaceInput', {
  description: 'One weight of a custom font and its files.',
  fields: (t) => ({ weight: t.int({ required: true }), storageKey: t.string({ description: 'The key of an uploaded font file; null (on update) removes the weight.' }) }),
});

const faces = (list: readonly { weight: number; storageKey?: string | null }[] | null | undefined, keepNull: boolean) =>
  list?.map((f) => ({ weight: f.weight, storageKey: f.storageKey ?? (keepNull ? null : undefined) }));

builder.mutationFields((t) => ({
  startStorageUpload: t.field({
    type: 'JSON',
    description: 'Step one of an upload: answers `{object: "storage-signed-url", url, key}`; PUT the bytes to `url`, then name the file by `key`. Kind `customization_font` only.',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), name: t.arg.string({ required: true }), type: t.arg.string({ required: true }), size: t.arg.int({ required: true }), kind: t.arg.string({ required: true }) },
    resolve: async (_r, { organizationId, name, type, size, kind }, ctx) =>
      startUpload(ctx.db, ctx.access, String(organizationId), { file: { name, type, size }, kind }, { secret: await signingSecret(ctx.db, ctx.config.secret), issuer: ctx.config.publicUrl }, linksAt(ctx.config.publicUrl).upload),
  }),
  createFont: t.field({
    description: 'Creates a custom font of an organization: a font family and its faces.',
    type: CustomFontRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), fontFamily: t.arg.string({ required: true }), fontFaces: t.arg({ type: [FontFaceInput], required: true }) },
    resolve: (_r, { organizationId, fontFamily, fontFaces }, ctx) => createFont(ctx.db, ctx.access, String(organizationId), { fontFamily, fontFaces: faces(fontFaces, false) }),
  }),
  updateFont: t.field({
    description: 'Changes a custom font\'s family name or its faces.',
    type: CustomFontRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ required: true }), fontFamily: t.arg.string(), fontFaces: t.arg({ type: [FontFaceInput] }) },
    resolve: (_r, { organizationId, id, fontFamily, fontFaces }, ctx) =>
      updateFont(ctx.db, ctx.access, String(organizationId), String(id), { ...(fontFamily ? { fontFamily } : {}), ...(fontFaces ? { fontFaces: faces(fontFaces, true) } : {}) }),
  }),
  deleteFont: t.boolean({
    description: 'Deletes a custom font of an organization.',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ required: true }) },
    resolve: async (_r, { organizationId, id }, ctx) => (await deleteFont(ctx.db, ctx.access, String(organizationId), String(id)), true),
  }),
}));
