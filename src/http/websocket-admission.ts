/**
 * Who may open a WebSocket, decided on the upgrade request before any frame is read: upgrades to
 * `path` only, at most `maxPerAddress` connections open at once from one client address
 * (client-address.ts), and each upgrade counted as a request in the rate limit (keyed as HTTP
 * requests are; a connection's token usually comes later, in its connection parameters, so an
 * upgrade usually spends its address's budget). A refusal is an HTTP answer instead of the
 * handshake — 429 (or 404 off the path) with a JSON error naming the limit — so a refused client
 * never holds a socket. What a connection may then send is bounded by the WebSocketServer's
 * `maxPayload` and graphql-ws.ts.
 */
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { clientOf } from './client-address.js';
import type { RateLimiter } from './rate-limit.js';
import type { RateLimitKeyOf } from './rate-limit-key.js';

export type WebSocketAdmission = { path: string; maxPerAddress: number; trustProxy: string; limiter?: RateLimiter; keyOf: RateLimitKeyOf };

function refuse(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error: { code: status, message } });
  const lines = Object.entries({ 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), 'x-content-type-options': 'nosniff', connection: 'close', ...headers });
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n${body}`);
}

/**
 * ws reports a client's protocol faults (an oversized message, a malformed frame: errors coded
 * WS_ERR_*) as 'error' events after closing the connection with the right code (1009, 1002…);
 * graphql-ws would log each as a fault of the server's. They are the client's, and answered.
 */
function passOverClientFaults(ws: WebSocket): void {
  const emit = ws.emit.bind(ws);
  ws.emit = (event: string | symbol, ...args: unknown[]) => (event === 'error' && String((args[0] as { code?: string })?.code).startsWith('WS_ERR_') ? false : emit(event, ...args));
}

/** Handles `server`'s upgrades, handing the admitted ones to `wss` (made with `noServer`). */
export function admitWebSockets(server: Server, wss: WebSocketServer, o: WebSocketAdmission): void {
  const open = new Map<string, number>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy()); // a client gone mid-handshake is no fault of ours
    if ((req.url ?? '/').split('?', 1)[0] !== o.path) return refuse(socket, 404, `WebSocket connections are served at ${o.path} only`);
    const { network } = clientOf(req, o.trustProxy);
    const count = open.get(network) ?? 0;
    if (count >= o.maxPerAddress) return refuse(socket, 429, `Limit of ${o.maxPerAddress} WebSocket connections per client address reached; close one first`);
    // The place is taken at once (the rate limit below may wait), and given back when the socket closes, however it closes.
    open.set(network, count + 1);
    socket.once('close', () => {
      const left = (open.get(network) ?? 1) - 1;
      if (left > 0) open.set(network, left);
      else open.delete(network);
    });
    void (async () => {
      if (o.limiter) {
        const verdict = await o.limiter.check(await o.keyOf(req));
        if (!verdict.allowed) return refuse(socket, 429, verdict.refusal, verdict.headers);
      }
      if (!socket.destroyed) wss.handleUpgrade(req, socket, head, (ws) => (passOverClientFaults(ws), wss.emit('connection', ws, req)));
    })().catch(() => refuse(socket, 503, 'Service unavailable; retry shortly', { 'retry-after': '5' }));
  });
}
