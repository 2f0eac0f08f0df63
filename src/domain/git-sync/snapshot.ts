/**
 * A revision's entities, all of them, by ID: what a git sync compares — a whole-state snapshot of
 * the repository against whole revisions. Only rows are read (no bodies); an import or export of
 * a 10,000-page space reads 10,000 rows here, and documents only for what changed.
 */
import type { Queryable } from '../kernel/pagination/keyset.js';
import type { EntityVersion } from '../versions/revisions/commit.js';
import type { Entry } from '../versions/revisions/entries.js';
import { readEntries } from '../versions/revisions/read.js';
import type { RevisionScope } from '../versions/revisions/scope.js';

export type Snapshot = Map<string, Entry>;

export async function snapshotOf(db: Queryable, scope: RevisionScope): Promise<Snapshot> {
  const entries = await readEntries(db, scope, []);
  return new Map(entries.map((entry) => [entry.entityId, entry]));
}

/** An entry as a version to write (the row's own bookkeeping left out). */
export const versionOfEntry = (entry: Entry): EntityVersion => ({
  parentId: entry.parentId,
  position: entry.position,
  type: entry.type,
  title: entry.title,
  slug: entry.slug,
  documentId: entry.documentId,
  data: entry.data as Record<string, unknown>,
  createdAt: entry.createdAt,
});
