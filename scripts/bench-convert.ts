/**
 * Markdown conversion micro-benchmark: what one conversion thread spends per page of the git sync
 * benchmark (bench-git-sync.ts), run in this thread without a pool. Each page goes through the
 * pool's `markdownStored` task (tasks.ts) with its relative links resolved as git sync resolves
 * them (to page, file and anchor references), once without and once with its previous body (a
 * re-import). Prints ms per page per round; `--digest` prints two SHA-256 of every answer, to
 * compare the output of two builds: `seeded`, block keys drawn from a seeded generator instead of
 * randomBytes (equal while a build draws the same random bytes in the same order), and
 * `keys renamed`, each block key renamed by its first appearance and each ID checked against its
 * JSON (equal whatever random bytes the keys were made of).
 * `--first-only`: no re-conversion. `--pool`: first conversions only, through the conversion pool
 * (two threads, four conversions under way, as git sync converts): wall time and the process's CPU
 * time (every thread's) per page. `--corpus dir`: the markdown files under `dir` too (e.g. node_modules: thousands of READMEs).
 *   npx tsx scripts/bench-convert.ts [--pages 2000] [--rounds 3] [--digest] [--first-only | --pool] [--corpus dir] [--profile dir]
 */
import crypto from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { buildRepository, prng } from './bench-support/docs-content.js';

const { values } = parseArgs({
  options: { pages: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '3' }, digest: { type: 'boolean', default: false }, corpus: { type: 'string' }, profile: { type: 'string' }, 'first-only': { type: 'boolean', default: false }, pool: { type: 'boolean', default: false } },
});

if (values.digest) {
  // Block keys (documents/keys.ts) from a seeded generator: two builds give the same keys when they draw as many.
  const rng = prng(7);
  crypto.randomBytes = ((size: number) => Buffer.from(Array.from({ length: size }, () => rng.int(256)))) as typeof crypto.randomBytes;
  syncBuiltinESMExports();
}
const { markdownStored } = await import('../src/lib/threads/tasks.js');
const { linkCandidates } = await import('../src/domain/git-sync/link-candidates.js');
const { folderOf, joinRelative } = await import('../src/lib/markdown/layout.js');
type ContentRef = import('../src/lib/markdown/index.js').ContentRef;

type Page = { path: string; markdown: string; links: Record<string, ContentRef> };

function benchPages(count: number): Page[] {
  const repo = buildRepository(count, 200);
  const ids = new Map([...repo.files.keys()].map((file, i) => [file, `id${i}`]));
  return repo.pages.map((page) => {
    const markdown = repo.files.get(page.path)!.toString('utf8');
    const links: Record<string, ContentRef> = {};
    for (const url of linkCandidates(markdown)) {
      const [file = '', anchor] = url.split('#');
      const target = joinRelative(folderOf(page.path), file);
      const id = target === undefined ? undefined : ids.get(target);
      if (!id) continue;
      links[url] = target!.endsWith('.png') ? { kind: 'file', file: id } : anchor ? { kind: 'anchor', page: id, anchor } : { kind: 'page', page: id };
    }
    return { path: page.path, markdown, links };
  });
}

function corpusPages(dir: string): Page[] {
  const out: Page[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(full);
      else if (stat?.isFile() && /\.md$/i.test(name) && stat.size < 200_000) out.push({ path: full, markdown: readFileSync(full, 'utf8'), links: {} });
    }
  };
  walk(dir);
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

const pages = [...benchPages(Number(values.pages)), ...(values.corpus ? corpusPages(values.corpus) : [])];
const digest = crypto.createHash('sha256');
const renamedDigest = crypto.createHash('sha256');

type Outcome = ReturnType<typeof markdownStored>;
/** An answer with its block keys renamed `k0`, `k1`… in order of appearance, and its ID replaced by whether it is its JSON's hash. */
function keysRenamed(outcome: Outcome, names: Map<string, string>): string {
  if (!outcome.ok) return JSON.stringify(outcome);
  const { stored, ...page } = outcome.page;
  const hashed = `doc_${crypto.createHash('sha256').update(stored.json).digest('base64url')}` === stored.id;
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([field, v]) => {
        if (field !== 'key' || typeof v !== 'string') return [field, rename(v)];
        if (!names.has(v)) names.set(v, `k${names.size}`);
        return [field, names.get(v)];
      }),
    );
  };
  return JSON.stringify({ ...page, stored: { ...stored, id: hashed, json: rename(JSON.parse(stored.json)) } });
}
const session = values.profile ? new Session() : undefined;

/** The pages through the pool, four at a time (threads/windowed.ts, as git sync and zip imports). */
async function poolRound(round: number): Promise<void> {
  const { convertMarkdownStored } = await import('../src/lib/markdown/convert.js');
  const { convertInWindow } = await import('../src/lib/threads/windowed.js');
  const cpu = process.cpuUsage();
  const start = performance.now();
  await convertInWindow(pages, { window: 4, group: 200 }, (page) => convertMarkdownStored(page.markdown, { links: page.links }), async () => undefined);
  const ms = performance.now() - start;
  const { user, system } = process.cpuUsage(cpu);
  console.log(`round ${round + 1}: ${pages.length} pages through the pool, ms per page: wall ${(ms / pages.length).toFixed(3)}, CPU ${((user + system) / 1000 / pages.length).toFixed(3)}`);
}

if (values.pool) {
  for (let round = 0; round < Number(values.rounds); round++) await poolRound(round);
  await (await import('../src/lib/threads/pool.js')).closePool();
  process.exit(0);
}

for (let round = 0; round < Number(values.rounds); round++) {
  if (session && round === Number(values.rounds) - 1) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  let firstMs = 0;
  let againMs = 0;
  for (const page of pages) {
    const start = performance.now();
    const first = markdownStored({ markdown: page.markdown, links: page.links });
    const middle = performance.now();
    const again = first.ok && !values['first-only'] ? markdownStored({ markdown: page.markdown, links: page.links, previousJson: first.page.stored.json }) : first;
    againMs += performance.now() - middle;
    firstMs += middle - start;
    if (values.digest && round === 0) {
      digest.update(JSON.stringify([page.path, first, again]));
      const names = new Map<string, string>();
      renamedDigest.update(`${page.path}\n${keysRenamed(first, names)}\n${keysRenamed(again, names)}\n`);
    }
  }
  const perPage = (ms: number) => (ms / pages.length).toFixed(3);
  console.log(`round ${round + 1}: ${pages.length} pages, ms per page: first conversion ${perPage(firstMs)}, again with the previous body ${perPage(againMs)}`);
}
if (session) {
  const { profile } = await session.post('Profiler.stop');
  await writeFile(path.join(values.profile!, `convert-${Date.now()}.cpuprofile`), JSON.stringify(profile));
}
if (values.digest) console.log(`digest: seeded ${digest.digest('hex')}, keys renamed ${renamedDigest.digest('hex')}`);
