/**
 * Three-way merge of an order: sibling ids (unique within each array) merged with node-diff3.
 * Regions changed on one side take that side. Where both sides changed the same region,
 * `resolveRegion` still combines them when neither reorders what it kept of the base and no
 * gap between base items receives different insertions from both sides (tried again without
 * the items that will not survive, so that moving a block the other side deleted is no dispute);
 * anything else is disputed and takes ours' order for the region, followed by what only theirs
 * placed there.
 */
import { diff3Merge } from 'node-diff3';

export type SequenceMerge = {
  /** The merged order (may repeat an id that both sides moved to different places). */
  ids: string[];
  /** Ids the two sides place differently. */
  disputed: Set<string>;
};

// node-diff3 indexes items as properties of a plain object, so an id such as "constructor" or
// "__proto__" would hit Object.prototype; no property of it starts with "=".
const wrap = (ids: readonly string[]) => ids.map((id) => `=${id}`);
const unwrap = (ids: readonly string[]) => ids.map((id) => id.slice(1));

export function mergeSequence(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
  survives: (id: string) => boolean = () => true,
): SequenceMerge {
  const ids: string[] = [];
  const disputed = new Set<string>();
  for (const region of diff3Merge(wrap(ours), wrap(base), wrap(theirs))) {
    if (region.ok) {
      ids.push(...unwrap(region.ok));
    } else if (region.conflict) {
      const [o, a, b] = [unwrap(region.conflict.o), unwrap(region.conflict.a), unwrap(region.conflict.b)];
      const resolved = resolveRegion(o, a, b) ?? resolveRegion(o.filter(survives), a.filter(survives), b.filter(survives));
      if (resolved) {
        ids.push(...resolved);
      } else {
        ids.push(...a, ...b.filter((id) => !a.includes(id)));
        for (const id of [...a, ...b]) disputed.add(id);
      }
    }
  }
  return { ids, disputed };
}

/** What one side did to a region: base items kept (in base order), items inserted before base item `gap`. */
type SideEdit = { kept: Set<string>; inserts: Map<number, string[]> };

function readSide(side: readonly string[], baseIndex: Map<string, number>): SideEdit | null {
  const kept = new Set<string>();
  const inserts = new Map<number, string[]>();
  let last = -1;
  for (const id of side) {
    const index = baseIndex.get(id);
    if (index === undefined) {
      const run = inserts.get(last + 1) ?? [];
      run.push(id);
      inserts.set(last + 1, run);
    } else {
      if (index <= last) return null; // a reorder of base items
      last = index;
      kept.add(id);
    }
  }
  return { kept, inserts };
}

/** Both sides' edits of one region combined, or null when they cannot be (symmetric in a and b). */
export function resolveRegion(o: readonly string[], a: readonly string[], b: readonly string[]): string[] | null {
  const baseIndex = new Map(o.map((id, i) => [id, i]));
  const ours = readSide(a, baseIndex);
  const theirs = readSide(b, baseIndex);
  if (!ours || !theirs) return null;
  const out: string[] = [];
  for (let gap = 0; gap <= o.length; gap++) {
    const x = ours.inserts.get(gap) ?? [];
    const y = theirs.inserts.get(gap) ?? [];
    // Insertions by both sides at one place: no order between them is better than the other.
    if (x.length && y.length && !(x.length === y.length && x.every((id, i) => id === y[i]))) return null;
    out.push(...(x.length ? x : y));
    if (gap < o.length && ours.kept.has(o[gap]) && theirs.kept.has(o[gap])) out.push(o[gap]);
  }
  return out;
}
