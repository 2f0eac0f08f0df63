/** Three-way merge of plain values and of records property by property. */
import { deepEqual } from './equal.js';

export type Resolution<T> = { ok: true; value: T } | { ok: false };

/** Taken from the side that changed it; both sides changing it alike is fine; otherwise no resolution. */
export function mergeValue<T>(base: T, ours: T, theirs: T): Resolution<T> {
  if (deepEqual(ours, theirs)) return { ok: true, value: ours };
  if (deepEqual(base, ours)) return { ok: true, value: theirs };
  if (deepEqual(base, theirs)) return { ok: true, value: ours };
  return { ok: false };
}

type Dict = Record<string, unknown>;

/**
 * Each property merged on its own (absent = undefined; an undefined result is left out).
 * Conflicting properties keep ours and are listed in `conflicts`. Keys come in ours' order,
 * then theirs', then base's.
 */
export function mergeProps(base: Dict, ours: Dict, theirs: Dict): { value: Dict; conflicts: string[] } {
  const value: Dict = {};
  const conflicts: string[] = [];
  const keys = new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(base)]);
  for (const key of keys) {
    const merged = mergeValue(base[key], ours[key], theirs[key]);
    const chosen = merged.ok ? merged.value : ours[key];
    if (!merged.ok) conflicts.push(key);
    if (chosen !== undefined) value[key] = chosen;
  }
  return { value, conflicts };
}

/** A copy of `value` without the given properties. */
export function omit(value: object, keys: readonly string[]): Dict {
  const copy: Dict = { ...(value as Dict) };
  for (const key of keys) delete copy[key];
  return copy;
}
