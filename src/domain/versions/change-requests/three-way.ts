/**
 * The three-way merge of a change request with its space, on stored content: the request's head
 * ("ours"), the space revision it is based on ("base") and the space's head ("theirs"). It reads
 * only what either side changed — the request's own rows, the space rows changed since the base —
 * plus the ancestors and same-slug siblings the tree checks need; never the whole revision.
 */
import { Prisma } from '../../../generated/prisma/client.js';
import type { JSONDocument } from '../../../lib/documents/types.js';
import { mergeEntities, type EntityConflict, type EntityVersion as MergeVersion } from '../../../lib/merge/index.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import type { EntityVersion } from '../revisions/commit.js';
import { loadDocuments, putDocuments } from '../revisions/documents.js';
import type { Entry } from '../revisions/entries.js';
import { readEntries } from '../revisions/read.js';
import type { RevisionScope } from '../revisions/scope.js';
import { atSeq } from '../revisions/visible.js';
import { sameVersion } from '../revisions/same-version.js';

const { sql } = Prisma;

export type Sides = { ours: RevisionScope; base: RevisionScope; theirs: RevisionScope };

/** An entity's merged version, the stored way (null: absent). */
export type MergedEntity = { kind: Entry['kind']; entityId: string; version: EntityVersion | null; theirs: Entry | null };

export type ThreeWay = { merged: MergedEntity[]; conflicts: EntityConflict[] };

type Versions = { base: Entry | null; ours: Entry | null; theirs: Entry | null };

/** Entity IDs the change request's head holds rows of (edits and removals). */
async function ownIds(db: Queryable, ours: RevisionScope): Promise<string[]> {
  const rows = await db.$queryRaw<{ entityId: string }[]>(sql`SELECT e."entityId" FROM "ContentEntry" e WHERE e."lineId" = ${ours.lineId} AND ${atSeq('e', ours.seq)}`);
  return rows.map((r) => r.entityId);
}

/** Entity IDs the space's line changed after `base` up to `theirs`. */
async function changedSince(db: Queryable, base: RevisionScope, theirs: RevisionScope): Promise<string[]> {
  if (theirs.seq === base.seq) return [];
  const rows = await db.$queryRaw<{ entityId: string }[]>(sql`SELECT DISTINCT e."entityId" FROM "ContentEntry" e
    WHERE e."lineId" = ${theirs.lineId}
      AND ((e."fromSeq" > ${base.seq} AND e."fromSeq" <= ${theirs.seq}) OR (e."toSeq" > ${base.seq} AND e."toSeq" <= ${theirs.seq}))`);
  return rows.map((r) => r.entityId);
}

const byEntity = (entries: Entry[]) => new Map(entries.map((e) => [e.entityId, e]));
const inScope = (db: Queryable, scope: RevisionScope, ids: string[]) => (ids.length ? readEntries(db, scope, [sql`e."entityId" = ANY(${ids}::text[])`]) : Promise.resolve([]));

/** A stored entry as the pure merge sees it. */
function toMerge(entry: Entry | null, documents: Map<string, JSONDocument>): MergeVersion | null {
  if (!entry) return null;
  return {
    kind: entry.kind,
    parentId: entry.parentId,
    position: entry.position,
    slug: entry.slug,
    fields: { type: entry.type, title: entry.title, ...(entry.data as Record<string, unknown>) },
    document: entry.documentId ? (documents.get(entry.documentId) ?? null) : null,
  };
}

/** Parents of pages outside `touched`, walking up from the parents touched pages name (one statement per level). */
async function ancestry(db: Queryable, theirs: RevisionScope, touched: Map<string, Versions>): Promise<Map<string, string | null>> {
  const parents = new Map<string, string | null>();
  let frontier = [...touched.values()].flatMap((v) => [v.base, v.ours, v.theirs]).flatMap((e) => (e?.parentId ? [e.parentId] : []));
  while (frontier.length) {
    const wanted = [...new Set(frontier)].filter((id) => !touched.has(id) && !parents.has(id));
    if (!wanted.length) break;
    const found = byEntity(await inScope(db, theirs, wanted));
    for (const id of wanted) parents.set(id, found.get(id)?.parentId ?? null);
    frontier = [...found.values()].flatMap((e) => (e.parentId ? [e.parentId] : []));
  }
  return parents;
}

/** Untouched pages that share a parent and a slug with a touched page's merged version. */
async function sameSlugSiblings(db: Queryable, theirs: RevisionScope, touched: Map<string, Versions>, merged: Iterable<MergeVersion | null>) {
  const slots = [...merged].filter((v): v is MergeVersion => !!v && v.kind === 'page' && v.slug !== '');
  if (!slots.length) return new Map<string | null, { id: string; slug: string }[]>();
  // By parent and slug (an index of both): never the pages of a large parent that do not collide.
  const parents = [...new Set(slots.map((s) => s.parentId).filter((id): id is string => id !== null))];
  const under = [...(parents.length ? [sql`e."parentId" = ANY(${parents}::text[])`] : []), ...(slots.some((s) => s.parentId === null) ? [sql`e."parentId" IS NULL`] : [])];
  const rows = await readEntries(db, theirs, [sql`e."kind" = 'page'`, sql`(${Prisma.join(under, ' OR ')})`, sql`e."slug" = ANY(${[...new Set(slots.map((s) => s.slug))]}::text[])`]);
  const out = new Map<string | null, { id: string; slug: string }[]>();
  for (const row of rows) if (!touched.has(row.entityId)) out.set(row.parentId, [...(out.get(row.parentId) ?? []), { id: row.entityId, slug: row.slug }]);
  return out;
}

/** The merged version the stored way: its body stored (or reused) by ID. */
async function toStored(tx: Prisma.TransactionClient, merged: MergeVersion, versions: Versions): Promise<EntityVersion> {
  const { type, title, ...data } = merged.fields as { type: string; title: string } & Record<string, unknown>;
  const sides = [versions.ours, versions.theirs, versions.base];
  let documentId: string | null = null;
  if (merged.document) [documentId] = await putDocuments(tx, [merged.document]);
  const createdAt = sides.find((s) => s)?.createdAt ?? new Date();
  return { parentId: merged.parentId, position: merged.position, type: String(type ?? ''), title: String(title ?? ''), slug: merged.slug, documentId, data, createdAt };
}

/** `conflictsOnly`: stop once the conflicts are known (stores nothing: a read can ask). */
export async function threeWay(tx: Prisma.TransactionClient, sides: Sides, opts: { conflictsOnly?: boolean } = {}): Promise<ThreeWay> {
  const ids = [...new Set([...(await ownIds(tx, sides.ours)), ...(await changedSince(tx, sides.base, sides.theirs))])];
  if (!ids.length) return { merged: [], conflicts: [] };
  const [base, ours, theirs] = (await Promise.all([inScope(tx, sides.base, ids), inScope(tx, sides.ours, ids), inScope(tx, sides.theirs, ids)])).map(byEntity);
  const touched = new Map<string, Versions>(ids.map((id) => [id, { base: base.get(id) ?? null, ours: ours.get(id) ?? null, theirs: theirs.get(id) ?? null }]));
  const documents = await loadDocuments(tx, [...touched.values()].flatMap((v) => [v.base, v.ours, v.theirs]).flatMap((e) => (e?.documentId ? [e.documentId] : [])));
  const input = new Map([...touched].map(([id, v]) => [id, { base: toMerge(v.base, documents), ours: toMerge(v.ours, documents), theirs: toMerge(v.theirs, documents) }]));
  const parents = await ancestry(tx, sides.theirs, touched);
  const candidates = [...input.values()].flatMap((v) => [v.ours, v.theirs]);
  const siblings = await sameSlugSiblings(tx, sides.theirs, touched, candidates);
  const result = mergeEntities({ touched: input, parentOf: (id) => parents.get(id), childrenOf: (parentId) => siblings.get(parentId) ?? [] });
  if (result.conflicts.length || opts.conflictsOnly) return { merged: [], conflicts: result.conflicts };
  const merged: MergedEntity[] = [];
  for (const [id, version] of result.merged) {
    const versions = touched.get(id)!;
    const kind = (versions.ours ?? versions.theirs ?? versions.base)!.kind;
    merged.push({ kind, entityId: id, version: version && (await toStored(tx, version, versions)), theirs: versions.theirs });
  }
  return { merged, conflicts: [] };
}

/** Whether a merged version is exactly the stored entry (null: both absent). */
export const sameAs = (version: EntityVersion | null, entry: Entry | null): boolean => sameVersion(version, entry as EntityVersion | null);
