/**
 * Revision benchmark: what a revision costs as a space grows. For spaces of 100, 1,000 and 10,000
 * pages (each page a document of a few paragraphs), measures the real write path — a change
 * request that edits one page, then its merge — and prints, per step, the rows it inserted and
 * updated, the bytes of the rows it inserted (pg_column_size of each new row: entries and
 * documents) and its time (median of a few runs). Also a space duplicate: rows and time (its
 * content is shared: no document is copied). Figures, no thresholds. Usage:
 *   DATABASE_URL=postgresql://… npx tsx scripts/bench-revisions.ts [--sizes 100,1000,10000] [--runs 5]
 * Without DATABASE_URL it uses the embedded PostgreSQL under ./.quire/bench.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { Access } from '../src/domain/access/access.js';
import { createChangeRequest } from '../src/domain/versions/change-requests/create.js';
import { mergeChangeRequest } from '../src/domain/versions/change-requests/merge.js';
import { writeContent } from '../src/domain/versions/change-requests/write-content.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { createLoaders } from '../src/domain/loaders/index.js';
import { createSpace } from '../src/domain/content/spaces/create.js';
import { duplicateSpace } from '../src/domain/content/spaces/duplicate.js';
import { blobStore } from '../src/domain/versions/files/blob-store.js';

/** The benchmark's changes carry no files by URL. */
const noFetch = () => Promise.reject(new Error('no fetching in this benchmark'));

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '100,1000,10000' }, runs: { type: 'string', default: '5' } } });
const sizes = values.sizes!.split(',').map(Number);
const runs = Number(values.runs);

const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const paragraph = (key: string, t: string) => ({ object: 'block', type: 'paragraph', key, data: {}, nodes: [text(t)] });
const body = (i: number, version = 0) => ({
  document: { object: 'document', data: {}, nodes: Array.from({ length: 5 }, (_, k) => paragraph(`p${k}`, `Page ${i}, paragraph ${k}, version ${version}. `.repeat(8))) },
});

type Counts = { entries: number; closed: number; documents: number; bytes: number };

/** Content rows as they stand: the newest entry ID, closed entries, documents, and the time. */
async function snapshot(db: Db) {
  const [row] = await db.$queryRawUnsafe<{ id: bigint; closed: bigint; documents: bigint; now: Date }[]>(
    `SELECT coalesce(max("id"), 0)::bigint AS id, count(*) FILTER (WHERE "toSeq" IS NOT NULL)::bigint AS closed,
       (SELECT count(*) FROM "Document")::bigint AS documents, now() AS now FROM "ContentEntry"`,
  );
  return row;
}

/** What `work` wrote: entries inserted and closed, documents inserted, and the bytes of the new rows. */
async function measure(db: Db, work: () => Promise<unknown>): Promise<Counts & { ms: number }> {
  const before = await snapshot(db);
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  const after = await snapshot(db);
  const [size] = await db.$queryRawUnsafe<{ bytes: bigint }[]>(
    `SELECT (SELECT coalesce(sum(pg_column_size(e.*)), 0) FROM "ContentEntry" e WHERE e."id" > $1)
          + (SELECT coalesce(sum(pg_column_size(d.*)), 0) FROM "Document" d WHERE d."createdAt" >= $2) AS bytes`,
    before.id,
    before.now,
  );
  return {
    entries: Number(after.id - before.id),
    closed: Number(after.closed - before.closed),
    documents: Number(after.documents - before.documents),
    bytes: Number(size.bytes),
    ms,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  let url = process.env.DATABASE_URL;
  let stop = async () => {};
  if (!url) {
    const embedded = await startEmbeddedPostgres({ dataDir: path.resolve('.quire/bench') });
    url = embedded.url;
    stop = embedded.stop;
  }
  await applyMigrations(url);
  const db = createPrismaClient(url, { poolMax: 4 });
  const { organization, user } = await createOrganizationWithOwner(db, { title: 'Bench revisions', ownerEmail: `bench-rev-${Date.now()}@example.test` });
  const access = () => new Access(createLoaders(db, user.id), user.id);
  const store = blobStore({ dataDir: path.resolve('.quire/bench') }, db);
  console.log(`quire revision benchmark: ${runs} runs per size, medians; entries = content rows added, closed = rows whose range was ended, bytes = size of the new rows`);
  console.log(' pages  step                          entries  closed  documents  new bytes       ms');
  for (const size of sizes) {
    const spaceId = await createSpace(db, access(), { organizationId: organization.id, title: `Space of ${size}` });
    // Seed: one change request writing every page, in batches of 50 (the API's batch size), merged once.
    const seed = await createChangeRequest(db, access(), spaceId, { subject: 'Seed' });
    const pageIds: string[] = [];
    for (let i = 0; i < size; i += 50) {
      const changes = Array.from({ length: Math.min(50, size - i) }, (_, k) => ({ operation: 'insert_page' as const, title: `Page ${i + k}`, document: body(i + k) }));
      const { outcomes } = await writeContent(db, access(), spaceId, seed, { changes }, store, noFetch);
      pageIds.push(...outcomes.flatMap((o) => (o.object === 'created_page' ? [o.page] : [])));
    }
    await mergeChangeRequest(db, access(), spaceId, seed);
    const edit: (Counts & { ms: number })[] = [];
    const merge: (Counts & { ms: number })[] = [];
    for (let run = 0; run < runs; run++) {
      const cr = await createChangeRequest(db, access(), spaceId, { subject: `Edit ${run}` });
      const page = pageIds[Math.floor(Math.random() * pageIds.length)];
      edit.push(await measure(db, () => writeContent(db, access(), spaceId, cr, { changes: [{ operation: 'update_page', page, document: body(size, Date.now() + run) }] }, store, noFetch)));
      merge.push(await measure(db, () => mergeChangeRequest(db, access(), spaceId, cr)));
    }
    const duplicate = await measure(db, () => duplicateSpace(db, access(), spaceId));
    const row = (step: string, m: (Counts & { ms: number })[]) =>
      console.log(
        `${String(size).padStart(6)}  ${step.padEnd(28)}  ${String(median(m.map((x) => x.entries))).padStart(7)}  ${String(median(m.map((x) => x.closed))).padStart(6)}  ${String(median(m.map((x) => x.documents))).padStart(9)}  ${String(median(m.map((x) => x.bytes))).padStart(9)}  ${median(m.map((x) => x.ms)).toFixed(1).padStart(7)}`,
      );
    row('edit one page in a request', edit);
    row('merge it into the space', merge);
    row('duplicate the space', [duplicate]);
  }
  await db.$disconnect();
  await stop();
}

await main();
