/**
 * The conversion pool: worker threads (piscina) that run CPU-heavy conversions of untrusted input
 * (markdown → document, see tasks.ts) away from the event loop, so health checks and every other
 * request keep being answered while one runs. Each task has a time budget, counted from when it
 * is asked for: past it, its thread is terminated. Each thread has a heap limit
 * (`resourceLimits`): a task that exhausts it kills its thread only, not the server. Either way
 * the caller gets a WorkerBudgetError naming the limit, and piscina starts a fresh thread.
 *
 * One pool per process, created on first use and closed when the app stops (closePool); idle
 * threads do not keep the process alive.
 */
import { Piscina } from 'piscina';
import { tasksFile } from './worker-file.js';

export type PoolSettings = {
  /** Threads converting at once (the rest of the tasks wait in the queue). */
  threads: number;
  /** Longest time one task may take, queueing included, in ms. */
  timeoutMs: number;
  /** Old-generation heap of one thread, in MB. */
  memoryMb: number;
};

export const DEFAULT_POOL_SETTINGS: PoolSettings = { threads: 2, timeoutMs: 20_000, memoryMb: 512 };

/** A task past its time budget or its thread's memory: refused, and its thread terminated. */
export class WorkerBudgetError extends Error {
  constructor(
    readonly limit: 'time' | 'memory',
    message: string,
  ) {
    super(message);
    this.name = 'WorkerBudgetError';
  }
}

/**
 * A thread's young generation, in MB (V8 makes it three semi-spaces: 16 MB each). Left to V8, it
 * grows to 64–128 MB of committed new space within the first thousand conversions of an import
 * and is never given back. Capped, the pool's RSS stays flat over 6,000 pages (~150 MB a thread)
 * at the same CPU time. 24 MB saved ~35 MB a thread more but made a 5 MB table's conversion
 * ~1.5× slower (its surviving tree is copied by more, smaller scavenges): 48 converts it as fast
 * as uncapped, within the measurements' noise.
 */
export const YOUNG_GENERATION_MB = 48;

let settings = DEFAULT_POOL_SETTINGS;
let pool: Piscina | undefined;

/** The settings of the pools created from now on (the app's configuration). */
export function configurePool(next: Partial<PoolSettings>): void {
  settings = { ...DEFAULT_POOL_SETTINGS, ...Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) };
}

export const poolSettings = (): PoolSettings => settings;

function currentPool(): Piscina {
  if (!pool) {
    const file = tasksFile();
    pool = new Piscina({
      filename: file.filename,
      ...(file.execArgv ? { execArgv: file.execArgv } : {}),
      minThreads: 0,
      maxThreads: settings.threads,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: settings.memoryMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    // Piscina emits 'error' for a thread that fails while it runs no task — one cut at its time
    // budget that runs out of memory as it is being stopped. Its task was already answered (a 400
    // naming the budget); without a listener the emit would be an uncaught exception.
    pool.on('error', () => undefined);
  }
  return pool;
}

const isOutOfMemory = (error: unknown) => (error as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY';

/**
 * Runs the tasks.ts export `task` on `input` in a thread. `signal` (a cancelled job) stops it
 * too, rejecting with the signal's reason.
 */
export async function runTask<I, O>(task: string, input: I, signal?: AbortSignal): Promise<O> {
  const { timeoutMs, memoryMb } = settings;
  // A timer and a listener of its own, both removed when the task ends: AbortSignal.timeout and
  // AbortSignal.any would leave a timer of the whole budget and weak references per task (an
  // import runs thousands) alive, keeping the task's objects past young collections.
  const stop = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => ((timedOut = true), stop.abort()), timeoutMs).unref();
  const follow = () => stop.abort(signal?.reason);
  if (signal?.aborted) follow();
  else signal?.addEventListener('abort', follow, { once: true });
  try {
    return (await currentPool().run(input, { name: task, signal: stop.signal })) as O;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timedOut) throw new WorkerBudgetError('time', `The conversion took longer than the ${timeoutMs / 1000} s limit (conversion time)`);
    if (isOutOfMemory(error)) throw new WorkerBudgetError('memory', `The conversion needed more than the ${memoryMb} MB memory limit (conversion memory)`);
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', follow);
  }
}

/** Ends the pool's threads (running tasks are cut); the next task creates a new pool. */
export async function closePool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.destroy();
}
