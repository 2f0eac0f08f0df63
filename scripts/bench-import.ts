/**
 * Bulk import benchmark (issue 29 §5): what importing a zip of N markdown pages costs. Builds an
 * archive without SUMMARY.md — the pages in nested folders (chapter and topic folders with README
 * pages, bench-support/docs-content.ts), relative links between pages, M PNG images under
 * `images/` linked from pages — serves it from a node:http server on 127.0.0.1, and imports it
 * into a change request through the API (GraphQL `importContent`, source `zip`, as the REST
 * `…/content/import` runs it), then waits for the job. Per size it prints the wall time (request
 * → job finished), the peak RSS of the server process (application and job runner in one child
 * process, garbage collected before: VmHWM, reset before each import) and its RSS before, the
 * SQL statements of the job (the runner's own Prisma client, as bench-git-sync.ts counts them),
 * the rows written (ContentEntry, Document, DocumentLink) and the job's highest progress seen
 * before it ended. Figures, no assertions. Usage:
 *   npx tsx scripts/bench-import.ts [--pages 1000,10000] [--images 100] [--cpu-prof DIR]
 * (`--cpu-prof DIR`: the server process writes a V8 CPU profile into DIR when it stops;
 * `--heap-snapshot DIR`: a heap snapshot of it into DIR once every body is stored, as the tree is written.)
 * Several sizes run one after the other in one run, each in a server process of its own started
 * for it (the same rest), so their rows compare. The database is `quire_bench_import` (or QUIRE_BENCH_DB),
 * dropped and made again.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import yazl from 'yazl';
import { createPrismaClient } from '../src/db/client.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { api, currentRss, freshDatabase, peakRss, resetPeakRss, startServer, type Server } from './bench-support/server-process.js';
import { buildRepository } from './bench-support/docs-content.js';

const BENCH_DB = process.env.QUIRE_BENCH_DB ?? 'quire_bench_import';

async function zipOf(files: Map<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of files) zip.addBuffer(bytes, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Serves the archives (path → bytes) on 127.0.0.1. */
async function serveArchives(archives: Map<string, Buffer>) {
  const server = createServer((req, res) => {
    const body = archives.get(req.url ?? '');
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) };
}

const TABLES = ['ContentEntry', 'Document', 'DocumentLink'] as const;

async function rowCounts(client: pg.Client): Promise<Record<(typeof TABLES)[number], number>> {
  const out = {} as Record<(typeof TABLES)[number], number>;
  for (const table of TABLES) out[table] = Number((await client.query(`SELECT count(*)::bigint AS n FROM "${table}"`)).rows[0].n);
  return out;
}

type Row = {
  pages: number;
  zipBytes: number;
  ms: number;
  rssBefore: number | null;
  peakRss: number | null;
  /** The main thread's largest V8 heap in use: the rest of the peak is the conversion threads and native memory. */
  heapUsedMax: number;
  statements: number;
  progressStatements: number;
  written: Record<(typeof TABLES)[number], number>;
  /** The highest `progressDone` seen while the job ran, and its total. */
  progressSeen: string;
  state: string;
};

async function measureImport(server: Server, client: pg.Client, token: string, organizationId: string, pages: number, zipUrl: string, zipBytes: number, snapshot = false): Promise<Row> {
  const space = await api(server, token, 'POST', `/orgs/${organizationId}/spaces`, { title: `Import ${pages}` });
  const cr = await api(server, token, 'POST', `/spaces/${space.id}/change-requests`, { subject: 'Import' });
  const before = await rowCounts(client);
  await server.collect();
  const rssBefore = await currentRss(server.pid);
  await resetPeakRss(server.pid);
  const stats = await server.stats();
  const start = performance.now();
  const response = await fetch(`${server.base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      query: 'mutation($space: ID!, $cr: ID!, $url: String!) { importContent(spaceId: $space, changeRequest: $cr, url: $url, source: zip) { id } }',
      variables: { space: space.id, cr: cr.id, url: zipUrl },
    }),
  });
  const answer = (await response.json()) as { data?: { importContent: { id: string } }; errors?: unknown };
  if (!answer.data) throw new Error(`importContent: ${JSON.stringify(answer.errors)}`);
  const jobId = answer.data.importContent.id;
  let job: { state: string; progressDone: number; progressTotal: number | null; message: string; error: unknown };
  let progress = { done: 0, total: 0 as number | null };
  for (;;) {
    [job] = (await client.query(`SELECT "state", "progressDone", "progressTotal", "message", "errorCode" AS "error" FROM "Job" WHERE "id" = $1`, [jobId])).rows;
    if (!['queued', 'running'].includes(job!.state)) break;
    if (job!.message === 'Writing the pages' && job!.progressDone >= progress.done) progress = { done: job!.progressDone, total: job!.progressTotal };
    // The bodies stored (groups have none: the count stops just short of the total): what the import
    // holds at the end of its write phase (taking the snapshot pauses the import).
    if (snapshot && progress.total && progress.done >= progress.total * 0.99) snapshot = !process.kill(server.pid, 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 50));
  }
  const ms = performance.now() - start;
  const peak = await peakRss(server.pid);
  const after = await server.stats();
  const rows = await rowCounts(client);
  const written = Object.fromEntries(TABLES.map((t) => [t, rows[t] - before[t]])) as Row['written'];
  const count = (s: typeof stats, kind: string) => s.sqlByKind[kind]?.count ?? 0;
  return {
    pages,
    zipBytes,
    ms,
    rssBefore,
    peakRss: peak,
    heapUsedMax: after.heapUsedMax,
    statements: after.jobStatements - stats.jobStatements,
    progressStatements: count(after, 'UPDATE Job') - count(stats, 'UPDATE Job'),
    written,
    progressSeen: `${progress.done}/${progress.total ?? '?'}`,
    state: job!.state + (job!.error ? `: ${JSON.stringify(job!.error)}` : ''),
  };
}

const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${Math.round(bytes / 1024 / 1024)} MB`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pages: { type: 'string', default: '1000,10000' }, images: { type: 'string', default: '100' }, 'cpu-prof': { type: 'string' }, 'heap-snapshot': { type: 'string' } } });
  const sizes = values.pages.split(',').map(Number);
  const images = Number(values.images);
  if (sizes.some((n) => !Number.isInteger(n) || n < 2)) throw new Error(`--pages: integers ≥ 2, comma-separated (got ${values.pages})`);
  if (!Number.isInteger(images) || images < 0) throw new Error(`--images must be an integer ≥ 0 (got ${values.images})`);

  const databaseUrl = await freshDatabase(BENCH_DB);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-import-'));
  const archives = new Map<string, Buffer>();
  for (const pages of sizes) archives.set(`/docs-${pages}.zip`, await zipOf(buildRepository(pages, images, 'folders').files));
  const site = await serveArchives(archives);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const rows: Row[] = [];
  try {
    for (const pages of sizes) {
      // A server process of its own per size: each starts from the same rest.
      const server = await startServer(databaseUrl, dataDir, values['cpu-prof'], values['heap-snapshot']);
      try {
        const setupDb = createPrismaClient(databaseUrl, { poolMax: 1 });
        const { organization, token } = await createOrganizationWithOwner(setupDb, { title: 'Bench import', ownerEmail: `owner-${pages}@bench-import.test`, ownerName: 'Docs Owner' });
        await setupDb.$disconnect();
        console.log(`server process ${server.pid} (application and job runner, TypeScript sources through tsx): RSS ${mb(await currentRss(server.pid))} at rest; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
        const bytes = archives.get(`/docs-${pages}.zip`)!;
        const row = await measureImport(server, client, token, organization.id, pages, `${site.url}/docs-${pages}.zip`, bytes.length, values['heap-snapshot'] !== undefined);
        rows.push(row);
        console.log(`${pages} pages (+${images} images, zip ${mb(row.zipBytes)}): ${row.state}, wall ${seconds(row.ms)}, peak RSS ${mb(row.peakRss)} (before ${mb(row.rssBefore)}; main thread's heap in use at most ${mb(row.heapUsedMax)}), ${row.statements} SQL statements (${row.progressStatements} of them progress and heartbeat), written ${JSON.stringify(row.written)}, progress seen while writing ${row.progressSeen}`);
      } finally {
        await server.stop();
      }
    }
  } finally {
    await client.end();
    await site.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log(`\nload after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  console.log('| Pages (+ images) | Wall time | Peak RSS (at rest before) | RSS above rest | Main thread heap (max used) | SQL statements (job) | Statements per page | ContentEntry / Document / DocumentLink written | Result |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of rows) {
    const above = r.peakRss !== null && r.rssBefore !== null ? mb(r.peakRss - r.rssBefore) : 'n/a';
    const w = r.written;
    console.log(
      `| ${r.pages.toLocaleString('en')} (+${images}) | ${seconds(r.ms)} | ${mb(r.peakRss)} (${mb(r.rssBefore)}) | ${above} | ${mb(r.heapUsedMax)} | ${r.statements.toLocaleString('en')} | ${(r.statements / r.pages).toFixed(2)} | ${w.ContentEntry.toLocaleString('en')} / ${w.Document.toLocaleString('en')} / ${w.DocumentLink.toLocaleString('en')} | ${r.state} |`,
    );
  }
}

await main();
process.exit(0);
