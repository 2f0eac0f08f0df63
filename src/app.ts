/**
 * The HTTP application: GraphQL (and GraphiQL) at /graphql, graphql-ws on the same path,
 * REST at /v1, liveness at /healthz and readiness at /readyz.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import { isMigrated } from './db/database.js';
import { contextFor, createGraphQLServer } from './http/yoga.js';
import { createRestHandler } from './rest/router.js';
import { routes } from './rest/routes/index.js';
import { schema } from './schema/index.js';

export type App = {
  fetch(request: Request): Promise<Response>;
  start(port?: number, host?: string): Promise<{ port: number; url: string }>;
  stop(): Promise<void>;
};

/** Largest request body accepted (GraphQL documents and REST bodies alike). */
export const MAX_BODY_BYTES = 1024 * 1024;

class BodyTooLarge extends Error {}

async function toRequest(req: IncomingMessage): Promise<Request> {
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  const chunks: Buffer[] = [];
  let size = 0;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
      chunks.push(chunk as Buffer);
    }
  }
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  return new Request(url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, key) => res.setHeader(key, value));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export function buildApp({ db, config, log = console.error }: { db: Db; config: Config; log?: (...args: unknown[]) => void }): App {
  const yoga = createGraphQLServer(db, config, log);
  const rest = createRestHandler(routes, yoga, log);

  async function fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/healthz') return Response.json({ status: 'ok' });
    if (pathname === '/readyz') {
      const ready = await isMigrated(db).catch(() => false);
      return Response.json({ status: ready ? 'ready' : 'unavailable' }, { status: ready ? 200 : 503 });
    }
    if (pathname === '/v1' || pathname.startsWith('/v1/')) return rest(request);
    return yoga.fetch(request);
  }

  let server: Server | undefined;
  let wss: WebSocketServer | undefined;

  return {
    fetch,
    async start(port = config.port, host = config.host) {
      server = createServer((req, res) => {
        toRequest(req)
          .then(fetch)
          .then((response) => send(res, response))
          .catch((error) => {
            const tooLarge = error instanceof BodyTooLarge;
            if (!tooLarge) log('[quire] request failed:', error);
            const status = tooLarge ? 413 : 500;
            const message = tooLarge ? `Request body exceeds ${MAX_BODY_BYTES} bytes` : 'Internal server error';
            if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
            res.end(JSON.stringify({ error: { code: status, message } }));
          });
      });
      wss = new WebSocketServer({ server, path: '/graphql' });
      useServer(
        {
          schema,
          context: (ctx) => {
            const params = ctx.connectionParams ?? {};
            const auth = (params.authorization ?? params.Authorization ?? ctx.extra.request.headers.authorization) as string | undefined;
            return contextFor(db, config, auth);
          },
        },
        wss,
      );
      await new Promise<void>((resolve) => server!.listen(port, host, resolve));
      const actual = (server.address() as AddressInfo).port;
      return { port: actual, url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${actual}` };
    },
    async stop() {
      await new Promise<void>((resolve) => (wss ? wss.close(() => resolve()) : resolve()));
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server?.closeAllConnections();
    },
  };
}
