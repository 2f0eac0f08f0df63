/**
 * Validity of the merged page tree, which each side's tree had but their combination may lose:
 * - `cycle`: following parents from a page comes back to it (A moved under B on one side, B
 *   under A on the other); every touched page on the cycle gets a conflict;
 * - `orphan`: a page's parent is absent from the result (or is not a page);
 * - `path`: two pages under one parent share a slug (pages without a slug, such as links, are
 *   left out); untouched siblings are only seen when `childrenOf` is given;
 * - `group-nesting`: a page of type 'group' below the top level.
 * Only touched pages are checked: untouched ones are as in all three valid trees.
 */
import type { EntityConflict, EntityConflictReason, EntityVersion, MergeEntitiesInput } from './types.js';

export function treeConflicts(input: MergeEntitiesInput, merged: Map<string, EntityVersion | null>): EntityConflict[] {
  const conflicts: EntityConflict[] = [];
  const conflict = (entityId: string, reason: EntityConflictReason) => {
    const versions = input.touched.get(entityId)!;
    const kind = (versions.ours ?? versions.theirs ?? versions.base)?.kind ?? 'page';
    conflicts.push({ entityId, kind, reason, ...versions });
  };
  const pages = [...merged].filter((entry): entry is [string, EntityVersion] => entry[1]?.kind === 'page');
  /** The parent of any entity in the result: null at the top level, undefined when absent. */
  const parentOf = (id: string): string | null | undefined => {
    if (!input.touched.has(id)) return input.parentOf(id);
    const version = merged.get(id);
    return version ? version.parentId : undefined;
  };
  const isPage = (id: string) => (input.touched.has(id) ? merged.get(id)?.kind === 'page' : input.parentOf(id) !== undefined);

  const inCycle = new Set<string>();
  for (const [id] of pages) {
    if (inCycle.has(id)) continue;
    const chain: string[] = [];
    const seen = new Set<string>();
    let current: string | null | undefined = id;
    while (current != null && !seen.has(current)) {
      seen.add(current);
      chain.push(current);
      current = parentOf(current);
    }
    if (current === id) for (const member of chain) if (input.touched.has(member)) inCycle.add(member);
  }
  for (const id of inCycle) conflict(id, 'cycle');

  for (const [id, page] of pages) if (page.parentId !== null && !isPage(page.parentId)) conflict(id, 'orphan');

  const siblings = new Map<string, string[]>();
  const slotOf = (parentId: string | null, slug: string) => JSON.stringify([parentId, slug]);
  const parents = new Set<string | null>();
  for (const [id, page] of pages) {
    if (page.slug === '') continue;
    const slot = slotOf(page.parentId, page.slug);
    siblings.set(slot, [...(siblings.get(slot) ?? []), id]);
    parents.add(page.parentId);
  }
  if (input.childrenOf) {
    for (const parentId of parents) {
      for (const child of input.childrenOf(parentId)) {
        const slot = slotOf(parentId, child.slug);
        if (!input.touched.has(child.id) && siblings.has(slot)) siblings.get(slot)!.push(child.id);
      }
    }
  }
  for (const ids of siblings.values()) if (ids.length > 1) for (const id of ids) if (input.touched.has(id)) conflict(id, 'path');

  for (const [id, page] of pages) if (page.fields?.type === 'group' && page.parentId !== null) conflict(id, 'group-nesting');
  return conflicts;
}
