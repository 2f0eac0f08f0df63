/**
 * The byte side of the storage flow, without an API token (the signed URL is the credential):
 * `PUT /uploads/{token}` receives an upload's bytes; `GET /fonts/{fontId}/{weight}.{woff|woff2}`
 * serves a custom font face to any page that uses it (fonts are public assets, like the
 * published sites that load them; CORS open).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { AppError } from '../lib/errors.js';
import { blobStore } from '../domain/versions/files/blob-store.js';
import { facesOf } from '../domain/publishing/fonts/custom-fonts.js';
import { signingSecret } from '../domain/kernel/signing-secret.js';
import { receiveUpload, uploadOfToken } from '../domain/versions/storage/uploads.js';
import { sendError } from './error-reply.js';
import { FONT_PATH, UPLOAD_PATH } from './paths.js';

export type StorageDeps = { db: Db; config: Pick<Config, 'secret' | 'dataDir' | 'publicUrl'> };

export async function receiveUploadRequest(req: IncomingMessage, res: ServerResponse, deps: StorageDeps, body: Buffer | null): Promise<void> {
  if (req.method !== 'PUT') return sendError(res, 405, 'Upload the bytes with PUT');
  const token = (req.url ?? '').split('?', 1)[0].slice(UPLOAD_PATH.length);
  const upload = await uploadOfToken(deps.db, token, { secret: await signingSecret(deps.db, deps.config.secret), issuer: deps.config.publicUrl });
  if (!upload) return sendError(res, 403, 'This upload link is not valid, has expired, or was used already: ask the API for a new one');
  try {
    await receiveUpload(deps.db, upload, body ?? new Uint8Array(), blobStore(deps.config, deps.db));
  } catch (error) {
    if (error instanceof AppError) return sendError(res, error.status, error.message);
    throw error;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
}

export async function serveFont(req: IncomingMessage, res: ServerResponse, deps: StorageDeps): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'Only GET and HEAD are allowed');
  const match = /^\/fonts\/([A-Za-z0-9_]{1,64})\/(\d{1,4})\.(woff2?)$/.exec((req.url ?? '').split('?', 1)[0]);
  const font = match ? await deps.db.customFont.findUnique({ where: { id: match[1] } }) : null;
  const face = font && facesOf(font).find((f) => f.weight === Number(match![2]) && f.format === match![3]);
  const upload = face ? await deps.db.storageUpload.findUnique({ where: { id: face.storageKey } }) : null;
  const stream = upload?.blobKey ? await blobStore(deps.config, deps.db).open(upload.blobKey) : null;
  if (!upload || !stream) return sendError(res, 404, 'Font not found');
  const etag = `"${upload.blobKey!.slice(0, 32)}"`;
  const headers = { 'content-type': upload.contentType, 'cache-control': 'public, max-age=86400', 'access-control-allow-origin': '*', 'x-content-type-options': 'nosniff', etag };
  if (req.headers['if-none-match'] === etag || req.method === 'HEAD') {
    stream.destroy();
    return void res.writeHead(req.method === 'HEAD' ? 200 : 304, headers).end();
  }
  res.writeHead(200, { ...headers, 'content-length': String(upload.size) });
  stream.pipe(res);
}
