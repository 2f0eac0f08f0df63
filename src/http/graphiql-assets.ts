/**
 * GraphiQL's scripts, styles, editor workers and icon as files of their own, at URLs named by a
 * hash of their bytes (`/graphiql/graphiql.3f9a…c1.js`): a browser keeps them for a year
 * (`immutable`), so a second visit fetches only the small page (graphiql-page.ts). They come
 * from @graphql-yoga/render-graphiql, bundled in this install (self-hosted instances may have no
 * route to a CDN), compressed once per encoding on first demand rather than on every request.
 * Served before the rate limit: the page costs six asset requests that are no work for quire.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import * as bundle from '@graphql-yoga/render-graphiql/graphiql';
import { sendError } from './error-reply.js';

/** Where the assets are served: `/graphiql/{name}.{hash}.{ext}`. */
export const GRAPHIQL_ASSET_PATH = '/graphiql/';

type Encoding = 'br' | 'gzip';

type Asset = {
  path: string;
  type: string;
  hash: string;
  bytes: Buffer;
  /** The compressed forms, made on first demand (a brotli pass over the script takes about a second). */
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
};

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

function compress(bytes: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzipped(bytes, { level: 9 });
  // Quality 9: within 10% of the smallest (11) at a twelfth of its time.
  return brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
}

function asset(name: string, ext: string, type: string, bytes: Buffer): Asset {
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 16);
  return { path: `${GRAPHIQL_ASSET_PATH}${name}.${hash}.${ext}`, type, hash, bytes, encoded: {} };
}

const JS = 'text/javascript; charset=utf-8';
const faviconBytes = Buffer.from(bundle.favicon.slice(bundle.favicon.indexOf(',') + 1), 'base64');

/** The assets the page links to, by role. */
export const graphiqlAssets = {
  script: asset('graphiql', 'js', JS, Buffer.from(bundle.js)),
  style: asset('graphiql', 'css', 'text/css; charset=utf-8', Buffer.from(bundle.css)),
  editorWorker: asset('editor-worker', 'js', JS, Buffer.from(bundle.editorWorkerService)),
  jsonWorker: asset('json-worker', 'js', JS, Buffer.from(bundle.jsonWorker)),
  graphqlWorker: asset('graphql-worker', 'js', JS, Buffer.from(bundle.graphqlWorker)),
  favicon: asset('favicon', 'ico', 'image/x-icon', faviconBytes),
};

const byPath = new Map(Object.values(graphiqlAssets).map((a) => [a.path, a]));

/** The encoding to answer with: brotli before gzip, neither when refused with `;q=0`. */
function chosenEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)))
      .map(([name]) => name.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

/** Whether an `If-None-Match` names this asset's bytes (in any encoding: they are the same content). */
function isFresh(ifNoneMatch: string | undefined, asset: Asset): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '').replace(/"/g, '');
    return value === '*' || value.split('.')[0] === asset.hash;
  });
}

/** Answers a request under GRAPHIQL_ASSET_PATH: the asset, 304 when the browser has it, or 404. */
export async function serveGraphiQLAsset(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'Only GET and HEAD are allowed', { allow: 'GET, HEAD' });
  const found = byPath.get((req.url ?? '').split('?', 1)[0]);
  if (!found) return sendError(res, 404, 'No such GraphiQL asset (the page names the current ones)');
  const encoding = chosenEncoding(req.headers['accept-encoding']);
  const headers: Record<string, string> = {
    'content-type': found.type,
    'cache-control': 'public, max-age=31536000, immutable',
    etag: `"${found.hash}${encoding ? `.${encoding}` : ''}"`,
    vary: 'Accept-Encoding',
  };
  if (isFresh(req.headers['if-none-match'], found)) {
    res.writeHead(304, headers);
    return void res.end();
  }
  let body = found.bytes;
  if (encoding) {
    body = await (found.encoded[encoding] ??= compress(found.bytes, encoding));
    headers['content-encoding'] = encoding;
  }
  res.writeHead(200, { ...headers, 'content-length': String(body.length) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
