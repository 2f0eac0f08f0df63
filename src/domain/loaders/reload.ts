/** A row just written, read again through the request's loaders (cleared by the write): the answer of a mutation. */
import { notFound } from '../../lib/errors.js';
import type { Loader } from './registry.js';

/** Not found when it is gone meanwhile (deleted by another request). */
export async function reloaded<K, T>(loader: Loader<K, T | null>, key: K, what: string): Promise<T> {
  const row = await loader.load(key);
  if (!row) throw notFound(what);
  return row;
}
