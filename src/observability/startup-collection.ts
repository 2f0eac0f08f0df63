/**
 * One memory-reducing garbage collection at the end of a process's start, before it serves.
 *
 * Starting allocates far more than the process keeps (modules compiled, the schema built, the
 * database checked): V8's young generation grows to its limit (32 MiB with the Dockerfile's flags)
 * and stays committed, and the old generation holds the start's garbage, until V8's memory
 * reducer collects — by its watchdog, ~100 s later, because the allocation rate it last measured
 * was the start's. A last-resort collection (several full collections, the young generation
 * shrunk) does that now, once: ~190 ms on this machine, before the port is opened, and an idle
 * server's RSS is ~35 MiB lower from its first request (docs/performance.md, Memory). Node 20's
 * V8 does not know the flavor and runs one full collection, which leaves the young generation as
 * it is.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

type GcFunction = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async'; flavor?: 'regular' | 'last-resort' }) => void;

/** Node's `gc`: the global one under `--expose-gc`, else one taken from a new context with the flag set for its making. */
function gcFunction(): GcFunction {
  const global = (globalThis as { gc?: GcFunction }).gc;
  if (global) return global;
  v8.setFlagsFromString('--expose-gc');
  try {
    return vm.runInNewContext('gc') as GcFunction;
  } finally {
    v8.setFlagsFromString('--no-expose-gc'); // later contexts (vm) get no `gc`
  }
}

/** Collects the start's garbage; returns the milliseconds it took. */
export function collectStartupGarbage(): number {
  const started = performance.now();
  gcFunction()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return performance.now() - started;
}
