/**
 * Event-loop block of storing a large page through the real content batch (`POST …/content`):
 * for documents of about 1, 5 and 7.5 MB as JSON (the limit is 8 MiB), sent as markdown (converted in the conversion
 * pool) and as a JSON document, prints the longest time the server's event loop was blocked
 * (a 5 ms timer's worst lateness) while the request ran, and the request's time; then the same
 * for reading the page's document back (`GET …/content/page/{id}?format=document`). The server runs
 * in this process, so the client's work counts too: request bodies are prepared before timing.
 * Figures, no thresholds (security issue 21: `/healthz` must answer within 200 ms). Usage:
 *   DATABASE_URL=postgresql://… npx tsx scripts/bench-document-store.ts [--sizes 1,5,7.5] [--runs 3]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPrismaClient } from '../src/db/client.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { createLogger } from '../src/observability/logger.js';
import { closePool } from '../src/lib/threads/pool.js';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1,5,7.5' }, runs: { type: 'string', default: '3' } } });
const sizes = values.sizes!.split(',').map(Number);
const runs = Number(values.runs);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL');

/** A converted paragraph `Paragraph N xxxxxxxxxx` is about 184 bytes of document JSON. */
const markdownOf = (mb: number) => Array.from({ length: Math.round((mb * 1e6) / 184) }, (_, i) => `Paragraph ${i} xxxxxxxxxx`).join('\n\n');
const documentOf = (mb: number) => ({
  object: 'document',
  data: {},
  nodes: Array.from({ length: Math.round((mb * 1e6) / 184) }, (_, i) => ({
    object: 'block',
    type: 'paragraph',
    key: `k${i}`,
    isVoid: false,
    data: {},
    nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: `Paragraph ${i} xxxxxxxxxx`, marks: [] }] }],
  })),
});

/** Runs `work`, answering its result, its time and the event loop's worst lateness, in ms. */
async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; block: number }> {
  let worst = 0;
  let due = performance.now() + 5;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - due);
    due = now + 5;
  }, 5);
  const started = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - started, block: worst };
  } finally {
    clearInterval(timer);
  }
}

await applyMigrations(url);
const db = createPrismaClient(url, { poolMax: 5 });
const config = { ...loadConfig({ PORT: '0', HOST: '127.0.0.1', QUIRE_RATE_LIMIT: '0' }), databaseUrl: url };
const app = buildApp({ db, config, logger: createLogger({ level: 'silent' }) });
const { port } = await app.start(0, '127.0.0.1');
const base = `http://127.0.0.1:${port}/v1`;
const { organization, token } = await createOrganizationWithOwner(db, { title: 'Bench documents', ownerEmail: `bench-doc-${Date.now()}@example.test` });
const call = async (method: string, path: string, body?: string) => {
  const response = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
};
const space = await call('POST', `/orgs/${organization.id}/spaces`, JSON.stringify({ title: 'Bench' }));
const cr = await call('POST', `/spaces/${space.id}/change-requests`, JSON.stringify({ subject: 'Bench' }));
const content = `/spaces/${space.id}/change-requests/${cr.id}/content`;
// Warm up: threads started, statements prepared.
await call('POST', content, JSON.stringify({ changes: [{ operation: 'insert_page', title: 'Warm', document: { markdown: 'warm' } }] }));

console.log('kind       size   body MB   request ms   worst block ms (per run)   read back: ms, block ms');
for (const mb of sizes) {
  for (const [kind, page] of [
    ['markdown', { markdown: markdownOf(mb) }],
    ['json', { document: documentOf(mb) }],
  ] as const) {
    const results = [];
    let size = 0;
    for (let run = 0; run < runs; run++) {
      const body = JSON.stringify({ changes: [{ operation: 'insert_page', title: `${kind} ${mb} ${run}`, document: page }] });
      size = body.length;
      results.push(await timed(() => call('POST', `${content}?compat=false`, body)));
    }
    const pageId = results[0].result.changes[0].page.id;
    const read = await timed(() => call('GET', `${content}/page/${pageId}?format=document`));
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(
      `${kind.padEnd(10)} ${String(mb).padStart(3)} MB ${(size / 1e6).toFixed(1).padStart(8)} ${median(results.map((r) => r.ms)).toFixed(0).padStart(12)}   ${results.map((r) => r.block.toFixed(0)).join(', ').padEnd(24)}${read.ms.toFixed(0).padStart(6)}, ${read.block.toFixed(0)}`,
    );
  }
}
await app.stop();
await closePool();
await db.$disconnect();
