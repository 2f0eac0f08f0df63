/** Three-way merge of a revision's entities (pages, files, reusable contents), then of its page tree. */
import { mergeEntity } from './entity.js';
import { treeConflicts } from './tree.js';
import type { EntityConflict, EntityMerge, EntityVersion, MergeEntitiesInput } from './types.js';

export function mergeEntities(input: MergeEntitiesInput): EntityMerge {
  const merged = new Map<string, EntityVersion | null>();
  const conflicts: EntityConflict[] = [];
  for (const [id, versions] of input.touched) {
    const result = mergeEntity(id, versions);
    merged.set(id, result.value);
    conflicts.push(...result.conflicts);
  }
  conflicts.push(...treeConflicts(input, merged));
  return { merged, conflicts };
}
