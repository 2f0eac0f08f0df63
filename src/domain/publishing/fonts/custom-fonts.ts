/**
 * Custom fonts (4.17): a family and its faces, each an uploaded WOFF/WOFF2 file (storage uploads)
 * of the organization. `PUT` creates one (a weight-400 face required); `POST` to one changes it
 * (a face's `storageKey: null` removes that weight; 400 stays); served at stable URLs.
 */
import { Prisma, type CustomFont } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { organizationWrite } from '../../access/guarded-write.js';
import { badRequest, notFound } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';
import { byTimeThenId, readPage, type PageArgs } from '../../kernel/pagination/keyset.js';
import { counted, type CountedPage } from '../../kernel/pagination/counted.js';
import { mergeFontFaces, validateFontInput, type FontFaceRef } from '../../../lib/fonts/index.js';

const { sql } = Prisma;

export type StoredFace = FontFaceRef & { format: 'woff' | 'woff2' };

export const facesOf = (font: CustomFont) => font.faces as unknown as StoredFace[];

/** Each face's upload must be a font of this organization whose bytes arrived. */
async function storedFaces(tx: Prisma.TransactionClient, organizationId: string, faces: readonly FontFaceRef[]): Promise<StoredFace[]> {
  const uploads = await tx.storageUpload.findMany({ where: { id: { in: faces.map((f) => f.storageKey) }, organizationId, kind: 'customization_font', uploadedAt: { not: null } } });
  return faces.map((face, i) => {
    const upload = uploads.find((u) => u.id === face.storageKey);
    if (!upload) throw badRequest(`Invalid value for "fontFaces.${i}.storageKey": no uploaded font file ${face.storageKey} in this organization`, `fontFaces.${i}.storageKey`);
    return { ...face, format: upload.contentType === 'font/woff' ? 'woff' : 'woff2' };
  });
}

export async function findFont(db: Db, access: Access, organizationId: string, id: string): Promise<CustomFont> {
  await access.requireOrganization(organizationId, 'viewFonts');
  const font = await db.customFont.findFirst({ where: { id, organizationId } });
  if (!font) throw notFound('Font');
  return font;
}

export async function fontsPage(db: Db, access: Access, organizationId: string, args: PageArgs): Promise<CountedPage<CustomFont>> {
  await access.requireOrganization(organizationId, 'viewFonts');
  const key = byTimeThenId<CustomFont>(`fonts:${organizationId}`, 'f."createdAt"', 'f."id"', (f) => [f.createdAt, f.id]);
  const page = await readPage<CustomFont>(db, sql`SELECT f.* FROM "CustomFont" f`, [sql`f."organizationId" = ${organizationId}`], key, args);
  return counted(page, () => db.customFont.count({ where: { organizationId } }));
}

export function createFont(db: Db, access: Access, organizationId: string, raw: unknown): Promise<CustomFont> {
  const input = validateFontInput(raw, 'create');
  return organizationWrite(db, access, organizationId, 'manageFonts', async (tx) => {
    const faces = await storedFaces(tx, organizationId, mergeFontFaces([], input.fontFaces));
    const font = await tx.customFont.create({ data: { id: newId('CustomFont'), organizationId, fontFamily: input.fontFamily, faces: faces as object[] } });
    await recordEvents(tx, { kind: 'customFontCreated', organizationId, subjectId: font.id, actorId: access.userId });
    return font;
  });
}

export function updateFont(db: Db, access: Access, organizationId: string, id: string, raw: unknown): Promise<CustomFont> {
  const input = validateFontInput(raw, 'update');
  return organizationWrite(db, access, organizationId, 'manageFonts', async (tx) => {
    const [font] = await tx.$queryRaw<CustomFont[]>`SELECT * FROM "CustomFont" WHERE "id" = ${id} AND "organizationId" = ${organizationId} FOR UPDATE`;
    if (!font) throw notFound('Font');
    const faces = input.fontFaces ? await storedFaces(tx, organizationId, mergeFontFaces(facesOf(font), input.fontFaces)) : facesOf(font);
    const updated = await tx.customFont.update({ where: { id }, data: { ...(input.fontFamily ? { fontFamily: input.fontFamily } : {}), faces: faces as object[] } });
    await recordEvents(tx, { kind: 'customFontUpdated', organizationId, subjectId: id, actorId: access.userId });
    return updated;
  });
}

export function deleteFont(db: Db, access: Access, organizationId: string, id: string): Promise<void> {
  return organizationWrite(db, access, organizationId, 'manageFonts', async (tx) => {
    const { count } = await tx.customFont.deleteMany({ where: { id, organizationId } });
    if (!count) throw notFound('Font');
    await recordEvents(tx, { kind: 'customFontDeleted', organizationId, subjectId: id, actorId: access.userId });
  });
}
