/** Files of a published site: the bytes of a file of a site space's current revision. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Site } from '../generated/prisma/client.js';
import { blobStore } from '../domain/versions/files/blob-store.js';
import type { FileData } from '../domain/versions/revisions/entries.js';
import { revisionScope } from '../domain/versions/revisions/load.js';
import { entityIn } from '../domain/versions/revisions/read.js';
import { cacheFor, message, send } from './reply.js';
import type { PublishedDeps } from './deps.js';
import type { Visitor } from './visitor.js';

/** A file of a site space's current revision, to visitors of the site. */
export async function serveFile(req: IncomingMessage, res: ServerResponse, deps: PublishedDeps, site: Site, visitor: Visitor, [siteSpaceId, fileId]: string[]): Promise<void> {
  const siteSpace = siteSpaceId && fileId ? await deps.db.siteSpace.findFirst({ where: { id: siteSpaceId, siteId: site.id }, include: { space: true } }) : null;
  const file = siteSpace && !siteSpace.space.deletedAt ? await entityIn(deps.db, await revisionScope(deps.db, siteSpace.space.revisionId), 'file', fileId) : null;
  const data = file?.data as unknown as FileData | undefined;
  const stream = data && (await blobStore(deps.config, deps.db).open(data.storageKey));
  if (!file || !data || !stream) return send(req, res, { ...message(site, 404, 'This file does not exist.'), cookies: visitor.cookies });
  const etag = `"${data.storageKey.slice(0, 32)}"`;
  if (req.headers['if-none-match'] === etag) {
    stream.destroy();
    res.writeHead(304, { etag, 'cache-control': cacheFor(site, visitor) }).end();
    return;
  }
  res.writeHead(200, {
    'content-type': data.contentType,
    'content-length': String(data.size),
    'content-disposition': `${data.contentType.startsWith('image/') ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.title)}`,
    'cache-control': cacheFor(site, visitor),
    'x-content-type-options': 'nosniff',
    // Served from the site's origin: an uploaded SVG or HTML must not run script there.
    'content-security-policy': 'sandbox; default-src none; style-src unsafe-inline',
    etag,
  });
  if (req.method === 'HEAD') return void (stream.destroy(), res.end());
  stream.pipe(res);
}
