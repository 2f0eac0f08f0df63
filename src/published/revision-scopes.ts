/**
 * Where each revision sits in its line (kernel of every content read), remembered: a revision
 * never changes once made, so its scope is never invalidated; bounded by count.
 */
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.js';
import { revisionScope } from '../domain/versions/revisions/load.js';
import type { RevisionScope } from '../domain/versions/revisions/scope.js';

const scopes = new LRUCache<string, RevisionScope>({ max: 10_000 });

export async function cachedRevisionScope(db: Db, revisionId: string): Promise<RevisionScope> {
  const known = scopes.get(revisionId);
  if (known) return known;
  const scope = await revisionScope(db, revisionId);
  scopes.set(revisionId, scope);
  return scope;
}
