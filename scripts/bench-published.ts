/**
 * Published-site benchmark: requests per second of a page of a published site
 * (`GET /sites/{siteId}/{path}`, server-rendered HTML), from quire's published cache, rendered,
 * and as served from memory by a bare `node:http` server. Seeds an organization with a space of
 * 200 pages three levels deep (8 sections × 4 topics × 5 pages, every page a markdown body with
 * headings, lists, code, a table and a quote), written through a change request and merged (the
 * domain functions, as scripts/bench-revisions.ts does), and a public site of that space,
 * published. quire runs in its own child process (scripts/bench-server.mjs, as
 * scripts/bench-throughput.ts starts it), so its CPU, SQL statement count and RSS are its own;
 * autocannon runs here. Scenarios, one server at a time:
 *   warm cached   the same third-level page again and again: quire's published cache answers
 *                 (src/published/cache/), no SQL; without Accept-Encoding (identity), then with
 *                 `gzip, br` as browsers send it (the brotli form the cache keeps);
 *   warm 304      the same page with `If-None-Match` of its ETag (a CDN's or a browser's
 *                 revalidation): 304, no body;
 *   full render   the same page, quire started with QUIRE_PUBLISHED_CACHE_MB=0 (no page kept):
 *                 the page read and rendered each time (the site's state still remembered);
 *   304 not kept  the same page revalidated (`If-None-Match`), with no page kept: answered from the
 *                 ETag alone (src/published/page-reply.ts), before the page's frame is built;
 *   cold 200      a different page each request, all 200 in turn (one counter shared by every
 *                 connection), with no page kept either: what a page costs the first time;
 *   baseline      a bare node:http server answering the warm page's bytes and headers from memory
 *                 (scripts/bench-static-server.mjs), each form quire sent (identity, then brotli
 *                 asked with `gzip, br`): the limit of the cached answer.
 * Every page is fetched once first (200, its title in the HTML, an ETag; and 304 on
 * revalidation), then the cold rotation runs for 2 s unmeasured, to warm each server up, and each
 * scenario for 1 s unmeasured before it is measured (the same for the baseline). Exits
 * non-zero when a check or a request fails (an answer other than 2xx/3xx, or one other than the
 * scenario's status, or a connection error). Figures, no thresholds. Usage:
 *   DATABASE_URL=postgresql://… npx tsx scripts/bench-published.ts [--seconds 8] [--connections 20]
 * DATABASE_URL's database is created when missing; without DATABASE_URL it uses the embedded
 * PostgreSQL under ./.quire/bench.
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createPrismaClient } from '../src/db/client.js';
import { ensureDatabase, startEmbeddedPostgres } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { Access } from '../src/domain/access/access.js';
import { createChangeRequest } from '../src/domain/versions/change-requests/create.js';
import { mergeChangeRequest } from '../src/domain/versions/change-requests/merge.js';
import type { PageChange } from '../src/domain/versions/change-requests/page-input.js';
import { writeContent } from '../src/domain/versions/change-requests/write-content.js';
import { blobStore } from '../src/domain/versions/files/blob-store.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { createLoaders } from '../src/domain/loaders/index.js';
import { createSite, setPublished } from '../src/domain/publishing/sites/sites.js';
import { createSpace } from '../src/domain/content/spaces/create.js';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startBenchServer, type Stats, type Target } from './bench-target.js';
import { stopChild } from './bench-support/stop-child.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, connections: { type: 'string', default: '20' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const SECTIONS = 8;
const TOPICS = 4;
const PAGES = 5;
const BATCH = 50; // the API's batch size
const WARMUP_SECONDS = 2;
const SCENARIO_WARMUP_SECONDS = 1;

/** The benchmark's changes carry no files by URL. */
const noFetch = () => Promise.reject(new Error('no fetching in this benchmark'));

type Page = { path: string; title: string };
type Seed = { siteId: string; pages: Page[] };

/** A page body of a few kilobytes: headings, inline marks, lists, code, a table, a quote. */
function markdown(title: string, n: number): string {
  const rows = Array.from({ length: 6 }, (_, r) => `| \`option${r}\` | ${['string', 'number', 'boolean'][r % 3]} | ${r % 2 ? 'no' : 'yes'} | Sets how ${title} handles case ${r + n}. |`);
  return [
    `# ${title}`,
    '',
    `This page describes **${title}**: what it is for, how to set it up and the options it takes. It is part of the *benchmark* documentation (page ${n}); see [the project site](https://example.com/docs/${n}) for more.`,
    '',
    '## Overview',
    '',
    `${title} reads its configuration when the service starts, then watches for changes. Each change is validated before it is applied, and an invalid one is reported with the line it came from. `.repeat(3),
    '',
    '- Works with every supported runtime',
    '- Needs no extra service',
    '  - configuration is a single file',
    '  - secrets come from the environment',
    `- Scales to ${n * 10} requests per second on one core`,
    '',
    '## Getting started',
    '',
    '1. Install the package.',
    '2. Create the configuration file next to your application.',
    '3. Start the service and open the dashboard.',
    '',
    '```ts',
    `import { connect } from 'example-client';`,
    '',
    `const client = await connect({ url: process.env.EXAMPLE_URL, retries: ${n % 5} });`,
    `for (const item of await client.list({ limit: 100 })) {`,
    `  console.log(item.id, item.title);`,
    '}',
    'await client.close();',
    '```',
    '',
    '### Options',
    '',
    '| Option | Type | Required | Description |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    `> Changing an option takes effect on the next request; nothing needs to be restarted.`,
    '',
    '## Troubleshooting',
    '',
    `If ${title} does not start, check the log for the first error: it names the option at fault. A timeout usually means the service cannot reach its database; the \`--verbose\` flag prints every attempt.`,
    '',
  ].join('\n');
}

async function seed(url: string): Promise<Seed> {
  const db = createPrismaClient(url, { poolMax: 4 });
  const { organization, user } = await createOrganizationWithOwner(db, { title: 'Bench published', ownerEmail: `bench-pub-${Date.now()}@example.test` });
  const access = () => new Access(createLoaders(db, user.id), user.id);
  const store = blobStore({ dataDir: path.resolve('.quire/bench') }, db);
  const spaceId = await createSpace(db, access(), { organizationId: organization.id, title: 'Handbook' });
  const cr = await createChangeRequest(db, access(), spaceId, { subject: 'Seed' });
  const pages: Page[] = [];
  let n = 0;
  const pathOf = (x: { parent: { path: string }; slug: string }) => (x.parent.path ? `${x.parent.path}/${x.slug}` : x.slug);
  /** Writes one level: each of `parents` (null: the top) gets `count` pages; returns the new pages' IDs and paths. */
  const level = async (parents: { id: string | null; path: string; title: string }[], count: number, name: string) => {
    const wanted = parents.flatMap((parent) =>
      Array.from({ length: count }, (_, i) => {
        const title = `${parent.title ? `${parent.title} › ` : ''}${name} ${i + 1}`;
        return { parent, slug: `${name.toLowerCase()}-${i + 1}`, title, body: markdown(title, ++n) };
      }),
    );
    const created: { id: string | null; path: string; title: string }[] = [];
    for (let i = 0; i < wanted.length; i += BATCH) {
      const batch = wanted.slice(i, i + BATCH);
      const changes: PageChange[] = batch.map((p) => ({ operation: 'insert_page', ...(p.parent.id ? { into: p.parent.id } : {}), slug: p.slug, document: { markdown: p.body } }));
      const { outcomes } = await writeContent(db, access(), spaceId, cr, { changes }, store, noFetch);
      outcomes.forEach((o, k) => {
        if (o.object !== 'created_page') throw new Error(`seed: unexpected outcome ${o.object}`);
        const page = { id: o.page, path: pathOf(batch[k]), title: batch[k].title };
        created.push(page);
        pages.push({ path: page.path, title: page.title });
      });
    }
    return created;
  };
  const sections = await level([{ id: null, path: '', title: '' }], SECTIONS, 'Section');
  const topics = await level(sections, TOPICS, 'Topic');
  await level(topics, PAGES, 'Page');
  await mergeChangeRequest(db, access(), spaceId, cr);
  const site = await createSite(db, access(), organization.id, { title: 'Handbook', visibility: 'public', spaces: [spaceId] });
  await setPublished(db, access(), site.id, true);
  await db.$disconnect();
  return { siteId: site.id, pages };
}

const pageUrl = (siteId: string, page: Page) => `/sites/${encodeURIComponent(siteId)}/${page.path}`;

/** Fetches every page once (200, its title, an ETag) and revalidates `warm` (304); returns warm's ETag, or what is wrong. */
async function verify(base: string, { siteId, pages }: Seed, warm: Page): Promise<{ etag: string } | { failure: string }> {
  let etag: string | undefined;
  for (const page of pages) {
    const response = await fetch(base + pageUrl(siteId, page));
    const html = await response.text();
    if (response.status !== 200) return { failure: `${page.path}: status ${response.status}: ${html.slice(0, 200)}` };
    const title = page.title.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    if (!html.includes(title) || !html.includes('<table')) return { failure: `${page.path}: the HTML lacks the page's title or its table` };
    const tag = response.headers.get('etag');
    if (!tag) return { failure: `${page.path}: no ETag` };
    if (page === warm) etag = tag;
  }
  const again = await fetch(base + pageUrl(siteId, warm), { headers: { 'if-none-match': etag! } });
  if (again.status !== 304) return { failure: `revalidating ${warm.path} with its ETag: status ${again.status}, expected 304` };
  return { etag: etag! };
}

/** `id`: the scenario's name in the ratios printed at the end. */
type Scenario = { id: string; name: string; status: 200 | 304; requests: autocannon.Request[] };

/** Each scenario's requests per second and server CPU ms per request, for the ratios. */
const figures = new Map<string, { rps: number; cpu: number }>();

const COLUMNS = ['req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'SQL/req', 'RSS MiB', 'failed'];
const NAME_WIDTH = 70;
const row = (name: string, cells: (string | number)[]) => name.padEnd(NAME_WIDTH) + cells.map((c) => String(c).padStart(11)).join('');

async function measure(target: Target, scenario: Scenario): Promise<{ line: string; failed: number }> {
  // A second of the scenario itself first, unmeasured: its own code path optimized, the garbage of what ran before collected.
  await autocannon({ url: target.base, connections, duration: SCENARIO_WARMUP_SECONDS, requests: scenario.requests });
  const before = await target.stats();
  const result = await autocannon({ url: target.base, connections, duration: seconds, requests: scenario.requests });
  const after = await target.stats();
  const sent = result.requests.sent;
  const byStatus = Object.entries(result.statusCodeStats ?? {}).map(([status, { count = 0 }]) => [Number(status), count] as const);
  // Failed: no answer, an error status, or an answer other than the scenario's (a 200 where a 304 was expected).
  const cpu = (after.cpuMicros - before.cpuMicros) / 1000 / sent;
  figures.set(scenario.id, { rps: result.requests.average, cpu });
  const failed = result.errors + byStatus.reduce((sum, [status, count]) => sum + (status === scenario.status ? 0 : count), 0);
  const other = byStatus.filter(([status]) => status !== scenario.status).map(([status, count]) => `${count}×${status}`);
  const line = row(scenario.name, [
    Math.round(result.requests.average),
    result.latency.p50,
    result.latency.p99,
    cpu.toFixed(2),
    ((after.statements - before.statements) / sent).toFixed(1),
    Math.round(after.rss / 1024 / 1024),
    failed + (other.length || result.errors ? ` (${[...other, ...(result.errors ? [`${result.errors} errors`] : [])].join(', ')})` : ''),
  ]);
  return { line, failed };
}

/** The bare node:http server answering `page` from memory (bench-static-server.mjs). */
async function startBaseline(page: { body: Buffer; headers: Record<string, string> }): Promise<Target> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./bench-static-server.mjs', import.meta.url))], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>() => new Promise<T>((resolve, reject) => (child.once('message', resolve as never), child.once('exit', (code) => reject(new Error(`bench-static-server exited with code ${code}`)))));
  const ready = next<{ port: number }>();
  child.send({ type: 'page', body: page.body.toString('base64'), headers: page.headers });
  const { port } = await ready;
  return {
    base: `http://127.0.0.1:${port}`,
    stats: () => {
      const reply = next<Stats>();
      child.send('stats');
      return reply;
    },
    stop: () => stopChild(child),
  };
}

/** A quire server; `cacheMb` its QUIRE_PUBLISHED_CACHE_MB (the child reads its settings from this process's environment, copied at spawn). */
async function startQuire(url: string, cacheMb?: string): Promise<Target> {
  const before = process.env.QUIRE_PUBLISHED_CACHE_MB;
  if (cacheMb === undefined) delete process.env.QUIRE_PUBLISHED_CACHE_MB;
  else process.env.QUIRE_PUBLISHED_CACHE_MB = cacheMb;
  try {
    return await startBenchServer('quire', url);
  } finally {
    if (before === undefined) delete process.env.QUIRE_PUBLISHED_CACHE_MB;
    else process.env.QUIRE_PUBLISHED_CACHE_MB = before;
  }
}

/** What browsers send: quire answers its brotli form, kept with the page (src/published/cache/). */
const BROWSER_ENCODINGS = { 'accept-encoding': 'gzip, br' };

/**
 * The warm page's bytes as sent (not decoded: `headers` may ask for a compressed form) and the
 * headers quire sends with them (those a static server would send too).
 */
function pageAsSent(base: string, path: string, headers: Record<string, string> = {}): Promise<{ body: Buffer; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    request(base + path, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const sent: Record<string, string> = {};
        for (const name of ['content-type', 'content-encoding', 'vary', 'cache-control', 'etag', 'content-security-policy', 'x-content-type-options']) {
          const value = response.headers[name];
          if (typeof value === 'string') sent[name] = value;
        }
        resolve({ body: Buffer.concat(chunks), headers: sent });
      });
    })
      .on('error', reject)
      .end();
  });
}

const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir: path.resolve('.quire/bench') });
const url = process.env.DATABASE_URL ?? embedded!.url;
try {
  if (!embedded) {
    // As scripts/bench-search.ts: the database DATABASE_URL names is created when missing.
    const admin = new URL(url);
    const name = decodeURIComponent(admin.pathname.slice(1));
    admin.pathname = '/postgres';
    if (name) await ensureDatabase(admin.toString(), name);
  }
  await applyMigrations(url);
  const seeding = performance.now();
  const data = await seed(url);
  const seeded = ((performance.now() - seeding) / 1000).toFixed(1);
  console.log(
    `quire published pages: site of ${data.pages.length} pages (seeded in ${seeded}s), ${seconds}s per scenario, ${connections} connections, ` +
      `${os.availableParallelism()} CPUs shared by PostgreSQL, quire and the load generator, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  );
  // The warm page: one of the 160 at the third level (as deep as most of the cold rotation's).
  const warm = data.pages.find((p) => p.path === `section-${SECTIONS / 2}/topic-${TOPICS / 2}/page-${Math.ceil(PAGES / 2)}`)!;
  const one = pageUrl(data.siteId, warm);
  let next = 0;
  const rotation: autocannon.Request[] = [{ method: 'GET', setupRequest: (request) => ({ ...request, path: pageUrl(data.siteId, data.pages[next++ % data.pages.length]) }) }];
  /** Runs `scenarios` against `target` (checked and warmed up first); false when one failed. */
  const run = async (target: Target, scenarios: (etag: string) => Scenario[]): Promise<boolean> => {
    const checked = await verify(target.base, data, warm);
    if ('failure' in checked) return (console.log(`FAIL ${checked.failure}`), false);
    // Warm-up (not measured): the cold rotation, which runs every page's code path.
    await autocannon({ url: target.base, connections, duration: WARMUP_SECONDS, requests: rotation });
    let ok = true;
    for (const scenario of scenarios(checked.etag)) {
      const { line, failed } = await measure(target, scenario);
      if (failed) ok = false;
      console.log(line);
    }
    return ok;
  };
  console.log(row('scenario (CPU, SQL and RSS: server process)', COLUMNS));
  const results: boolean[] = [];
  const cached = await startQuire(url);
  const sent: { body: Buffer; headers: Record<string, string> }[] = [];
  try {
    results.push(
      await run(cached, (etag) => [
        { id: 'cached', name: `warm cached  ${warm.path}`, status: 200, requests: [{ method: 'GET', path: one }] },
        { id: 'cached br', name: `warm cached  the same, accept-encoding: gzip, br`, status: 200, requests: [{ method: 'GET', path: one, headers: BROWSER_ENCODINGS }] },
        { id: '304', name: `warm 304     ${warm.path}, If-None-Match`, status: 304, requests: [{ method: 'GET', path: one, headers: { 'if-none-match': etag } }] },
      ]),
    );
    sent.push(await pageAsSent(cached.base, one), await pageAsSent(cached.base, one, BROWSER_ENCODINGS));
  } finally {
    await cached.stop();
  }
  // The baseline answers each form quire sent, the same bytes and headers, from memory.
  for (const [n, page] of sent.entries()) {
    const headers = n ? BROWSER_ENCODINGS : {};
    const baseline = await startBaseline(page);
    try {
      const checked = await pageAsSent(baseline.base, one, headers);
      if (!checked.body.equals(page.body)) throw new Error('the baseline does not answer the same bytes');
      const form = page.headers['content-encoding'] ? `${page.headers['content-encoding']}, ${page.body.length} B` : `identity, ${page.body.length} B`;
      const { line, failed } = await measure(baseline, { id: n ? 'baseline br' : 'baseline', name: `baseline     the same bytes (${form}), bare node:http`, status: 200, requests: [{ method: 'GET', path: one, headers }] });
      results.push(!failed);
      console.log(line);
    } finally {
      await baseline.stop();
    }
  }
  const uncached = await startQuire(url, '0');
  try {
    results.push(
      await run(uncached, (etag) => [
        { id: 'render', name: `full render  ${warm.path} (QUIRE_PUBLISHED_CACHE_MB=0)`, status: 200, requests: [{ method: 'GET', path: one }] },
        { id: '304 not kept', name: `304 not kept the same, If-None-Match (QUIRE_PUBLISHED_CACHE_MB=0)`, status: 304, requests: [{ method: 'GET', path: one, headers: { 'if-none-match': etag } }] },
        { id: 'cold', name: `cold 200     ${data.pages.length} pages in turn (no page kept)`, status: 200, requests: rotation },
      ]),
    );
  } finally {
    await uncached.stop();
  }
  // Issue 29's target 4, from this run: the kept page ≥ 5× the full render, and ≥ 0.5× the baseline (within 2×).
  const ratio = (a: string, b: string, of: 'rps' | 'cpu') => (figures.has(a) && figures.has(b) ? `${(figures.get(a)![of] / figures.get(b)![of]).toFixed(2)}×` : 'n/a');
  console.log(
    `Ratios of this run: kept page ÷ full render ${ratio('cached', 'render', 'rps')} (identity), ${ratio('cached br', 'render', 'rps')} (brotli); ` +
      `kept page ÷ baseline, req/s ${ratio('cached', 'baseline', 'rps')} (identity), ${ratio('cached br', 'baseline br', 'rps')} (brotli); ` +
      `CPU per request ${ratio('cached', 'baseline', 'cpu')} (identity), ${ratio('cached br', 'baseline br', 'cpu')} (brotli).`,
  );
  if (results.includes(false)) process.exitCode = 1;
  console.log(`Note: figures vary with machine load (${os.availableParallelism()} cores here, shared with other work); compare runs made back to back. Load average now ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}.`);
} finally {
  await embedded?.stop();
}
