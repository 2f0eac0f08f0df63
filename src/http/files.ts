/**
 * `GET /files/{token}`: the bytes behind a file's `downloadURL` (domain/files/download-link.ts).
 * No Authorization header: the token is the credential, and the download checks again that the
 * user it was made for can still read the space. 403 for a malformed, altered or expired token,
 * 404 when access or the bytes are gone; errors as `{"error": {"code", "message"}}`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './error-reply.js';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Access } from '../domain/access/access.js';
import { blobStore } from '../domain/versions/files/blob-store.js';
import { DOWNLOAD_TTL_SECONDS, verifyFileToken } from '../domain/versions/files/download-link.js';
import { signingSecret } from '../domain/kernel/signing-secret.js';
import type { Logger } from '../observability/logger.js';
import { FILE_DOWNLOAD_PATH } from './paths.js';

export type FileDownloadDependencies = { db: Db; config: Pick<Config, 'secret' | 'dataDir' | 'publicUrl'>; accessOf: (userId: string) => Access; logger: Logger };


/** Shown in the browser when it can display it safely; everything else downloads. */
const INLINE = /^(image\/(png|jpeg|gif|webp)|application\/pdf|text\/plain)$/;

export async function serveFile(req: IncomingMessage, res: ServerResponse, deps: FileDownloadDependencies): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'Only GET and HEAD are allowed');
  const token = (req.url ?? '').split('?', 1)[0].slice(FILE_DOWNLOAD_PATH.length);
  const claims = await verifyFileToken({ secret: await signingSecret(deps.db, deps.config.secret), issuer: deps.config.publicUrl }, token);
  if (!claims) return sendError(res, 403, 'This download link is not valid or has expired: ask the API for the file again');
  try {
    await deps.accessOf(claims.userId).requireSpace(claims.spaceId, 'view');
  } catch {
    return sendError(res, 404, 'File not found');
  }
  const stream = await blobStore(deps.config, deps.db).open(claims.key);
  if (!stream) return sendError(res, 404, 'File not found');
  const disposition = INLINE.test(claims.type) ? 'inline' : 'attachment';
  res.writeHead(200, {
    'content-type': claims.type,
    'content-disposition': `${disposition}; filename*=UTF-8''${encodeURIComponent(claims.name)}`,
    'x-content-type-options': 'nosniff',
    // The bytes behind a key never change; the link itself expires.
    'cache-control': `private, max-age=${DOWNLOAD_TTL_SECONDS}, immutable`,
    etag: `"${claims.key}"`,
  });
  if (req.method === 'HEAD') return void (stream.destroy(), res.end());
  try {
    await pipeline(stream, res);
  } catch (error) {
    deps.logger.warn({ err: error }, 'file download interrupted');
  }
}
