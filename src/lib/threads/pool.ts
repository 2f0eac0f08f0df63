/**
 * The conversion pool: worker threads (piscina) that run CPU-heavy conversions of untrusted input
 * (markdown → document, see tasks.ts) away from the event loop, so health checks and every other
 * request keep being answered while one runs. Each task has a time budget, counted from when it
 * is asked for: past it, its thread is terminated. Each thread has a heap limit
 * (`resourceLimits`): a task that exhausts it kills its thread only, not the server. Either way
 * the caller gets a WorkerBudgetError naming the limit, and piscina starts a fresh thread.
 *
 * One pool per process, created on first use and closed when the app stops (closePool); idle
 * threads do not keep the process alive. A pool that has been given so many tasks is replaced
 * (currentPool), so that a thread's memory is bounded whatever an import's size.
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
  /** Tasks a pool is given before it is replaced (see currentPool). */
  recycleAfterTasks: number;
};

export const DEFAULT_POOL_SETTINGS: PoolSettings = { threads: 2, timeoutMs: 20_000, memoryMb: 512, recycleAfterTasks: 2_000 };

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

let settings = DEFAULT_POOL_SETTINGS;

/** A piscina pool, the tasks it was given and those not answered yet. */
type Pool = { piscina: Piscina; given: number; running: number };

let pool: Pool | undefined;
/** The pool that will replace `pool`, while its threads start. */
let warming: Pool | undefined;
/** Pools replaced, ended once their last task is answered (closePool ends them at once). */
const retiring = new Set<Pool>();
/** Pools replaced since the process started (tests and benchmarks). */
let replaced = 0;
export const poolsReplaced = (): number => replaced;

/** The settings of the pools created from now on (the app's configuration). */
export function configurePool(next: Partial<PoolSettings>): void {
  settings = { ...DEFAULT_POOL_SETTINGS, ...Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) };
}

export const poolSettings = (): PoolSettings => settings;

function newPool(): Pool {
  const file = tasksFile();
  const piscina = new Piscina({
    filename: file.filename,
    ...(file.execArgv ? { execArgv: file.execArgv } : {}),
    minThreads: 0,
    maxThreads: settings.threads,
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: settings.memoryMb },
  });
  // Piscina emits 'error' for a thread that fails while it runs no task — one cut at its time
  // budget that runs out of memory as it is being stopped. Its task was already answered (a 400
  // naming the budget); without a listener the emit would be an uncaught exception.
  piscina.on('error', () => undefined);
  return { piscina, given: 0, running: 0 };
}

/** Ends a replaced pool once it has no task left (piscina's `close` would cut queued ones). */
function endIfDone(old: Pool): void {
  if (old.running > 0 || !retiring.delete(old)) return;
  void old.piscina.destroy();
}

/** Longest wait for a replacement's threads to start; past it, it replaces the pool anyway. */
const WARM_UP_MS = 60_000;

/**
 * Replaces `old` once a new pool's threads have started (each ran an empty conversion): until
 * then `old` takes the tasks, so none waits for a thread to load its code (~0.5 s compiled, ~3 s
 * through tsx, much more on a loaded machine) within its time budget. `old` then finishes what it
 * was given and ends.
 */
async function replace(old: Pool): Promise<void> {
  const next = newPool();
  warming = next;
  const warmUp = () => next.piscina.run({ markdown: '' }, { name: 'markdown', signal: AbortSignal.timeout(WARM_UP_MS) });
  await Promise.all(Array.from({ length: settings.threads }, warmUp)).catch(() => undefined);
  if (warming !== next) return; // closePool ended it meanwhile
  warming = undefined;
  if (pool !== old) return void next.piscina.destroy();
  pool = next;
  replaced++;
  retiring.add(old);
  endIfDone(old);
}

/**
 * The pool for the next task. After `recycleAfterTasks` tasks a replacement is started: a
 * thread's RSS grows with the tasks it ran (~40 KB a page over a 10,000-page import: committed
 * heap and native memory kept after the garbage of its conversions) and is not given back, so
 * replacing threads bounds it by what that many tasks leave (2,000: ~1,000 pages a thread).
 */
function currentPool(): Pool {
  pool ??= newPool();
  if (++pool.given === settings.recycleAfterTasks && !warming) void replace(pool);
  return pool;
}

const isOutOfMemory = (error: unknown) => (error as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY';

/**
 * Runs the tasks.ts export `task` on `input` in a thread. `signal` (a cancelled job) stops it
 * too, rejecting with the signal's reason.
 */
export async function runTask<I, O>(task: string, input: I, signal?: AbortSignal): Promise<O> {
  const { timeoutMs, memoryMb } = settings;
  const timeout = AbortSignal.timeout(timeoutMs);
  const from = currentPool();
  from.running++;
  try {
    return (await from.piscina.run(input, { name: task, signal: signal ? AbortSignal.any([signal, timeout]) : timeout })) as O;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timeout.aborted) throw new WorkerBudgetError('time', `The conversion took longer than the ${timeoutMs / 1000} s limit (conversion time)`);
    if (isOutOfMemory(error)) throw new WorkerBudgetError('memory', `The conversion needed more than the ${memoryMb} MB memory limit (conversion memory)`);
    throw error;
  } finally {
    from.running--;
    endIfDone(from);
  }
}

/** Ends the pool's threads (running tasks are cut); the next task creates a new pool. */
export async function closePool(): Promise<void> {
  const closing = [pool, warming, ...retiring].filter((p) => p !== undefined);
  pool = undefined;
  warming = undefined;
  retiring.clear();
  await Promise.all(closing.map((p) => p.piscina.destroy()));
}
