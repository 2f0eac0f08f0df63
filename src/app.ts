/**
 * The HTTP application: GraphQL (and GraphiQL) at /graphql, graphql-ws on the same path,
 * REST at /v1, liveness at /healthz and readiness at /readyz. Requests are served from Node's
 * own request and response objects: yoga reads and writes them directly (streaming responses
 * stream), and REST executes its pre-parsed operations without a second HTTP round trip.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isUtf8 } from 'node:buffer';
import { WebSocketServer } from 'ws';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from './db/unavailable.js';
import { createEventBus, type EventBus } from './events/bus.js';
import { busConsumer } from './events/outbox-consumer.js';
import { startOutboxDispatcher } from './events/outbox-dispatcher.js';
import { webhookConsumer } from './events/webhook-consumer.js';
import { servePublished } from './published/serve.js';
import { createPublishedCache } from './published/cache/published-cache.js';
import { PUBLISHED_PREFIX } from './published/urls.js';
import { createGraphQLFastPath, mayTakeFastPath } from './http/graphql-fast-path.js';
import { ANSWERED_METHODS, isWellFormedHost, UTF8_MESSAGE } from './http/request-hygiene.js';
import { serveGraphQLOverWebSocket } from './http/graphql-ws.js';
import { serveExport } from './http/exports.js';
import { serveFile } from './http/files.js';
import { receiveUploadRequest, serveFont } from './http/storage.js';
import { serveSso } from './http/sso.js';
import { serveInvitation } from './http/invites.js';
import { attachSpooled, MultipartInvalid, MultipartTooLarge, spoolDirectory, spoolMultipart, sweepSpool } from './http/multipart-spool.js';
import { FILE_DOWNLOAD_PATH, FONT_PATH, INVITE_PATH, OPENAPI_PATH, OWN_HANDLER_ROUTES, PDF_DOWNLOAD_PATH, SSO_PATH, UPLOAD_PATH } from './http/paths.js';
import { servePublicSpec } from './http/openapi.js';
import { DEFAULT_MAX_FONT_BYTES as MAX_FONT_UPLOAD_BYTES } from './lib/fonts/index.js';
import { MAX_FILE_BYTES } from './domain/versions/files/file-input.js';
import { createGraphQLServer } from './http/yoga.js';
import { createRestHandler } from './rest/router.js';
import { routes } from './rest/routes/index.js';
import { createRequestContexts } from './http/request-context.js';
import { createMailer } from './domain/people/mail/index.js';
import { sendJson } from './http/error-reply.js';
import { createHealth } from './http/health.js';
import { listenFailure } from './http/listen.js';
import { poolOf } from './db/client.js';
import { silentLogger, type Logger } from './observability/logger.js';
import { createMetrics } from './observability/metrics.js';
import { createRateLimiter } from './http/rate-limit.js';
import { GRAPHIQL_ASSET_PATH, serveGraphiQLAsset } from './http/graphiql-assets.js';
import { addressKeyOf, createRateLimitKeys } from './http/rate-limit-key.js';
import { createKeptAnswers } from './published/kept-answer.js';
import { admitWebSockets } from './http/websocket-admission.js';
import { createCors } from './http/cors.js';
import compression from 'compression';
import { requestInfo, startedInfo, startRequest, type RequestInfo } from './observability/request-info.js';
import { siteRouteTemplate } from './observability/site-route.js';
import { originOfRequest } from './http/request-origin.js';
import { auditConsumer } from './events/audit-consumer.js';
import { closePool, configurePool } from './lib/threads/pool.js';

export type App = {
  /** The request listener, for a server of the caller's own. */
  listener(req: IncomingMessage, res: ServerResponse): void;
  start(port?: number, host?: string): Promise<{ port: number; url: string }>;
  /**
   * Stops accepting connections, closes WebSockets (1001) and subscriptions, lets in-flight
   * requests finish for up to `graceMs`, then closes what remains.
   */
  stop(opts?: { graceMs?: number }): Promise<void>;
};

/** How long in-flight requests may take to finish once the server is stopping. */
export const DEFAULT_GRACE_MS = 10_000;

/** Largest request body accepted (GraphQL documents and REST bodies alike), but for the two below. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** REST content batches carry up to 20 inline (base64) files of 1 MB. */
export const MAX_CONTENT_BATCH_BYTES = 32 * 1024 * 1024;
/** GraphQL multipart uploads (files of up to MAX_FILE_BYTES). */
export const MAX_UPLOAD_BYTES = 2 * MAX_FILE_BYTES + MAX_BODY_BYTES;

class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`Request body exceeds ${limit} bytes`);
  }
}

/** No headers of the rate limit's (none set). */
const NO_HEADERS: readonly string[] = [];

const CONTENT_BATCH = /^\/v1\/spaces\/[^/]+\/change-requests\/[^/]+\/content\/?$/;

/** The largest body a request may send. */
function bodyLimit(req: IncomingMessage, pathname: string): number {
  if (req.method === 'POST' && CONTENT_BATCH.test(pathname)) return MAX_CONTENT_BATCH_BYTES;
  if (pathname === '/graphql' && /^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) return MAX_UPLOAD_BYTES;
  return MAX_BODY_BYTES;
}

/** The body of a request that has one, refused past `limit`. */
async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer | null> {
  if (req.method === 'GET' || req.method === 'HEAD') return null;
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new BodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return chunks.length ? Buffer.concat(chunks) : null;
}

/**
 * `events`: the bus subscriptions read and the outbox dispatcher publishes to; by default one of
 * this app's own (through Redis when REDIS_URL is set), closed when the app stops. The app runs
 * an outbox dispatcher (events/outbox-dispatcher.ts) from now until it stops: the writes made
 * through `db` are dispatched by it first, so this instance's subscribers hear of them even
 * without Redis.
 */
/** `databaseFailed`: the database this process runs itself is gone for good (fails /healthz, http/health.ts). */
export function buildApp({
  db,
  config,
  events,
  logger = silentLogger(),
  databaseFailed,
}: {
  db: Db;
  config: Config;
  events?: EventBus;
  logger?: Logger;
  databaseFailed?: () => boolean;
}): App {
  const ownEvents = events ? undefined : createEventBus({ redisUrl: config.redisUrl, logger });
  configurePool({ threads: config.convertThreads, timeoutMs: config.convertTimeoutMs, memoryMb: config.convertMemoryMb });
  events ??= ownEvents!;
  const dispatcher = startOutboxDispatcher({ db, consumers: [auditConsumer(), webhookConsumer(), busConsumer(events)], logger, retentionMs: config.outboxRetentionMs, auditRetentionMs: config.auditRetentionMs });
  const publishedCache = createPublishedCache(db, { maxPageBytes: config.publishedCacheBytes, logger });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.smtpFrom, logger });
  const contexts = createRequestContexts({ db, config, events, mailer });
  const { authenticate, accessOf } = contexts;
  const shutdown = new AbortController();
  const yoga = createGraphQLServer({ config, contexts, logger, stopping: shutdown.signal, afterMutation: publishedCache.caughtUp });
  const rest = createRestHandler(routes, { yoga, contexts, logger });
  const graphqlFastPath = createGraphQLFastPath(yoga, contexts);
  const metrics = createMetrics({ db, pool: poolOf(db) });
  const health = createHealth({ db, events, databaseFailed });
  const cors = createCors(config.corsOrigins);
  // gzip or brotli for answers over 1 KiB that the client accepts compressed (GraphiQL's assets are
  // compressed once, by graphiql-assets.ts); never for event streams, whose events must leave as they happen.
  const compress = compression({ filter: (req, res) => !String(res.getHeader('content-type') ?? '').startsWith('text/event-stream') && compression.filter(req, res) }) as unknown as (
    req: IncomingMessage,
    res: ServerResponse,
    next: () => void,
  ) => void;
  /** Compresses the answer about to be written, when the client accepts it (only those pay for the wrapper). */
  const compressible = (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers['accept-encoding']) compress(req, res, () => {});
  };
  const limiter = createRateLimiter({ points: config.rateLimit, windowSeconds: config.rateLimitWindowSeconds, syncMs: config.rateLimitSyncMs, redisUrl: config.redisUrl, pool: poolOf(db) });
  const rateLimitKeyOf = createRateLimitKeys(authenticate, config.trustProxy);
  const keptAnswer = createKeptAnswers(publishedCache, config);

  /** One access-log line and one observation per request, once its answer is sent (or cut). */
  function finished(req: IncomingMessage, res: ServerResponse, info: RequestInfo): void {
    const seconds = Number(process.hrtime.bigint() - info.started) / 1e9;
    const route = info.route ?? 'unmatched';
    const method = req.method ?? 'GET';
    metrics.observeRequest(method, route, res.statusCode, info.operation, seconds);
    // The line's object is made only when it is written.
    if (!logger.isLevelEnabled('info')) return;
    const line: Record<string, unknown> = { reqId: info.id, method, route, status: res.statusCode, durationMs: Math.round(seconds * 1e4) / 10, userId: info.userId, operation: info.operation };
    if (!res.writableFinished) line.aborted = true;
    logger.info(line, 'request');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!ANSWERED_METHODS.includes(req.method ?? '')) {
      return sendJson(res, 405, { error: { code: 405, message: `Method ${req.method} is not allowed` } }, { allow: ANSWERED_METHODS.join(', ') });
    }
    if (req.headers.host !== undefined && !isWellFormedHost(req.headers.host)) {
      return sendJson(res, 400, { error: { code: 400, message: 'Malformed Host header' } }, { connection: 'close' });
    }
    if (cors.handle(req, res)) return; // a preflight, answered
    const pathname = (req.url ?? '/').split('?', 1)[0];
    const info = requestInfo(req);
    if (pathname === '/healthz' || pathname === '/readyz' || pathname === '/metrics' || pathname === '/graphql') info.route = `${req.method} ${pathname}`;
    if (pathname === '/healthz') return health.liveness(res);
    if (pathname === '/readyz') return health.readiness(res);
    if (pathname === '/metrics') {
      compressible(req, res);
      res.writeHead(200, { 'content-type': metrics.registry.contentType });
      return void res.end(await metrics.registry.metrics());
    }
    // GraphiQL's assets: static, cacheable, no work for quire; not counted against the rate limit.
    if (pathname.startsWith(GRAPHIQL_ASSET_PATH)) {
      info.route = `${req.method} ${GRAPHIQL_ASSET_PATH}*`;
      return serveGraphiQLAsset(req, res);
    }
    if (limiter) {
      const verdict = await limiter.check(await rateLimitKeyOf(req));
      for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
      if (!verdict.allowed) return sendJson(res, 429, { error: { code: 429, message: verdict.refusal } });
    }
    // Published sites: labelled by the kind of answer, before it is sent when the path says so.
    if (pathname.startsWith(`${PUBLISHED_PREFIX}/`)) info.route = siteRouteTemplate(req.method ?? 'GET', pathname, 'prefix');
    // A published page kept compressed is sent as it is: the site compresses its other answers.
    if (await servePublished(req, res, { db, config, logger, accessOf, cache: publishedCache, compress: compressible })) return void (info.route ??= siteRouteTemplate(req.method ?? 'GET', pathname, 'hostname'));
    compressible(req, res);
    const prefixed = OWN_HANDLER_ROUTES.find(([prefix]) => pathname.startsWith(prefix));
    if (prefixed) info.route = `${req.method} ${prefixed.join('')}`;
    if (pathname.startsWith(PDF_DOWNLOAD_PATH)) return serveExport(req, res, { db, config, accessOf, logger });
    if (pathname.startsWith(FONT_PATH)) return serveFont(req, res, { db, config });
    if (pathname.startsWith(OPENAPI_PATH)) return servePublicSpec(req, res, { db });
    if (pathname.startsWith(SSO_PATH)) return serveSso(req, res, { db, config, logger, from: originOfRequest(req, config.trustProxy) }, await readBody(req));
    if (pathname.startsWith(INVITE_PATH)) return serveInvitation(req, res, { db, authenticate, from: originOfRequest(req, config.trustProxy) }, await readBody(req, 64 * 1024));
    if (pathname.startsWith(UPLOAD_PATH)) return receiveUploadRequest(req, res, { db, config }, await readBody(req, MAX_FONT_UPLOAD_BYTES));
    if (pathname.startsWith(FILE_DOWNLOAD_PATH)) return serveFile(req, res, { db, config, accessOf, logger });
    const limit = bodyLimit(req, pathname);
    if (pathname === '/v1' || pathname.startsWith('/v1/')) return rest(req, res, await readBody(req, limit));
    // A GraphQL upload (multipart) is read to disk as it arrives, its files handed to yoga on disk
    // (http/multipart-spool.ts). Other bodies are read here, bounded, and refused unless UTF-8
    // (decoded leniently, broken bytes would be stored as U+FFFD). A plain JSON query is answered
    // by the fast path when it can.
    const fast = pathname === '/graphql' && mayTakeFastPath(req);
    const text = !/^multipart\//i.test(req.headers['content-type'] ?? '');
    if (pathname === '/graphql' && req.method === 'POST' && /^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
      const spooled = await spoolMultipart(req, { dir: spoolDirectory(config.dataDir), limit });
      res.once('close', () => void spooled.dispose().catch((error: Error) => logger.warn({ err: { message: error.message } }, 'could not delete an upload\'s temporary files')));
      attachSpooled(req, spooled.form);
    } else if (fast || text || req.headers['content-length'] === undefined || Number(req.headers['content-length']) > limit) {
      const body = await readBody(req, limit);
      if (body && text && !isUtf8(body)) return sendJson(res, 400, { errors: [{ message: UTF8_MESSAGE, extensions: { code: 'BAD_REQUEST' } }] });
      if (body && fast && (await graphqlFastPath(req, res, body))) return;
      if (body) (req as IncomingMessage & { body?: Buffer }).body = body;
    }
    await yoga.requestListener(req, res);
  }

  /** Answers not yet sent: once the server is stopping, each one closes its connection. */
  const unanswered = new Set<ServerResponse>();
  let stopping = false;

  function listener(req: IncomingMessage, res: ServerResponse): void {
    const info = startRequest(req);
    if (stopping) res.shouldKeepAlive = false;
    unanswered.add(res);
    res.on('close', closed);
    if (answerKept(req, res, info)) return;
    res.setHeader('x-request-id', info.id);
    // No answer of quire's (JSON, errors, files, pages) is to be read by a browser as another type than it says.
    res.setHeader('x-content-type-options', 'nosniff');
    respond(req, res, info);
  }

  /** One listener for every answer (no closure per request): `this` is the answer. */
  function closed(this: ServerResponse): void {
    unanswered.delete(this);
    const info = startedInfo(this.req);
    if (info) finished(this.req, this, info);
  }

  // The last Host found well formed: clients send one again and again, it is not checked again.
  let wellFormedHost: string | undefined;

  /**
   * A kept published page (published/kept-answer.ts), answered at once with the headers every
   * answer has (request ID, rate limit): no CORS to add (no Origin), no token to authenticate (no
   * Authorization), a well-formed Host. The rate limit decides without waiting, or the full path
   * answers (and counts) the request.
   */
  function answerKept(req: IncomingMessage, res: ServerResponse, info: RequestInfo): boolean {
    const { headers } = req;
    if (headers.origin !== undefined || headers.authorization !== undefined) return false;
    if (headers.host !== undefined && headers.host !== wellFormedHost) {
      if (!isWellFormedHost(headers.host)) return false;
      wellFormedHost = headers.host;
    }
    const kept = keptAnswer(req);
    if (!kept) return false;
    const limited = limiter ? limiter.admitNow(addressKeyOf(req, config.trustProxy)) : NO_HEADERS;
    if (!limited) return false;
    info.route = kept.route;
    res.writeHead(kept.status, [...kept.headers, 'x-request-id', info.id, ...limited]);
    res.end(kept.body);
    return true;
  }

  function respond(req: IncomingMessage, res: ServerResponse, info: RequestInfo): void {
    handle(req, res).catch((error) => {
      if (error instanceof BodyTooLarge || error instanceof MultipartTooLarge) {
        return sendJson(res, 413, { error: { code: 413, message: error.message } }, { connection: 'close' });
      }
      if (error instanceof MultipartInvalid) {
        return sendJson(res, 400, { errors: [{ message: error.message, extensions: { code: 'BAD_REQUEST' } }] }, { connection: 'close' });
      }
      if (isDatabaseUnavailable(error)) {
        return sendJson(res, 503, { error: { code: 503, message: UNAVAILABLE_MESSAGE } }, { 'retry-after': '5' });
      }
      logger.error({ err: error, reqId: info.id }, 'request failed');
      sendJson(res, 500, { error: { code: 500, message: 'Internal server error' } }, { connection: 'close' });
    });
  }

  let server: Server | undefined;
  let sockets: { dispose(): Promise<void> | void } | undefined;

  return {
    listener,
    async start(port = config.port, host = config.host) {
      // Uploads' temporary files an earlier process left when it stopped mid-request (none is an hour long).
      void sweepSpool(spoolDirectory(config.dataDir), 3600_000).then(
        (swept) => swept && logger.info({ swept }, 'deleted temporary upload files left by an earlier process'),
        (error: Error) => logger.warn({ err: { message: error.message } }, 'could not delete old temporary upload files'),
      );
      server = createServer(listener);
      // CONNECT (a proxy tunnel) is not for this server: answered, not left hanging.
      server.on('connect', (_req, socket) => socket.end('HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'));
      // A message over wsMaxMessageBytes closes its connection (1009) as soon as its frame header announces it, unread.
      const wss = new WebSocketServer({ noServer: true, maxPayload: config.wsMaxMessageBytes });
      admitWebSockets(server, wss, { path: '/graphql', maxPerAddress: config.wsMaxConnectionsPerAddress, trustProxy: config.trustProxy, limiter, keyOf: rateLimitKeyOf });
      sockets = serveGraphQLOverWebSocket(wss, yoga, authenticate, { maxOperations: config.wsMaxSubscriptions, limiter, keyOf: rateLimitKeyOf });
      await new Promise<void>((resolve, reject) => {
        const refuse = (error: NodeJS.ErrnoException) => reject(new Error(listenFailure(error, port, host)));
        server!.once('error', refuse);
        server!.listen(port, host, () => {
          server!.off('error', refuse);
          resolve();
        });
      });
      const actual = (server.address() as AddressInfo).port;
      return { port: actual, url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${actual}` };
    },
    async stop({ graceMs = DEFAULT_GRACE_MS } = {}) {
      shutdown.abort(); // SSE subscriptions end now (WebSocket ones as their sockets close)
      health.stopping();
      health.close();
      if (!server) {
        await dispatcher?.stop();
        await publishedCache.close();
        await limiter?.close();
        await mailer.close();
        await closePool();
        return void (await ownEvents?.close());
      }
      const http = server;
      server = undefined;
      stopping = true;
      for (const res of unanswered) if (!res.headersSent) res.shouldKeepAlive = false;
      // No new connections; idle keep-alive ones close now, busy ones once their answer is sent.
      const drained = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
      // WebSocket clients are told the server is going away (1001), and subscriptions end, which
      // ends their SSE streams too.
      await sockets?.dispose();
      await dispatcher?.stop();
      await publishedCache.close();
      await ownEvents?.close();
      await limiter?.close();
      // In-flight requests finish, within the grace period; what is still open then is cut.
      const timer = setTimeout(() => http.closeAllConnections(), graceMs);
      await drained;
      clearTimeout(timer);
      await mailer.close();
      await closePool();
    },
  };
}
