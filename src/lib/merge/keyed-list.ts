/**
 * Three-way merge of a list of identified items (blocks among siblings, a block's fragments):
 * each item merged on its own, then the order merged by `mergeSequence` and cut down to the
 * items that survive. An id placed twice keeps its first place, and an item that survives but
 * lost its place (kept edited against a deletion) goes back after its predecessor on ours' side
 * (theirs' if ours lacks it); both count as disputed.
 */
import { mergeSequence } from './sequence.js';

export type Slot<T> = { base: T | null; ours: T | null; theirs: T | null };

/** `selfConflict`: the item itself is in conflict (its order is then not disputed separately). */
export type ItemMerge<T, C> = { value: T | null; conflicts: C[]; selfConflict: boolean };

export type ListMerge<T, C> = {
  items: T[];
  conflicts: C[];
  /** Items whose place the two sides dispute (other than those in conflict themselves). */
  disputed: { id: string; slot: Slot<T> }[];
};

export function mergeKeyedList<T, C>(
  lists: { base: readonly T[]; ours: readonly T[]; theirs: readonly T[] },
  identify: (items: readonly T[]) => string[],
  mergeItem: (id: string, slot: Slot<T>) => ItemMerge<T, C>,
): ListMerge<T, C> {
  const ids = { base: identify(lists.base), ours: identify(lists.ours), theirs: identify(lists.theirs) };
  const lookup = (side: 'base' | 'ours' | 'theirs') => {
    const map = new Map<string, T>();
    ids[side].forEach((id, i) => map.set(id, lists[side][i]));
    return map;
  };
  const versions = { base: lookup('base'), ours: lookup('ours'), theirs: lookup('theirs') };
  const slotOf = (id: string): Slot<T> => ({
    base: versions.base.get(id) ?? null,
    ours: versions.ours.get(id) ?? null,
    theirs: versions.theirs.get(id) ?? null,
  });

  const conflicts: C[] = [];
  const results = new Map<string, ItemMerge<T, C>>();
  for (const id of new Set([...ids.ours, ...ids.theirs, ...ids.base])) {
    const result = mergeItem(id, slotOf(id));
    results.set(id, result);
    conflicts.push(...result.conflicts);
  }

  const survives = (id: string) => results.get(id)?.value != null;
  const sequence = mergeSequence(ids.base, ids.ours, ids.theirs, survives);
  const disputedIds = new Set([...sequence.disputed].filter(survives));
  const order: string[] = [];
  const placed = new Set<string>();
  for (const id of sequence.ids) {
    if (!survives(id)) continue;
    if (placed.has(id)) {
      disputedIds.add(id);
    } else {
      order.push(id);
      placed.add(id);
    }
  }
  for (const side of [ids.ours, ids.theirs]) {
    side.forEach((id, at) => {
      if (placed.has(id) || !survives(id)) return;
      disputedIds.add(id);
      let index = 0;
      for (let i = at - 1; i >= 0; i--) {
        const before = order.indexOf(side[i]);
        if (before >= 0) {
          index = before + 1;
          break;
        }
      }
      order.splice(index, 0, id);
      placed.add(id);
    });
  }

  const disputed = [...disputedIds].filter((id) => !results.get(id)?.selfConflict).map((id) => ({ id, slot: slotOf(id) }));
  return { items: order.map((id) => results.get(id)!.value!), conflicts, disputed };
}
