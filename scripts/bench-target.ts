/**
 * Starts a benchmark server (scripts/bench-server.mjs) in a child process and talks to it over IPC:
 * its port, its cumulative stats once idle, its stop. Used by bench-throughput.ts and
 * bench-published.ts. The child runs the compiled `dist/` with plain Node, as `quire serve` runs,
 * so its CPU and memory are the application's own (tsx's loader would add a loader thread with a
 * heap of its own); with QUIRE_BENCH_SOURCE=src it runs the TypeScript sources through tsx.
 * startPostgraphile starts PostGraphile 5 the same way for bench-throughput.ts --rounds: through
 * `scripts/bench-postgraphile.sh serve`, which becomes the server; its stats come from the file
 * it writes on SIGUSR2.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { stopChild } from './bench-support/stop-child.js';

/** Cumulative figures of the server process (see bench-server.mjs); memory in bytes. */
export type Stats = { cpuMicros: number; statements: number; rss: number; peakRss: number; heapUsed: number; external: number };
type ServerMessage = { type: 'ready'; port: number } | ({ type: 'stats' } & Stats);

export type Target = { base: string; stats(): Promise<Stats>; stop(): Promise<void> };

/** The next IPC message of the child (messages are awaited one at a time). */
function nextMessage<T extends ServerMessage['type']>(child: ChildProcess, type: T): Promise<Extract<ServerMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`bench-server exited with code ${code} before sending '${type}'`));
    child.once('exit', onExit);
    child.once('message', (message: ServerMessage) => {
      child.off('exit', onExit);
      if (message.type === type) resolve(message as Extract<ServerMessage, { type: T }>);
      else reject(new Error(`bench-server sent '${message.type}', expected '${type}'`));
    });
  });
}

/**
 * V8's heap sizing as `npm start` and the container image run quire (package.json, Dockerfile):
 * the benchmarks measure the server users run. QUIRE_BENCH_NODE_ARGS may override them (a later
 * flag wins), e.g. "--max-semi-space-size=64 --heap-growing-percent=300" for Node's defaults.
 */
const SERVE_HEAP_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=100'];

/** `kind`: quire (the application) or baseline (see bench-server.mjs); `node`: another Node binary. */
export async function startBenchServer(kind: 'quire' | 'baseline', databaseUrl: string, node = process.execPath): Promise<Target> {
  const script = fileURLToPath(new URL('./bench-server.mjs', import.meta.url));
  const loader = process.env.QUIRE_BENCH_SOURCE === 'src' ? ['--import', import.meta.resolve('tsx')] : [];
  // Extra Node flags for the server, e.g. QUIRE_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"
  // (flags NODE_OPTIONS does not allow); the profile is written when the server exits.
  const extra = process.env.QUIRE_BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const heap = kind === 'quire' ? SERVE_HEAP_FLAGS : [];
  const child = spawn(node, [...heap, ...extra, ...loader, script, kind], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // As `quire serve` runs (NODE_ENV defaults to production there).
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: process.env.NODE_ENV ?? 'production' },
  });
  const { port } = await nextMessage(child, 'ready');
  return {
    base: `http://127.0.0.1:${port}`,
    stats: () => {
      const reply = nextMessage(child, 'stats');
      child.send('stats');
      return reply;
    },
    stop: () => stopChild(child),
  };
}

/**
 * PostGraphile 5 on `databaseUrl` (installed outside the repository if needed; on `node`, default
 * the Node 24 installed with it, polyfilled on Node 20): see scripts/bench-postgraphile.sh, whose
 * `serve` mode prints `description` and then execs the server, so that the child is the server.
 */
export async function startPostgraphile(databaseUrl: string, node?: string): Promise<Target & { description: string }> {
  const script = fileURLToPath(new URL('./bench-postgraphile.sh', import.meta.url));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-postgraphile-'));
  const statsFile = path.join(dir, 'stats.json');
  const child = spawn('bash', [script, 'serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...(node ? { BENCH_NODE: node } : {}), DATABASE_URL: databaseUrl, BENCH_STATS_FILE: statsFile },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Its standard output: the description line, then the server's, "… listening on port N …" among them.
  let output = '';
  let listening = false;
  const started = new Promise<{ description: string; port: number }>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (listening) return; // read on, not kept
      output += chunk;
      const port = /listening on port (\d+)/.exec(output)?.[1];
      listening = port !== undefined;
      if (port) resolve({ description: output.slice(0, output.indexOf('\n')), port: Number(port) });
    });
    void exited.then((code) => reject(new Error(`PostGraphile exited (${code}) before listening:\n${output}`)));
  });
  const { description, port } = await started.catch(async (error) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    description,
    base: `http://127.0.0.1:${port}`,
    stats: async () => {
      await rm(statsFile, { force: true });
      child.kill('SIGUSR2');
      // It answers once idle (10 s at most).
      for (let i = 0; i < 300; i++) {
        await sleep(50);
        const text = await readFile(statsFile, 'utf8').catch(() => undefined);
        if (text) return JSON.parse(text) as Stats;
      }
      throw new Error('PostGraphile wrote no stats within 15 s');
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
