/**
 * Search benchmark: the latency of organization search over an index of 100,000 sections, while
 * another organization holds as many (`--orgs 2` by default: the search reads only its own). Seeds
 * each organization directly in SQL (spaces through the domain, then documents and page entries in
 * bulk: 100 spaces × 200 pages × 5 sections by default, pages nested ten under one), indexes every
 * space with the real indexer (`reindexSpace`), then times the domain search function
 * (`searchOrganization`, first page of 20 spaces) for a handful of queries, for a member (sees
 * every space) and for a guest (grants on 10 spaces), and prints p50 / p95 per query with what it
 * matched. Text is drawn from a 5,000-word vocabulary with Zipf frequencies, so the most common
 * word is in nearly every section; a rare word and a two-word phrase are planted. Figures, no
 * assertions; the load average is printed before and after measuring. Usage:
 *   DATABASE_URL=postgresql://… npx tsx scripts/bench-search.ts [--orgs 2] [--spaces 100] [--pages 200] [--runs 40] [--limit 20] [--explain words]
 * Without DATABASE_URL it uses the embedded PostgreSQL under ./.quire/bench-search. Each run seeds
 * fresh organizations and measures the first (earlier runs' data stays: use a scratch database).
 * `--explain "words"` then prints EXPLAIN (ANALYZE, BUFFERS) of the member's search for those words
 * (the statement as the search sends it), to see where its time goes.
 */
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { generateNKeysBetween } from 'fractional-indexing';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { ensureDatabase, startEmbeddedPostgres } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { Access } from '../src/domain/access/access.js';
import type { BlockNode, JSONDocument } from '../src/lib/documents/types.js';
import { createOrganizationWithOwner, createUser } from '../src/domain/people/identity/bootstrap.js';
import { newId } from '../src/domain/kernel/ids.js';
import { createLoaders } from '../src/domain/loaders/index.js';
import { putDocuments } from '../src/domain/versions/revisions/documents.js';
import { revisionScope } from '../src/domain/versions/revisions/load.js';
import { reindexSpace } from '../src/domain/versions/search/index-pages.js';
import { searchOrganization, searchStatement } from '../src/domain/versions/search/query.js';
import { createSpace } from '../src/domain/content/spaces/create.js';
import type { Reader } from '../src/domain/content/spaces/rows.js';

const { values } = parseArgs({
  options: {
    orgs: { type: 'string', default: '2' },
    spaces: { type: 'string', default: '100' },
    pages: { type: 'string', default: '200' },
    runs: { type: 'string', default: '40' },
    limit: { type: 'string', default: '20' },
    explain: { type: 'string' },
  },
});
const ORGS = Number(values.orgs);
const SPACES = Number(values.spaces);
const PAGES = Number(values.pages);
const RUNS = Number(values.runs);
const LIMIT = Number(values.limit);
const HEADINGS_PER_PAGE = 4; // + the text before the first heading: 5 sections a page
const WORDS_PER_SECTION = 60;
const GUEST_SPACES = 10;
/** At most this long measuring one query for one reader (fewer runs when it runs out). */
const BUDGET_MS = 20_000;

// ─── text ─────────────────────────────────────────────────────────────────────────────────

/** A small deterministic PRNG (mulberry32): the same corpus on every run. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(42);
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 'de', 'ga', 'vo', 'ze', 'bu', 'hi', 'fa', 'qu'];
const vocabulary: string[] = [];
for (const seen = new Set<string>(); vocabulary.length < 5000; ) {
  const word = Array.from({ length: 2 + Math.floor(random() * 3) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
  if (!seen.has(word)) vocabulary.push(word), seen.add(word);
}
// Zipf (s = 1): the word of rank r has weight 1 / (r + 1).
const cumulative: number[] = [];
vocabulary.reduce((sum, _w, r) => (cumulative.push(sum + 1 / (r + 1)), sum + 1 / (r + 1)), 0);
const total = cumulative[cumulative.length - 1];
function word(): string {
  const x = random() * total;
  let lo = 0;
  for (let hi = cumulative.length - 1; lo < hi; ) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo];
}
const words = (n: number) => Array.from({ length: n }, word).join(' ');

const RARE = 'xylographer'; // planted in 20 sections
const PHRASE = ['amber', 'falcon']; // the phrase in 1% of sections, each word alone in 1% more
const COMMON = vocabulary[0]; // in nearly every section
const MEDIUM = vocabulary[150]; // in a few percent of sections
const SECOND = vocabulary[1];

const text = (t: string) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: t, marks: [] }] });
const block = (type: string, t: string): BlockNode => ({ object: 'block', type, data: {}, nodes: [text(t)] });

function sectionText(sectionNo: number, rareAt: Set<number>): string {
  const parts = [words(WORDS_PER_SECTION)];
  const roll = random();
  if (roll < 0.01) parts.push(PHRASE.join(' '));
  else if (roll < 0.015) parts.push(PHRASE[0]);
  else if (roll < 0.02) parts.push(PHRASE[1]);
  if (rareAt.has(sectionNo)) parts.push(RARE);
  return parts.join(' ');
}

function pageDocument(firstSection: number, rareAt: Set<number>): JSONDocument {
  const nodes: BlockNode[] = [block('paragraph', sectionText(firstSection, rareAt))];
  for (let h = 1; h <= HEADINGS_PER_PAGE; h++) nodes.push(block('heading-1', words(3)), block('paragraph', sectionText(firstSection + h, rareAt)));
  return { object: 'document', data: {}, nodes };
}

// ─── seeding ──────────────────────────────────────────────────────────────────────────────

async function seed(db: Db) {
  const stamp = Date.now();
  const { organization, user } = await createOrganizationWithOwner(db, { title: 'Bench search', ownerEmail: `bench-search-${stamp}@example.test` });
  const guest = await createUser(db, { email: `bench-search-guest-${stamp}@example.test`, org: organization.id, role: 'guest' });
  const access = new Access(createLoaders(db, user.id), user.id);
  const sectionsTotal = SPACES * PAGES * (HEADINGS_PER_PAGE + 1);
  const rareAt = new Set(Array.from({ length: 20 }, () => Math.floor(random() * sectionsTotal)));
  const spaceIds: string[] = [];
  let started = performance.now();
  for (let s = 0; s < SPACES; s++) spaceIds.push(await createSpace(db, access, { organizationId: organization.id, title: `Space ${s} ${words(2)}` }));
  const positions = generateNKeysBetween(null, null, PAGES);
  for (const [s, spaceId] of spaceIds.entries()) {
    const documents = Array.from({ length: PAGES }, (_, p) => pageDocument((s * PAGES + p) * (HEADINGS_PER_PAGE + 1), rareAt));
    await db.$transaction(async (tx) => {
      const documentIds = await putDocuments(tx, documents);
      const pageIds = documents.map(() => newId('RevisionPage'));
      // Ten pages to a parent: page 0 holds 1..9, page 10 holds 11..19, ...
      const parents = pageIds.map((_id, p) => (p % 10 === 0 ? null : pageIds[p - (p % 10)]));
      await tx.$executeRaw(Prisma.sql`INSERT INTO "ContentEntry" ("spaceId", "lineId", "fromSeq", "kind", "entityId", "parentId", "position", "type", "title", "slug", "documentId", "data", "createdAt")
        SELECT ${spaceId}, ${spaceId}, 1, 'page', e."id", e."parentId", e."position", 'document', e."title", e."slug", e."documentId", '{}'::jsonb, now()
        FROM unnest(${pageIds}::text[], ${parents}::text[], ${pageIds.map((_id, p) => positions[p])}::text[], ${pageIds.map((_id, p) => `Page ${p} ${words(2)}`)}::text[],
          ${pageIds.map((_id, p) => `page-${p}`)}::text[], ${documentIds}::text[]) AS e("id", "parentId", "position", "title", "slug", "documentId")`);
    });
  }
  const seeded = performance.now() - started;
  started = performance.now();
  for (const spaceId of spaceIds) {
    const space = await db.space.findUniqueOrThrow({ where: { id: spaceId } });
    await db.$transaction(async (tx) => reindexSpace(tx, spaceId, await revisionScope(tx, space.revisionId)), { timeout: 120_000 });
  }
  const indexed = performance.now() - started;
  await db.contentPermission.createMany({
    data: spaceIds.slice(0, GUEST_SPACES).map((spaceId) => ({ id: newId('ContentPermission'), organizationId: organization.id, spaceId, userId: guest.user.id, role: 'read' as const })),
  });
  // What autovacuum does soon after such a load: statistics for the planner, and the GIN index's
  // pending list (fresh entries every search scans linearly) merged into the index.
  for (const table of ['SearchSection', 'Space', 'ContentEntry', 'ContentPermission', 'Member']) await db.$executeRawUnsafe(`VACUUM ANALYZE "${table}"`);
  const [{ sections, bytes }] = await db.$queryRaw<{ sections: number; bytes: string }[]>(Prisma.sql`
    SELECT count(*)::int AS "sections", pg_size_pretty(sum(pg_column_size(ss.*))) AS "bytes"
    FROM "SearchSection" ss WHERE ss."spaceId" = ANY(${spaceIds}::text[])`);
  return { organizationId: organization.id, ownerId: user.id, guestId: guest.user.id, spaceIds, sections, bytes, seeded, indexed };
}

// ─── measuring ────────────────────────────────────────────────────────────────────────────

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

async function main() {
  let url = process.env.DATABASE_URL;
  let stop = async () => {};
  if (url) {
    const admin = new URL(url);
    const name = admin.pathname.slice(1);
    admin.pathname = '/postgres';
    if (name) await ensureDatabase(admin.toString(), name);
  } else {
    const embedded = await startEmbeddedPostgres({ dataDir: path.resolve('.quire/bench-search') });
    url = embedded.url;
    stop = embedded.stop;
  }
  await applyMigrations(url);
  const db = createPrismaClient(url, { poolMax: 4 });
  const org = await seed(db);
  // The other organizations, as large: their postings share the table and its indexes.
  const others = [];
  for (let o = 1; o < ORGS; o++) others.push(await seed(db));
  const otherSpaces = new Set(others.flatMap((o) => o.spaceIds));
  console.log(
    `quire search benchmark: ${ORGS} organizations of ${SPACES} spaces × ${PAGES} pages × ${HEADINGS_PER_PAGE + 1} sections = ${org.sections} sections each (${org.bytes} in the table for the first); ` +
      `seeded the first in ${(org.seeded / 1000).toFixed(1)} s, indexed (reindexSpace) in ${(org.indexed / 1000).toFixed(1)} s (${Math.round(org.sections / (org.indexed / 1000))} sections/s)`,
  );
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} CPUs`);
  console.log(`first page of ${LIMIT} spaces, ${RUNS} runs (fewer past ${BUDGET_MS / 1000} s) after 3 warm-up runs; the guest has grants on ${GUEST_SPACES} spaces`);
  const queries: [string, string][] = [
    ['rare term', RARE],
    ['medium term', MEDIUM],
    ['common term', COMMON],
    ['two common terms', `${COMMON} ${SECOND}`],
    ['two-word phrase', `"${PHRASE.join(' ')}"`],
    ['no hit', 'qqqzzzx'],
  ];
  const readers: [string, Reader][] = [
    ['member', { userId: org.ownerId, guest: false }],
    ['guest', { userId: org.guestId, guest: true }],
  ];
  console.log('reader  query               text                      matching sections  spaces  runs  p50 ms  p95 ms');
  for (const [who, reader] of readers) {
    for (const [label, query] of queries) {
      const [{ matching }] = await db.$queryRaw<{ matching: number }[]>(Prisma.sql`
        SELECT count(*)::int AS "matching" FROM "SearchSection" ss
        WHERE ss."tsv" @@ websearch_to_tsquery('simple', ${query}) AND ss."spaceId" = ANY(${reader.guest ? org.spaceIds.slice(0, GUEST_SPACES) : org.spaceIds}::text[])`);
      let spaces = 0;
      const times: number[] = [];
      const budget = performance.now() + BUDGET_MS;
      for (let run = -3; run < RUNS && performance.now() < budget; run++) {
        const start = performance.now();
        const page = await searchOrganization(db, reader, org.organizationId, query, { first: LIMIT });
        if (run >= 0) times.push(performance.now() - start);
        spaces = page.totalCount;
        if (page.rows.some((s) => otherSpaces.has(s.id))) throw new Error('another organization\'s space in the answer');
      }
      console.log(
        `${who.padEnd(6)}  ${label.padEnd(18)}  ${query.slice(0, 24).padEnd(24)}  ${String(matching).padStart(17)}  ${String(spaces).padStart(6)}  ${String(times.length).padStart(4)}  ${percentile(times, 50).toFixed(1).padStart(6)}  ${percentile(times, 95).toFixed(1).padStart(6)}`,
      );
    }
  }
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} after measuring`);
  if (values.explain) {
    const { statement } = searchStatement(readers[0][1], org.organizationId, values.explain, { first: LIMIT });
    const plan = await db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, ...statement.values);
    console.log(`\nmember, ${JSON.stringify(values.explain)}:\n${plan.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
  await db.$disconnect();
  await stop();
}

await main();
