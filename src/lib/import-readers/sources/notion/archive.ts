/**
 * The files of a Notion export. Notion gives a zip (`Export-<uuid>.zip`); a large workspace comes
 * as a zip of zips (`Export-<uuid>-Part-1.zip`, …), whose parts are read here as one archive. Only
 * that one level is unpacked: a zip inside a part is an attachment like any other file. Every
 * entry counts against the import's limits (entries, bytes actually inflated), the parts' included,
 * and unsafe names (`..`, absolute paths, symlinks) refuse the whole export (zip/read-entries.ts).
 * A folder wrapping everything (`Export-<uuid>/`) is stripped.
 */
import { ImportError } from '../../import-error.js';
import type { ImportLimits } from '../../tree.js';
import { readZipEntries, type ZipEntry } from '../../zip/read-entries.js';
import { extension } from './names.js';

export type ExportFiles = Map<string, Uint8Array>;

type Options = { limits: ImportLimits; signal?: AbortSignal; progress?: (done: number, total?: number) => void };

export async function readNotionArchive(bytes: Uint8Array, options: Options): Promise<ExportFiles> {
  const { limits } = options;
  // A first pass lists the names without inflating anything: are these the parts of a larger export?
  const listed = await readZipEntries(bytes, { limits, wanted: () => false, ...(options.signal ? { signal: options.signal } : {}) });
  const parts = listed.length > 0 && listed.every((entry) => extension(entry.path) === 'zip');
  if (!parts) return filesOf(await readZipEntries(bytes, { ...options, wanted: () => true }));

  // The parts: each may be as large as the import (a part is most of it); what they hold then
  // shares the import's entry and byte budgets.
  const outer = await readZipEntries(bytes, { limits: { ...limits, maxResponseBytes: limits.maxTotalBytes }, wanted: () => true, ...(options.signal ? { signal: options.signal } : {}) });
  const entries: ZipEntry[] = [];
  let used = 0;
  for (const [i, part] of outer.entries()) {
    const left = { ...limits, maxZipEntries: limits.maxZipEntries - entries.length, maxTotalBytes: limits.maxTotalBytes - used };
    if (left.maxZipEntries <= 0 || left.maxTotalBytes <= 0) throw tooLarge(limits);
    const inner = await readZipEntries(part.bytes!, { limits: left, wanted: () => true, ...(options.signal ? { signal: options.signal } : {}) });
    for (const entry of inner) used += entry.bytes?.length ?? 0;
    entries.push(...inner);
    options.progress?.(i + 1, outer.length);
  }
  return filesOf(entries);
}

const tooLarge = (limits: ImportLimits) =>
  new ImportError('TOO_LARGE', `The export's parts hold more than the import limits allow (${limits.maxZipEntries} entries, ${Math.round(limits.maxTotalBytes / 1024 / 1024)} MB uncompressed).`);

/** The entries by path, wrapping folders (`Export-<uuid>/`) stripped; a later entry of the same path is left out. */
function filesOf(entries: ZipEntry[]): ExportFiles {
  let paths = entries.filter((entry) => entry.bytes).map((entry) => ({ path: entry.path, bytes: entry.bytes! }));
  for (let level = 0; level < 3; level++) {
    const slash = paths[0]?.path.indexOf('/') ?? -1;
    if (slash < 0) break;
    const folder = paths[0].path.slice(0, slash + 1);
    if (!paths.every((entry) => entry.path.startsWith(folder))) break;
    paths = paths.map((entry) => ({ path: entry.path.slice(folder.length), bytes: entry.bytes }));
  }
  const files: ExportFiles = new Map();
  for (const { path, bytes } of paths) if (path && !files.has(path)) files.set(path, bytes);
  return files;
}
