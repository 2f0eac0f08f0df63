/**
 * Git sync benchmark (issue 24): what an import and an export of a large repository cost. Builds a
 * repository in the platform's layout — N markdown pages in nested folders (groups of SUMMARY.md,
 * chapter and topic folders with README pages), bodies of a few paragraphs with relative links
 * between pages, ~200 images under .gitbook/assets referenced from pages — served by git's own
 * http-backend (test/support/git-server.ts) on 127.0.0.1, and drives quire through its REST API:
 *   1. the first import into an empty space;
 *   2. one page changed upstream (one commit), imported again;
 *   3. one page edited in quire (a merged change request), exported;
 *   4. an export with nothing changed.
 * Per step it prints the wall time (request → git/info no longer `running`), the peak RSS of the
 * server process (the application and its job runner in one child process, as `quire serve` runs
 * them, garbage collected before the step: VmHWM, reset before each step), its CPU time (its
 * worker threads included), the longest the event loop was held at once, the SQL statements of
 * the job (the runner's own Prisma client, as in test/helpers/server.ts, `onQuery`; the job's
 * heartbeat is one a second, its progress one every 200 ms at most) by kind with their summed
 * duration, the rows written per table (row versions a step's transactions created: inserted or
 * updated — ContentEntry's split into new rows and rows closed), and a timeline of the job's own
 * progress messages (fetch, read the tree, convert, merge and write). Figures, no assertions; a
 * markdown table at the end. Usage:
 *   npx tsx scripts/bench-git-sync.ts [--pages 10000 | --pages 1000,10000] [--assets 200] [--profile dir] [--heap-snapshot dir] [--settle seconds]
 * The database is `quire_bench_git` (or QUIRE_BENCH_DB) on DATABASE_URL's server (default postgresql://postgres@127.0.0.1:5432),
 * dropped and created again on every run, migrated by the script. `--profile dir`: a CPU profile of
 * the server process (node --cpu-prof) written there, and its heaviest functions and modules
 * printed per step, with the longest stretch its main thread never went idle. The whole run at
 * 10,000 pages takes under 2 minutes on two cores (the first import 65–100 s, as busy as the
 * machine is); `--pages 1000` is a quick run of ~20 s.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { GitBookAPI } from '@gitbook/api';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { startGitServer, type GitServer } from '../test/support/git-server.js';
import { bareDir, branchTip, commitFiles } from '../test/support/git-repo.js';
import { gitText } from '../test/support/git-cli.js';
import { api, currentRss, freshDatabase, peakRss, resetPeakRss, startServer, type Server } from './bench-support/server-process.js';
import { buildRepository, pageMarkdown, type Repository } from './bench-support/docs-content.js';

const GIT_PASSWORD = 'bench-pass';
/** The benchmark's own database (dropped and made again), named apart when several run on one server. */
const BENCH_DB = process.env.QUIRE_BENCH_DB ?? 'quire_bench_git';

// ─── the repository ─────────────────────────────────────────────────────────────────────────

/** Writes every file as one commit on `main` with git fast-import (one process, whatever the count). */
async function commitRepository(git: GitServer, name: string, files: Map<string, Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  const data = (bytes: Buffer) => chunks.push(Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n'));
  let mark = 0;
  const marks = new Map<string, number>();
  for (const [file, bytes] of files) {
    marks.set(file, ++mark);
    chunks.push(Buffer.from(`blob\nmark :${mark}\n`));
    data(bytes);
  }
  const when = `${Math.floor(Date.now() / 1000)} +0000`;
  chunks.push(Buffer.from(`commit refs/heads/main\nauthor Docs Team <docs@example.com> ${when}\ncommitter Docs Team <docs@example.com> ${when}\n`));
  data(Buffer.from(`Docs: ${files.size} files`));
  for (const file of files.keys()) chunks.push(Buffer.from(`M 100644 :${marks.get(file)} ${file}\n`));
  chunks.push(Buffer.from('\n'));
  await gitText(bareDir(git, name), ['fast-import', '--quiet'], { input: Buffer.concat(chunks) });
  return (await branchTip(git, name, 'main'))!;
}

// ─── measuring ──────────────────────────────────────────────────────────────────────────────

const TABLES = ['ContentEntry', 'Document', 'DocumentLink', 'SearchSection', 'GitSyncBlob'] as const;
type Table = (typeof TABLES)[number];
type RowCounts = Record<Table, number>;
type Written = { rows: RowCounts; written: RowCounts; entriesInserted: number; entriesClosed: number };

/** Row counts, the newest ContentEntry ID, and a transaction ID every later row version is above. */
async function rowMark(client: pg.Client) {
  const counts = {} as RowCounts;
  for (const table of TABLES) counts[table] = Number((await client.query(`SELECT count(*)::bigint AS n FROM "${table}"`)).rows[0].n);
  const maxEntry = Number((await client.query(`SELECT coalesce(max("id"), 0)::bigint AS id FROM "ContentEntry"`)).rows[0].id);
  const xid = Number((await client.query(`SELECT (pg_current_xact_id()::text::bigint % 4294967296)::bigint AS xid`)).rows[0].xid);
  return { counts, maxEntry, xid };
}

/** Row versions created since `mark` (inserted or updated rows), per table. */
async function rowsWritten(client: pg.Client, mark: Awaited<ReturnType<typeof rowMark>>): Promise<Written> {
  const after = await rowMark(client);
  const written = {} as RowCounts;
  const since = `"xmin"::text::bigint > ${mark.xid}`;
  for (const table of TABLES) written[table] = Number((await client.query(`SELECT count(*)::bigint AS n FROM "${table}" WHERE ${since}`)).rows[0].n);
  const inserted = Number((await client.query(`SELECT count(*)::bigint AS n FROM "ContentEntry" WHERE ${since} AND "id" > $1`, [mark.maxEntry])).rows[0].n);
  return { rows: after.counts, written, entriesInserted: inserted, entriesClosed: written.ContentEntry - inserted };
}

type Phase = { message: string; ms: number; maxRss: number };

/**
 * The job's progress messages as the runner records them (every 200 ms at most), with when they
 * were first seen and the server's largest RSS while each was the latest (sampled every 25 ms).
 */
async function watchJob(client: pg.Client, spaceId: string, pid: number, snapshot: boolean) {
  const latest = `SELECT "id", "message", "progressDone", "progressTotal" FROM "Job" WHERE "spaceId" = $1 ORDER BY "createdAt" DESC LIMIT 1`;
  /** `--heap-snapshot`: one halfway through the changed files, one 10 s into the merge (the server writes them on SIGUSR2). */
  const snapshots = { reading: !snapshot, merging: !snapshot };
  const previous = (await client.query(latest, [spaceId])).rows[0]?.id ?? null;
  const phases: Phase[] = [];
  let stopped = false;
  const start = performance.now();
  const done = (async () => {
    while (!stopped) {
      const [row] = (await client.query(latest, [spaceId]).catch(() => ({ rows: [] }))).rows;
      const message = row && row.id !== previous ? `${row.message ?? 'queued'}${row.progressTotal ? ` (${row.progressTotal})` : ''}` : 'queued';
      if (phases.at(-1)?.message !== message) phases.push({ message, ms: performance.now() - start, maxRss: 0 });
      const phase = phases.at(-1)!;
      if (!snapshots.reading && row?.message === 'Reading changed files' && row.progressDone * 2 >= row.progressTotal) {
        snapshots.reading = true;
        process.kill(pid, 'SIGUSR2');
      }
      if (!snapshots.merging && row?.message === 'Merging' && performance.now() - start - phase.ms > 10_000) {
        snapshots.merging = true;
        process.kill(pid, 'SIGUSR2');
      }
      phase.maxRss = Math.max(phase.maxRss, (await currentRss(pid)) ?? 0);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return {
    async stop(totalMs: number): Promise<string> {
      stopped = true;
      await done;
      return phases.map((p, i) => `${p.message} ${(((phases[i + 1]?.ms ?? totalMs) - p.ms) / 1000).toFixed(1)} s (RSS up to ${mb(p.maxRss)})`).join(' → ');
    },
  };
}

type StepResult = {
  label: string;
  ms: number;
  peakRss: number | null;
  rssBefore: number | null;
  cpuMs: number;
  statements: number;
  sqlMs: number;
  loopDelayMaxMs: number;
  /** The main thread's largest V8 heap in use during the step (sampled every 50 ms): what of the peak RSS is its JavaScript. */
  heapUsedMax: number;
  /** The job's statements by kind during the step, the slowest first. */
  sqlKinds: [string, { count: number; ms: number }][];
  /** CLOCK_MONOTONIC, as the CPU profile's timestamps. */
  window: [bigint, bigint];
  written: Written;
  state: string;
  timeline: string;
  note: string;
};


/** One git operation through the REST API, measured from the request until git/info says it ended. */
async function measureSync(ctx: Context, label: string, direction: 'import' | 'export', body: Record<string, unknown>): Promise<StepResult> {
  const { server, client, token, spaceId } = ctx;
  const mark = await rowMark(client);
  await server.collect();
  const rssBefore = await currentRss(server.pid);
  await resetPeakRss(server.pid);
  const before = await server.stats();
  const watcher = await watchJob(client, spaceId, server.pid, ctx.snapshotDir !== undefined && label.startsWith('1.'));
  const start = performance.now();
  const startNs = process.hrtime.bigint();
  let info: { operation?: { state: string; error?: string } };
  let resets = 0;
  try {
    await api(server, token, 'POST', `/spaces/${spaceId}/git/${direction}`, body);
    for (;;) {
      // A connection the server closed meanwhile (its keep-alive timer fires late when its event loop was held) is asked again.
      info = await api(server, token, 'GET', `/spaces/${spaceId}/git/info`).catch(async (error: Error) => {
        if ((error.cause as { code?: string } | undefined)?.code !== 'ECONNRESET') throw error;
        resets++;
        return { operation: { state: 'running' } };
      });
      if (info.operation && info.operation.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (error) {
    await watcher.stop(performance.now() - start);
    throw error;
  }
  const ms = performance.now() - start;
  const window: [bigint, bigint] = [startNs, process.hrtime.bigint()];
  const peak = await peakRss(server.pid);
  const after = await server.stats();
  const timeline = await watcher.stop(ms);
  const written = await rowsWritten(client, mark);
  const state = info!.operation!.state + (info!.operation!.error ? `: ${info!.operation!.error}` : '') + (resets ? ` (${resets} polling connection${resets > 1 ? 's' : ''} reset by the server)` : '');
  return {
    label,
    ms,
    peakRss: peak,
    rssBefore,
    cpuMs: (after.cpuMicros - before.cpuMicros) / 1000,
    statements: after.jobStatements - before.jobStatements,
    sqlMs: after.jobSqlMs - before.jobSqlMs,
    loopDelayMaxMs: after.loopDelayMaxMs,
    heapUsedMax: after.heapUsedMax,
    sqlKinds: Object.entries(after.sqlByKind)
      .map(([kind, { count, ms }]): [string, { count: number; ms: number }] => [kind, { count: count - (before.sqlByKind[kind]?.count ?? 0), ms: ms - (before.sqlByKind[kind]?.ms ?? 0) }])
      .filter(([, k]) => k.count > 0)
      .sort((a, b) => b[1].ms - a[1].ms),
    window,
    written,
    state,
    timeline,
    note: '',
  };
}

type Context = { server: Server; client: pg.Client; token: string; spaceId: string; git: GitServer; snapshotDir?: string };

const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${Math.round(bytes / 1024 / 1024)} MB`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function printStep(step: StepResult): void {
  const w = step.written;
  console.log(`\n## ${step.label}: ${step.state}`);
  console.log(`  wall ${seconds(step.ms)}; server CPU ${seconds(step.cpuMs)} (worker threads included); peak RSS ${mb(step.peakRss)} (before: ${mb(step.rssBefore)}), main thread's heap up to ${mb(step.heapUsedMax)}; event loop held up to ${seconds(step.loopDelayMaxMs)} at once`);
  console.log(`  SQL: ${step.statements} statements of the job, ${seconds(step.sqlMs)} summed; slowest kinds: ${step.sqlKinds.slice(0, 6).map(([k, v]) => `${k} ×${v.count} ${seconds(v.ms)}`).join(', ')}`);
  console.log(`  rows written (new row versions): ContentEntry ${w.written.ContentEntry} (${w.entriesInserted} inserted, ${w.entriesClosed} closed), Document ${w.written.Document}, DocumentLink ${w.written.DocumentLink}, SearchSection ${w.written.SearchSection}, GitSyncBlob ${w.written.GitSyncBlob}`);
  console.log(`  rows after: ${TABLES.map((t) => `${t} ${w.rows[t]}`).join(', ')}`);
  console.log(`  job timeline: ${step.timeline}`);
  if (step.note) console.log(`  ${step.note}`);
}

function printTable(steps: StepResult[], pages: number, files: number, restingRss: number | null): void {
  console.log(`\n### Git sync, ${pages.toLocaleString('en')} pages (${files.toLocaleString('en')} files)\n`);
  console.log(`Server process (application and job runner through tsx) at rest: ${mb(restingRss)}. Rows written: row versions created (inserted or updated).\n`);
  console.log('| Step | Wall time | Peak RSS of the server (at the start) | Main thread heap used (max) | Event loop held (max) | SQL statements (job) | ContentEntry written | Document written | GitSyncBlob written | Result |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const s of steps) {
    const w = s.written;
    const progress = s.sqlKinds.find(([kind]) => kind === 'UPDATE Job')?.[1].count ?? 0;
    const statements = `${s.statements.toLocaleString('en')}${progress ? ` (${progress} of them the job's progress and heartbeat)` : ''}`;
    const entries = `${w.written.ContentEntry.toLocaleString('en')}${w.entriesClosed ? ` (${w.entriesInserted} new, ${w.entriesClosed} closed)` : ''}`;
    console.log(`| ${s.label} | ${seconds(s.ms)} | ${mb(s.peakRss)} (${mb(s.rssBefore)}) | ${mb(s.heapUsedMax)} | ${seconds(s.loopDelayMaxMs)} | ${statements} | ${entries} | ${w.written.Document.toLocaleString('en')} | ${w.written.GitSyncBlob.toLocaleString('en')} | ${s.note || s.state} |`);
  }
}

// ─── the CPU profile ────────────────────────────────────────────────────────────────────────

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Stretch = { start: number; end: number; samples: number[] };
type Profile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };

/** Where a function's code lives: a node_modules package, a folder of src/, Node itself, or V8's own work. */
function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const src = /\/(src\/(?:[^/]+\/){0,2})/.exec(url);
  if (src) return src[1]!;
  if (url.startsWith('node:')) return 'node (built-in)';
  return url.startsWith('wasm://') ? 'wasm (Prisma query compiler)' : url;
}

/**
 * The main thread's profile (thread 0: tsx's loader and piscina's workers have their own, and
 * workers terminated at exit write none), cut by step: self time by module and the heaviest
 * functions of each step's window. Timestamps are CLOCK_MONOTONIC microseconds, as hrtime here.
 */
async function summarizeProfile(dir: string, steps: StepResult[]): Promise<void> {
  const file = (await readdir(dir)).filter((f) => /\.0\.\d+\.cpuprofile$/.test(f)).sort().at(-1);
  if (!file) return void console.log('\n(no CPU profile of the main thread was written)');
  const profile = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map(profile.nodes.flatMap((n) => (n.children ?? []).map((child) => [child, n.id] as const)));
  /** A sample's innermost frames, as `function file`, for what held the event loop. */
  const stackOf = (id: number) => {
    const frames: string[] = [];
    for (let at: number | undefined = id; at !== undefined && frames.length < 4; at = parentOf.get(at)) {
      const { functionName, url } = byId.get(at)!.callFrame;
      if (functionName !== '(root)') frames.push(`${functionName || '(anonymous)'} ${url.split('/').at(-1) ?? ''}`.trim());
    }
    return frames.join(' < ');
  };
  console.log(`\nCPU profile of the server process's main thread (${path.join(dir, file)}); work sent to worker threads (piscina) shows as idle here.`);
  const top = (map: Map<string, number>, n: number) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `    ${seconds(v / 1000).padStart(7)}  ${k}`).join('\n');
  for (const step of steps) {
    const [from, to] = step.window.map((ns) => Number(ns / 1000n));
    const modules = new Map<string, number>();
    const functions = new Map<string, number>();
    // The longest run of samples without idle: the event loop held by one task (or several back to back).
    let busy: Stretch | null = null;
    let longest: Stretch | null = null;
    let at = profile.startTime;
    for (const [i, id] of profile.samples.entries()) {
      const delta = profile.timeDeltas[i] ?? 0;
      at += delta;
      if (at < from! || at > to!) continue;
      const { callFrame } = byId.get(id)!;
      if (callFrame.functionName === '(idle)') busy = null;
      else {
        busy ??= { start: at, end: at, samples: [] };
        busy.end = at;
        busy.samples.push(id);
        if (!longest || busy.end - busy.start > longest.end - longest.start) longest = busy;
      }
      const mod = moduleOf(callFrame.url, callFrame.functionName);
      modules.set(mod, (modules.get(mod) ?? 0) + delta);
      if (!callFrame.url) continue;
      const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${callFrame.lineNumber + 1}`;
      functions.set(key, (functions.get(key) ?? 0) + delta);
    }
    console.log(`  ${step.label} (${seconds(step.ms)}), self time by module:\n${top(modules, 12)}\n  heaviest functions:\n${top(functions, 8)}`);
    const held: Stretch | null = longest;
    if (held) {
      const stacks = new Map<string, number>();
      for (const id of held.samples) stacks.set(stackOf(id), (stacks.get(stackOf(id)) ?? 0) + 1);
      const share = [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, n]) => `    ${String(Math.round((100 * n) / held.samples.length)).padStart(3)}%  ${k}`).join('\n');
      console.log(`  longest stretch without idle: ${seconds((held.end - held.start) / 1000)}, its innermost frames:\n${share}`);
    }
  }
}

// ─── main ───────────────────────────────────────────────────────────────────────────────────


async function editInQuire(ctx: Context, pathInRepo: string): Promise<{ pageId: string; ms: number }> {
  const [row] = (await ctx.client.query(`SELECT "entityId" FROM "GitSyncBlob" WHERE "spaceId" = $1 AND "path" = $2`, [ctx.spaceId, pathInRepo])).rows;
  const pageId = row.entityId as string;
  const start = performance.now();
  const { markdown } = await api(ctx.server, ctx.token, 'GET', `/spaces/${ctx.spaceId}/content/page/${pageId}?format=markdown`);
  const sdk = new GitBookAPI({ endpoint: ctx.server.base, authToken: ctx.token });
  const cr = (await sdk.spaces.createChangeRequest(ctx.spaceId, { subject: 'Edit one page' })).data;
  const edited = (markdown as string).replace(/\n## Details\n/, '\n## Details\n\nA paragraph written in quire.\n');
  await sdk.spaces.updateChangeRequestContent(ctx.spaceId, cr.id, { changes: [{ operation: 'update_page', page: pageId, document: { markdown: edited } }] as never }, { compat: false } as never);
  await sdk.spaces.mergeChangeRequest(ctx.spaceId, cr.id);
  return { pageId, ms: performance.now() - start };
}

/**
 * The four steps, each printed as it ends; a step that did not succeed ends the run (what follows
 * needs it: a failed first import leaves nothing to re-import or export).
 */
async function runSteps(ctx: Context, repo: Repository, steps: StepResult[]): Promise<void> {
  const { git } = ctx;
  const remote = { url: git.url('docs'), ref: 'refs/heads/main' };
  const record = (step: StepResult) => {
    steps.push(step);
    printStep(step);
    return step.state.startsWith('success');
  };
  if (!record(await measureSync(ctx, '1. first import', 'import', remote))) return;

  // One page changed upstream, in one commit.
  const target = repo.pages[Math.floor(repo.pages.length / 2)]!;
  const upstream = await commitFiles(git, 'docs', 'main', { [target.path]: pageMarkdown(repo.rng, target, 1, repo.pages, repo.assets, ' Edited upstream.') }, 'Edit one page upstream');
  if (!record(await measureSync(ctx, '2. one page changed upstream, re-import', 'import', remote))) return;
  console.log(`  (the page changed upstream: ${target.path})`);

  const edited = repo.pages[Math.floor(repo.pages.length / 3)]!;
  const edit = await editInQuire(ctx, edited.path);
  console.log(`\n(one page edited in quire: ${edited.path}, change request created, written and merged in ${seconds(edit.ms)})`);
  const exported = await measureSync(ctx, '3. one page edited in quire, export', 'export', { ...remote, commitMessage: 'Edit one page in quire' });
  const afterExport = (await branchTip(git, 'docs', 'main'))!;
  const changed = afterExport === upstream ? [] : (await gitText(bareDir(git, 'docs'), ['diff', '--name-only', upstream, afterExport])).split('\n').filter(Boolean);
  const which = changed.length === 1 && changed[0] === edited.path ? ' (the edited page)' : changed.length ? `: ${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''}` : '';
  exported.note = `${exported.state}; commit changes ${changed.length} file${changed.length === 1 ? '' : 's'}${which}`;
  if (!record(exported)) return;

  const again = await measureSync(ctx, '4. export with nothing changed', 'export', { ...remote, commitMessage: 'Nothing' });
  const afterAgain = (await branchTip(git, 'docs', 'main'))!;
  again.note = `${again.state}; ${afterAgain === afterExport ? 'no commit written' : `a commit was written (${afterAgain.slice(0, 7)})`}`;
  record(again);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pages: { type: 'string', default: '10000' }, assets: { type: 'string', default: '200' }, profile: { type: 'string' }, 'heap-snapshot': { type: 'string' }, settle: { type: 'string', default: '0' } } });
  const counts = values.pages.split(',').map(Number);
  const assetCount = Number(values.assets);
  for (const pages of counts) if (!Number.isInteger(pages) || pages < 2) throw new Error(`--pages must be integers ≥ 2, comma-separated (got ${values.pages})`);
  if (!Number.isInteger(assetCount) || assetCount < 0) throw new Error(`--assets must be an integer ≥ 0 (got ${values.assets})`);
  const profileDir = values.profile ? path.resolve(values.profile) : undefined;
  const snapshotDir = values['heap-snapshot'] ? path.resolve(values['heap-snapshot']) : undefined;
  // One run per page count, each with a new database, repository and server process; the tables again at the end.
  const tables: (() => void)[] = [];
  for (const pages of counts) tables.push(await runOnce(pages, assetCount, profileDir, snapshotDir, Number(values.settle)));
  if (counts.length > 1) for (const table of tables) table();
}

/** `--settle N`: the server's RSS every 10 s for N s after the last step, idle (the conversion threads end after 30 s idle), then after a full collection. */
async function settle(server: Server, seconds: number): Promise<void> {
  const samples: string[] = [];
  for (let waited = 0; waited < seconds; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    samples.push(`${waited + 10} s: ${mb(await currentRss(server.pid))}`);
  }
  await server.collect();
  console.log(`\nidle after the steps, RSS ${samples.join(', ')}; after a full collection ${mb(await currentRss(server.pid))}`);
}

async function runOnce(pages: number, assetCount: number, profileDir: string | undefined, snapshotDir: string | undefined, settleSeconds = 0): Promise<() => void> {
  let t = performance.now();
  const databaseUrl = await freshDatabase(BENCH_DB);
  console.log(`database ${BENCH_DB} created and migrated in ${seconds(performance.now() - t)}`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-git-'));
  const git = await startGitServer({ user: 'bench', password: GIT_PASSWORD });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let server: Server | undefined;
  const steps: StepResult[] = [];
  let table = () => undefined as void;
  try {
    t = performance.now();
    const repo = buildRepository(pages, assetCount);
    await git.createRepo('docs');
    const first = await commitRepository(git, 'docs', repo.files);
    const bytes = [...repo.files.values()].reduce((n, b) => n + b.length, 0);
    console.log(`repository: ${repo.pages.length} pages, ${repo.assets.length} assets, ${repo.files.size} files, ${mb(bytes)}, committed in ${seconds(performance.now() - t)} (${first.slice(0, 7)})`);

    server = await startServer(databaseUrl, dataDir, profileDir, snapshotDir);
    const setupDb: Db = createPrismaClient(databaseUrl, { poolMax: 1 });
    const { organization, token } = await createOrganizationWithOwner(setupDb, { title: 'Bench git', ownerEmail: 'owner@bench-git.test', ownerName: 'Docs Owner' });
    await setupDb.$disconnect();
    const space = await api(server, token, 'POST', `/orgs/${organization.id}/spaces`, { title: 'Docs' });
    const ctx: Context = { server, client, token, spaceId: space.id, git, ...(snapshotDir ? { snapshotDir } : {}) };
    const restingRss = await currentRss(server.pid);
    console.log(`server process ${server.pid} (application and job runner, TypeScript sources through tsx): RSS ${mb(restingRss)} at rest`);

    await runSteps(ctx, repo, steps);
    if (settleSeconds > 0) await settle(server, settleSeconds);
    printTable(steps, repo.pages.length, repo.files.size, restingRss);
    table = () => printTable(steps, repo.pages.length, repo.files.size, restingRss);
  } finally {
    await server?.stop();
    await client.end();
    await git.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  if (profileDir) await summarizeProfile(profileDir, steps);
  return table;
}

await main();
process.exit(0);
