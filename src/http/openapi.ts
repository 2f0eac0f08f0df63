/**
 * Public OpenAPI specifications (`visibility: public`) given as text, for anyone without a token
 * (a fetched one's public URL is where it is fetched from): `GET /openapi/{specId}` answers the
 * latest version's text exactly as submitted, `/openapi/{specId}/{versionId}` that version's; as
 * JSON or YAML by its format, with open CORS (an API explorer's "try it" reads it). A private or
 * unknown specification is 404.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from '../db/client.js';
import { publicSpecVersion } from '../domain/publishing/openapi-specs/versions.js';
import { sendError } from './error-reply.js';
import { OPENAPI_PATH } from './paths.js';

const ID = '[A-Za-z0-9_]{1,64}';
const PATTERN = new RegExp(`^${OPENAPI_PATH}(${ID})(?:/(${ID}))?$`);

export async function servePublicSpec(req: IncomingMessage, res: ServerResponse, deps: { db: Db }): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'Only GET and HEAD are allowed', { allow: 'GET, HEAD' });
  const match = PATTERN.exec((req.url ?? '').split('?', 1)[0]);
  const version = match ? await publicSpecVersion(deps.db, match[1], match[2]) : null;
  if (!version) return sendError(res, 404, 'OpenAPI specification not found');
  const etag = `"${version.id}"`;
  const headers = {
    'content-type': version.format === 'json' ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8',
    'access-control-allow-origin': '*',
    'x-content-type-options': 'nosniff',
    // The latest version changes; a version by ID never does.
    'cache-control': match![2] ? 'public, max-age=86400' : 'public, max-age=60',
    etag,
  };
  if (req.headers['if-none-match'] === etag) return void res.writeHead(304, headers).end();
  const body = Buffer.from(version.text, 'utf8');
  res.writeHead(200, { ...headers, 'content-length': String(body.length) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
