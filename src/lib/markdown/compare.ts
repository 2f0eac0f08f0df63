/**
 * Comparing documents by content: keys (of blocks, inlines, texts and fragments) are identities,
 * not content, so they are left out.
 */
import { stringify } from 'safe-stable-stringify';
import type { JSONDocument } from '../documents/types.js';

const KEYED = new Set(['block', 'inline', 'text', 'fragment']);

/** A deep copy without the `key` of blocks, inlines, texts and fragments. */
export function withoutKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutKeys) as T;
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const keyed = KEYED.has((value as Record<string, unknown>).object as string);
  for (const [k, v] of Object.entries(value)) if (!(keyed && k === 'key')) out[k] = withoutKeys(v);
  return out as T;
}

export const sameContent = (a: JSONDocument | unknown, b: JSONDocument | unknown): boolean => stringify(withoutKeys(a)) === stringify(withoutKeys(b));
