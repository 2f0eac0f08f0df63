/**
 * The storage upload flow of the public document: `POST /orgs/{id}/storage/upload` with the
 * file's metadata and kind answers `{object: "storage-signed-url", url, key}`; the client PUTs
 * the bytes to `url` (a signed link, valid for an hour, for exactly that file); `key` then names
 * the file (a custom font face's `storageKey`). Only `customization_font` is served: its bytes
 * must be a real WOFF/WOFF2 (fonts/), checked on arrival.
 */
import { z } from 'zod';
import type { StorageUpload } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { badRequest, forbidden } from '../../../lib/errors.js';
import type { BlobStore } from '../files/blob-store.js';
import { DEFAULT_MAX_FONT_BYTES } from '../../../lib/fonts/index.js';
import { signLink, stringClaim, verifyLink, type LinkSigner } from '../../kernel/signed-links.js';
import { newId } from '../../kernel/ids.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';

const PURPOSE = 'upload';
const TTL_SECONDS = 60 * 60;

const startSchema = lazySchema(() => z
  .object({
    file: z.object({ name: z.string().trim().min(1).max(256), type: z.string().max(255), size: z.number().int().min(1).max(DEFAULT_MAX_FONT_BYTES) }).strict(),
    kind: z.enum(['customization_font', 'import_file', 'organization_file']),
  })
  .strict());

/** `uploadUrl`: the URL the bytes go to, made of the signed token (the transport's, http/paths.ts). */
export async function startUpload(db: Db, access: Access, organizationId: string, raw: unknown, signer: LinkSigner, uploadUrl: (token: string) => string) {
  const input = parseInput(startSchema, raw);
  if (input.kind !== 'customization_font') throw badRequest(`Invalid value for "kind": this server takes uploads of custom fonts (customization_font) only`, 'kind');
  await access.requireOrganization(organizationId, 'manageFonts');
  const upload = await db.storageUpload.create({
    data: { id: newId('StorageUpload'), organizationId, kind: input.kind, name: input.file.name, contentType: input.file.type, size: input.file.size, createdById: access.userId },
  });
  const token = await signLink(PURPOSE, access.userId, { u: upload.id }, signer, { ttlSeconds: TTL_SECONDS });
  return { object: 'storage-signed-url' as const, url: uploadUrl(token), key: upload.id };
}

/** The upload a signed URL names, when the token is valid and the upload still waits for its bytes. */
export async function uploadOfToken(db: Db, token: string, signer: LinkSigner): Promise<StorageUpload | null> {
  const link = await verifyLink(PURPOSE, token, signer);
  const id = link.ok ? stringClaim(link.payload.u) : undefined;
  const upload = id ? await db.storageUpload.findUnique({ where: { id } }) : null;
  return upload && !upload.uploadedAt ? upload : null;
}

/** Accepts the bytes of an upload (exactly its declared size, of its kind) and stores them. */
export async function receiveUpload(db: Db, upload: StorageUpload, bytes: Uint8Array, store: BlobStore): Promise<StorageUpload> {
  if (bytes.byteLength !== upload.size) throw badRequest(`The upload was announced as ${upload.size} bytes; ${bytes.byteLength} arrived`, 'file');
  const { readFontFile } = await import('../../../lib/fonts/read-font-file.js'); // fontkit: loaded by the first upload
  const font = readFontFile(bytes);
  const blobKey = await store.put(bytes);
  const { count } = await db.storageUpload.updateMany({ where: { id: upload.id, uploadedAt: null }, data: { blobKey, contentType: font.contentType, uploadedAt: new Date() } });
  if (!count) throw forbidden('This upload has already been received');
  return db.storageUpload.findUniqueOrThrow({ where: { id: upload.id } });
}
