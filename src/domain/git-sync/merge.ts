/**
 * Both sides edited: the three-way merge of a sync, on whole snapshots — base (the revision of
 * the last synced commit), ours (the space's content now), theirs (the commit read). Only the
 * entities that differ on some side are merged, with the same pure merge as change requests
 * (lib/merge: block by block within a body, field by field, the tree checked); their bodies are
 * the only ones loaded. A conflict is never settled here: the caller parks it.
 */
import type { JSONDocument } from '../../lib/documents/types.js';
import { mergeEntities, type EntityConflict, type EntityVersion as MergeVersion } from '../../lib/merge/index.js';
import type { EntityVersion } from '../versions/revisions/commit.js';
import type { EntityKind } from '../versions/revisions/entries.js';
import { sameVersion } from '../versions/revisions/same-version.js';
import { versionOfEntry, type Snapshot } from './snapshot.js';

export type Side = Map<string, { kind: EntityKind; version: EntityVersion }>;

/** The merged content: every entity's version (null: absent), and its body when the merge made a new one. */
export type SyncMerge = {
  merged: Map<string, { kind: EntityKind; version: EntityVersion | null; document?: JSONDocument }>;
  conflicts: EntityConflict[];
};

export const sideOf = (snapshot: Snapshot): Side => new Map([...snapshot].map(([id, entry]) => [id, { kind: entry.kind, version: versionOfEntry(entry) }]));

function toMerge(kind: EntityKind, version: EntityVersion | undefined, documents: Map<string, JSONDocument>): MergeVersion | null {
  if (!version) return null;
  return {
    kind,
    parentId: version.parentId,
    position: version.position,
    slug: version.slug,
    fields: { type: version.type, title: version.title, ...version.data },
    document: version.documentId ? (documents.get(version.documentId) ?? null) : null,
  };
}

/**
 * `documents(ids)`: the bodies of the touched entities' versions (stored ones, and the commit's
 * new ones). A merged body equal to one side's keeps that side's document ID.
 */
export async function mergeSides(base: Side, ours: Side, theirs: Side, documents: (ids: string[]) => Promise<Map<string, JSONDocument>>): Promise<SyncMerge> {
  const ids = new Set([...base.keys(), ...ours.keys(), ...theirs.keys()]);
  const touched: string[] = [];
  for (const id of ids) {
    const b = base.get(id)?.version ?? null;
    if (!sameVersion(b, ours.get(id)?.version ?? null) || !sameVersion(b, theirs.get(id)?.version ?? null)) touched.push(id);
  }
  const merged: SyncMerge['merged'] = new Map();
  if (!touched.length) return { merged, conflicts: [] };
  const wanted = touched.flatMap((id) => [base, ours, theirs].flatMap((side) => side.get(id)?.version.documentId ?? []));
  const bodies = await documents([...new Set(wanted)]);
  const kindOf = (id: string) => (ours.get(id) ?? theirs.get(id) ?? base.get(id))!.kind;
  const input = new Map(
    touched.map((id) => {
      const kind = kindOf(id);
      return [id, { base: toMerge(kind, base.get(id)?.version, bodies), ours: toMerge(kind, ours.get(id)?.version, bodies), theirs: toMerge(kind, theirs.get(id)?.version, bodies) }];
    }),
  );
  const touchedSet = new Set(touched);
  const children = new Map<string | null, { id: string; slug: string }[]>();
  for (const [id, { kind, version }] of ours) {
    if (kind !== 'page' || touchedSet.has(id)) continue;
    children.set(version.parentId, [...(children.get(version.parentId) ?? []), { id, slug: version.slug }]);
  }
  const result = mergeEntities({
    touched: input,
    parentOf: (id) => {
      const page = ours.get(id);
      return page ? page.version.parentId : undefined;
    },
    childrenOf: (parentId) => children.get(parentId) ?? [],
  });
  if (result.conflicts.length) return { merged, conflicts: result.conflicts };
  for (const [id, version] of result.merged) {
    const kind = kindOf(id);
    if (!version) {
      merged.set(id, { kind, version: null });
      continue;
    }
    const { type, title, ...data } = version.fields as { type: string; title: string } & Record<string, unknown>;
    const sides = [ours.get(id)?.version, theirs.get(id)?.version, base.get(id)?.version];
    // A body equal to a side's (by reference from the pure merge, or by content) keeps its stored ID.
    const same = version.document ? sides.find((v) => v?.documentId && bodies.get(v.documentId) === version.document) : undefined;
    const documentId = version.document ? (same?.documentId ?? null) : null;
    merged.set(id, {
      kind,
      version: {
        parentId: version.parentId,
        position: version.position,
        type: String(type ?? ''),
        title: String(title ?? ''),
        slug: version.slug,
        documentId,
        data,
        createdAt: sides.find((v) => v)?.createdAt ?? new Date(),
      },
      ...(version.document && !same ? { document: version.document } : {}),
    });
  }
  return { merged, conflicts: [] };
}
