import { isDeepStrictEqual } from 'node:util';
import type { EntityVersion } from './commit.js';

/** Whether two versions of an entity are the same (null: absent), whatever else their rows carry. */
export function sameVersion(a: EntityVersion | null, b: EntityVersion | null): boolean {
  if (!a || !b) return a === b;
  return (
    a.parentId === b.parentId &&
    a.position === b.position &&
    a.type === b.type &&
    a.title === b.title &&
    a.slug === b.slug &&
    a.documentId === b.documentId &&
    isDeepStrictEqual(a.data, b.data)
  );
}
