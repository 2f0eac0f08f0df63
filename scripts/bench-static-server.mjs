/**
 * Child process of bench-published.ts: the in-memory BASELINE, a bare `node:http` server answering
 * every request with the same bytes and headers (those quire answered for the warm page, sent
 * once over IPC), so that quire's cached page can be compared with serving bytes from memory
 * and nothing else. Spawned as `node scripts/bench-static-server.mjs` with an IPC channel:
 * receives {type: 'page', body (base64), headers}; sends {type: 'ready', port}; answers 'stats'
 * with {type: 'stats', cpuMicros, statements: 0, rss, peakRss, heapUsed, external}; exits when the
 * parent disconnects.
 */
// @ts-check
import { createServer } from 'node:http';

if (!process.send) throw new Error('usage: node scripts/bench-static-server.mjs (with an IPC channel)');
const send = (/** @type {object} */ message) => process.send?.(message);

/** @type {{ body: Buffer, headers: Record<string, string> }} */
const page = await new Promise((resolve) =>
  process.once('message', (/** @type {any} */ message) => resolve({ body: Buffer.from(message.body, 'base64'), headers: message.headers })),
);
const server = createServer((req, res) => {
  if (page.headers.etag && req.headers['if-none-match'] === page.headers.etag) return void res.writeHead(304, page.headers).end();
  res.writeHead(200, page.headers).end(page.body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
process.on('message', (message) => {
  if (message !== 'stats') return;
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  send({ type: 'stats', cpuMicros: cpu.user + cpu.system, statements: 0, rss: memory.rss, peakRss: memory.rss, heapUsed: memory.heapUsed, external: memory.external });
});
process.on('disconnect', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
const address = server.address();
send({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
