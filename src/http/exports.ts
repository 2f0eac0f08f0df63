/**
 * `GET /exports/pdf/{token}`: the download behind the URL that `GET /v1/spaces/{spaceId}/
 * change-requests/{changeRequestId}/pdf` (GraphQL `ChangeRequest.pdfURL`) answers. No
 * Authorization header: the token is the credential (signed, expiring, see
 * domain/exports/pdf-link.ts), and access is checked again as the user it was made for.
 *
 * Answers: 200 with the PDF, rendered as it is sent (streamed, never stored); 403 for a token
 * that is malformed, tampered with or expired; 404 when the change request, the page or access
 * to the space is gone; 405 for methods other than GET and HEAD. Errors are the REST body
 * `{"error": {"code", "message"}}`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './error-reply.js';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Access } from '../domain/access/access.js';
import { AppError } from '../lib/errors.js';
import { prepareChangeRequestPdf } from '../domain/versions/exports/change-request-pdf.js';
import { verifyPdfLink } from '../domain/versions/exports/pdf-link.js';
import { signingSecret } from '../domain/kernel/signing-secret.js';
import type { Logger } from '../observability/logger.js';
import { requestInfo } from '../observability/request-info.js';
import { PDF_DOWNLOAD_PATH } from './paths.js';

export type ExportDependencies = {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'secret'>;
  /** The access checks of a user (the one a link was made for). */
  accessOf: (userId: string) => Access;
  logger: Logger;
};


/** Serves a request whose path starts with PDF_DOWNLOAD_PATH. */
export async function serveExport(req: IncomingMessage, res: ServerResponse, deps: ExportDependencies): Promise<void> {
  const info = requestInfo(req);
  info.route = `${req.method} ${PDF_DOWNLOAD_PATH}{token}`;
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, `Method ${req.method} is not allowed`, { allow: 'GET, HEAD' });
  const token = (req.url ?? '/').split('?', 1)[0].slice(PDF_DOWNLOAD_PATH.length);
  const link = await verifyPdfLink(token, { secret: await signingSecret(deps.db, deps.config.secret), issuer: deps.config.publicUrl });
  if (!link.ok) {
    return sendError(res, 403, link.reason === 'expired' ? 'This PDF link has expired: ask the API for a new one' : 'This PDF link is not valid');
  }
  info.userId = link.claims.userId;
  let prepared;
  try {
    prepared = await prepareChangeRequestPdf({ db: deps.db, access: deps.accessOf(link.claims.userId) }, link.claims);
  } catch (error) {
    if (error instanceof AppError) return sendError(res, error.status, error.message);
    throw error;
  }
  const maxAge = Math.max(0, Math.floor((link.expiresAt.getTime() - Date.now()) / 1000));
  // pdfkit and its fonts (some 7 MB of heap) are loaded by the first export, not at start.
  const { renderPdf } = await import('../lib/pdf/render.js');
  res.writeHead(200, {
    'content-type': 'application/pdf',
    'content-disposition': `inline; filename="${prepared.filename}"`,
    'cache-control': `private, max-age=${maxAge}`,
    'x-content-type-options': 'nosniff',
    // The URL is a credential: not to be passed on to the sites the PDF links to.
    'referrer-policy': 'no-referrer',
  });
  if (req.method === 'HEAD') return void res.end();
  const aborted = new AbortController();
  res.once('close', () => aborted.abort());
  try {
    await pipeline(renderPdf(prepared.pages, { title: prepared.title, signal: aborted.signal }), res);
  } catch (error) {
    // The reader left, or reading a batch failed once the answer had begun: the connection is cut.
    if (!aborted.signal.aborted || (error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      deps.logger.error({ err: error, reqId: info.id }, 'PDF export failed while streaming');
    }
  }
}
