/**
 * GraphiQL's scripts, styles, editor workers and icon as files of their own, at URLs named by a
 * hash of their bytes (`/graphiql/graphiql.3f9a…c1.js`): a browser keeps them for a year
 * (`immutable`), so a second visit fetches only the small page (graphiql-page.ts). They come
 * from @graphql-yoga/render-graphiql, bundled in this install (self-hosted instances may have no
 * route to a CDN), compressed once per encoding on first demand rather than on every request.
 * Served before the rate limit: the page costs six asset requests that are no work for quire.
 *
 * The bundle is read on the first visit, not at start, and in a short-lived worker thread: the
 * module is 9 MB of string literals, which a process that imports it keeps for good (its source,
 * about 17 MB as V8 holds it, and each literal again, some 14 MB). The thread hands back only the
 * bytes (transferred, not copied) and ends, taking the rest with it.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Worker } from 'node:worker_threads';
import { chosenEncoding, compress, type Encoding } from './content-encoding.js';
import { sendError } from './error-reply.js';

/** Where the assets are served: `/graphiql/{name}.{hash}.{ext}`. */
export const GRAPHIQL_ASSET_PATH = '/graphiql/';

type Asset = {
  path: string;
  type: string;
  hash: string;
  bytes: Buffer;
  /** The compressed forms, made on first demand (a brotli pass over the script takes about a second). */
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
};

function asset(name: string, ext: string, type: string, bytes: Buffer): Asset {
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 16);
  return { path: `${GRAPHIQL_ASSET_PATH}${name}.${hash}.${ext}`, type, hash, bytes, encoded: {} };
}

const JS = 'text/javascript; charset=utf-8';

type Bundle = Record<'js' | 'css' | 'editorWorkerService' | 'jsonWorker' | 'graphqlWorker' | 'favicon', Uint8Array>;

/**
 * The thread that reads the bundle: it loads the module (its CommonJS build) and posts each export's bytes (the icon
 * decoded from its data URL), their buffers transferred. Plain JavaScript, so that it runs
 * without a loader (built or under tsx alike).
 */
const EXTRACT = `
const { parentPort, workerData } = require('node:worker_threads');
{
  const bundle = require(workerData);
  const utf8 = (text) => new TextEncoder().encode(text);
  const favicon = Buffer.from(bundle.favicon.slice(bundle.favicon.indexOf(',') + 1), 'base64');
  const bytes = { js: utf8(bundle.js), css: utf8(bundle.css), editorWorkerService: utf8(bundle.editorWorkerService), jsonWorker: utf8(bundle.jsonWorker), graphqlWorker: utf8(bundle.graphqlWorker), favicon: new Uint8Array(favicon) };
  parentPort.postMessage(bytes, Object.values(bytes).map((b) => b.buffer));
}`;

function readBundle(): Promise<Bundle> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(EXTRACT, { eval: true, workerData: createRequire(import.meta.url).resolve('@graphql-yoga/render-graphiql/graphiql') });
    worker.once('message', (bundle: Bundle) => {
      resolve(bundle);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`GraphiQL's bundle could not be read (thread exited with ${code})`)));
  });
}

const bytesOf = (array: Uint8Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

async function loadAssets() {
  const bundle = await readBundle();
  return {
    script: asset('graphiql', 'js', JS, bytesOf(bundle.js)),
    style: asset('graphiql', 'css', 'text/css; charset=utf-8', bytesOf(bundle.css)),
    editorWorker: asset('editor-worker', 'js', JS, bytesOf(bundle.editorWorkerService)),
    jsonWorker: asset('json-worker', 'js', JS, bytesOf(bundle.jsonWorker)),
    graphqlWorker: asset('graphql-worker', 'js', JS, bytesOf(bundle.graphqlWorker)),
    favicon: asset('favicon', 'ico', 'image/x-icon', bytesOf(bundle.favicon)),
  };
}

export type GraphiQLAssets = Awaited<ReturnType<typeof loadAssets>>;

let loaded: Promise<{ assets: GraphiQLAssets; byPath: Map<string, Asset> }> | undefined;

function load() {
  loaded ??= loadAssets().then(
    (assets) => ({ assets, byPath: new Map(Object.values(assets).map((a) => [a.path, a])) }),
    (error: unknown) => {
      loaded = undefined; // the next visit tries again
      throw error;
    },
  );
  return loaded;
}

/** The assets the page links to, by role (read on first demand). */
export const graphiqlAssets = async (): Promise<GraphiQLAssets> => (await load()).assets;

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
  const found = (await load()).byPath.get((req.url ?? '').split('?', 1)[0]);
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
