/**
 * Starts a benchmark server (scripts/bench-server.mjs) in a child process and talks to it over IPC:
 * its port, its cumulative stats once idle, its stop. Used by bench-throughput.ts and
 * bench-published.ts. The child runs the compiled `dist/` with plain Node, as `quire serve` runs,
 * so its CPU and memory are the application's own (tsx's loader would add a loader thread with a
 * heap of its own); with QUIRE_BENCH_SOURCE=src it runs the TypeScript sources through tsx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
