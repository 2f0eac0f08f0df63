/**
 * Three-way merge of one revision entity (page, file, reusable content). An entity changed on
 * one side only takes that side; changed on both, its parts are merged separately:
 * - `kind`, `slug` and each key of `fields` as whole values (a `field` conflict per difference);
 * - `parentId` and `position` together as a move: both moved to different parents is a
 *   `move-move` conflict; both moved under the same parent to different positions is no
 *   conflict and takes ours' position (sibling order is cosmetic, and fractional keys from two
 *   sides cannot be combined meaningfully);
 * - `document` by `mergeDocuments`, its block conflicts becoming one `document` conflict.
 * Conflicting parts keep ours.
 */
import { emptyDocument, type JSONDocument } from '../documents/types.js';
import { mergeDocuments } from './documents.js';
import { deepEqual } from './equal.js';
import { mergeProps, mergeValue } from './three-way.js';
import type { BlockConflict, EntityConflict, EntityConflictReason, EntityVersion, EntityVersions } from './types.js';

export function mergeEntity(entityId: string, versions: EntityVersions): { value: EntityVersion | null; conflicts: EntityConflict[] } {
  const { base, ours, theirs } = versions;
  const kind = (ours ?? theirs ?? base)?.kind ?? 'page';
  const conflict = (reason: EntityConflictReason, extra: Partial<EntityConflict> = {}): EntityConflict => ({ entityId, kind, reason, ...extra, ...versions });

  if (deepEqual(ours, theirs)) return { value: ours, conflicts: [] };
  if (deepEqual(base, ours)) return { value: theirs, conflicts: [] };
  if (deepEqual(base, theirs)) return { value: ours, conflicts: [] };
  if (base === null) return { value: ours, conflicts: [conflict('edit-edit')] }; // created on both sides, differently
  if (ours === null || theirs === null) return { value: ours, conflicts: [conflict('delete-edit')] };

  const conflicts: EntityConflict[] = [];
  const field = <T>(name: string, b: T, o: T, t: T): T => {
    const merged = mergeValue(b, o, t);
    if (merged.ok) return merged.value;
    conflicts.push(conflict('field', { field: name }));
    return o;
  };
  const merged: EntityVersion = {
    kind: field('kind', base.kind, ours.kind, theirs.kind),
    ...mergeMove(base, ours, theirs, () => conflicts.push(conflict('move-move'))),
    slug: field('slug', base.slug, ours.slug, theirs.slug),
    fields: mergeFields(base.fields, ours.fields, theirs.fields, (name) => conflicts.push(conflict('field', { field: name }))),
    document: mergeBody(base.document, ours.document, theirs.document, (blocks) => conflicts.push(conflict('document', blocks ? { blocks } : {}))),
  };
  return { value: merged, conflicts };
}

type Place = Pick<EntityVersion, 'parentId' | 'position'>;

function mergeMove(base: EntityVersion, ours: EntityVersion, theirs: EntityVersion, onConflict: () => void): Place {
  const moved = (v: EntityVersion) => v.parentId !== base.parentId || v.position !== base.position;
  const place = (v: EntityVersion): Place => ({ parentId: v.parentId, position: v.position });
  if (!moved(ours)) return place(theirs);
  if (!moved(theirs)) return place(ours);
  if (ours.parentId !== theirs.parentId) onConflict();
  return place(ours);
}

function mergeFields(base: Record<string, unknown>, ours: Record<string, unknown>, theirs: Record<string, unknown>, onConflict: (field: string) => void) {
  const merged = mergeProps(base ?? {}, ours ?? {}, theirs ?? {});
  merged.conflicts.forEach(onConflict);
  return merged.value;
}

/** `onConflict` gets the block conflicts, or nothing when one side has no body and the other changed it. */
function mergeBody(base: JSONDocument | null, ours: JSONDocument | null, theirs: JSONDocument | null, onConflict: (blocks?: BlockConflict[]) => void) {
  const whole = mergeValue(base, ours, theirs);
  if (whole.ok) return whole.value;
  if (ours === null || theirs === null) {
    onConflict();
    return ours;
  }
  // Bodies added on both sides are merged against an empty one.
  const merged = mergeDocuments(base ?? emptyDocument(), ours, theirs);
  if (merged.conflicts.length) onConflict(merged.conflicts);
  return merged.document;
}
