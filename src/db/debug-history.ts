/**
 * Prisma keeps the arguments of its last 100 debug calls in memory whether or not `DEBUG` is set
 * (@prisma/debug's `MAX_ARGS_HISTORY`), in two copies of that module: the one bundled in
 * @prisma/client's runtime, which records every raw statement as a string with its parameters
 * serialized as JSON, and the package through which the pg adapter records every statement's
 * object, parameters included. A bulk write's statements (an import's batch of 200 documents,
 * ~1 MB of JSON each time) therefore stay alive until a hundred later debug calls push them out:
 * tens of MB, kept long enough to be promoted and then to wait for a full collection. Neither
 * history can be turned off, and only the package's can be cleared (`clearLogs`, which quire
 * cannot import: the package is the adapter's dependency). This pushes both out with a hundred
 * calls of one namespace with an empty argument (a few microseconds) — not when that namespace is
 * printed (`DEBUG` naming it): then the history is someone's debugging.
 */
import { Debug as ClientDebug } from '@prisma/client/runtime/client';
import { Debug as AdapterDebug } from '@prisma/driver-adapter-utils';

const NAMESPACE = 'quire:forget';
const HISTORY = 100;

const forgetters = [ClientDebug(NAMESPACE), AdapterDebug(NAMESPACE)];

/** Drops what Prisma's debug histories hold (the statements sent last and their parameters). */
export function forgetPrismaDebugHistory(): void {
  if (ClientDebug.enabled(NAMESPACE)) return;
  for (const forget of forgetters) for (let i = 0; i < HISTORY; i++) forget('');
}
