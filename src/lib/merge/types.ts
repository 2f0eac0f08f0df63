/**
 * Shapes of the three-way merge of a space's content: `base` is the common ancestor, `ours` the
 * revision merged into (the target), `theirs` the revision merged from (the change request).
 */
import type { BlockNode, JSONDocument } from '../documents/types.js';

/**
 * Two sides changed one block in ways that cannot be combined. `path` holds block keys from the
 * top level down, the last naming the conflicting block (a keyless block appears as `#<index>`
 * among its siblings). A conflict on the document's own `data` has an empty path and carries
 * the three values as pseudo-blocks `{object: 'block', type: 'document', data}`.
 */
export type BlockConflict = { path: string[]; base: BlockNode | null; ours: BlockNode | null; theirs: BlockNode | null };

/** With conflicts, `document` takes ours for every conflicting block: shown, never written. */
export type DocumentMerge = { document: JSONDocument; conflicts: BlockConflict[] };

export type EntityKind = 'page' | 'file' | 'reusable-content';

/** One entity (page, file, reusable content) as it stands in one revision. */
export type EntityVersion = {
  kind: EntityKind;
  /** Pages only: the parent page, null at the top level. */
  parentId: string | null;
  /** Order among siblings (fractional-indexing keys, compared as plain strings). */
  position: string;
  /** Pages: unique among siblings; files and reusable contents: ''. */
  slug: string;
  /** Every other attribute, merged field by field (deep equality). */
  fields: Record<string, unknown>;
  /** The body (pages of type document, reusable contents), or null. */
  document: JSONDocument | null;
};

/** An entity in the three revisions; null = absent there (not yet created, or deleted). */
export type EntityVersions = { base: EntityVersion | null; ours: EntityVersion | null; theirs: EntityVersion | null };

export type EntityConflictReason =
  | 'edit-edit'
  | 'field'
  | 'delete-edit'
  | 'move-move'
  | 'cycle'
  | 'orphan'
  | 'path'
  | 'group-nesting'
  | 'document';

export type EntityConflict = {
  entityId: string;
  kind: EntityKind;
  reason: EntityConflictReason;
  /** `field` conflicts: the field (a key of `fields`, or 'slug' / 'kind'). */
  field?: string;
  /** `document` conflicts: the blocks in conflict (absent when one side has no body at all). */
  blocks?: BlockConflict[];
} & EntityVersions;

export type MergeEntitiesInput = {
  /** Every entity changed on at least one side. */
  touched: Map<string, EntityVersions>;
  /** The parent of an entity NOT in `touched` (same in all three): null at the top level, undefined if it does not exist. */
  parentOf: (id: string) => string | null | undefined;
  /**
   * Optional: the pages under `parentId` (same in all three revisions). Only used to find slug
   * collisions between a merged page and an untouched sibling; entries in `touched` are ignored.
   */
  childrenOf?: (parentId: string | null) => Iterable<{ id: string; slug: string }>;
};

/** `merged` has one entry per touched id: the merged version, or null when absent. */
export type EntityMerge = { merged: Map<string, EntityVersion | null>; conflicts: EntityConflict[] };
