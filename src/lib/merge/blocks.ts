/**
 * Three-way merge of blocks. A leaf block (its children are inlines and texts, or it has no
 * children) is one value: changed on both sides differently, it is a conflict. A container block
 * (children that are blocks, or fragments: lists, list items, hints, tabs, blockquotes, images,
 * expandables, tables) changed on both sides is merged inside: its own properties (`type`,
 * `data`, `isVoid`...) each as a whole value, a difference there being a conflict at the block;
 * its child blocks and fragments by identity, recursively.
 */
import type { BlockNode, FragmentNode } from '../documents/types.js';
import { deepEqual } from './equal.js';
import { blockIds, fragmentIds, pathSegment } from './identity.js';
import { mergeKeyedList, type ItemMerge, type Slot } from './keyed-list.js';
import { mergeProps, omit } from './three-way.js';
import type { BlockConflict } from './types.js';

/** Code blocks hold `code-line` blocks but are one piece of code: merged as a whole value. */
const LEAF_TYPES = new Set(['code']);

const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
const isBlock = (node: unknown): node is BlockNode => node !== null && typeof node === 'object' && (node as BlockNode).object === 'block';

function canHoldBlocks(block: BlockNode): boolean {
  if (!isBlock(block) || LEAF_TYPES.has(block.type)) return false;
  if (block.nodes !== undefined && !(Array.isArray(block.nodes) && block.nodes.every(isBlock))) return false;
  if (block.fragments !== undefined && !(Array.isArray(block.fragments) && block.fragments.every((f) => f !== null && typeof f === 'object'))) return false;
  return true;
}

const hasChildBlocks = (block: BlockNode) => list(block.nodes).length > 0 || block.fragments !== undefined;

/** Merged inside only when all three versions are containers (a leaf turned list is one value). */
function isContainerMerge(base: BlockNode, ours: BlockNode, theirs: BlockNode): boolean {
  const all = [base, ours, theirs];
  return all.every(canHoldBlocks) && all.some(hasChildBlocks);
}

type Merge<T> = ItemMerge<T, BlockConflict>;

/** The outcome for an item whether present on each side or not; `inside` merges three present versions. */
function mergeSlot<T>(slot: Slot<T>, inside: (base: T, ours: T, theirs: T) => Merge<T>, conflict: () => Merge<T>): Merge<T> {
  const { base, ours, theirs } = slot;
  const take = (value: T | null): Merge<T> => ({ value, conflicts: [], selfConflict: false });
  if (deepEqual(ours, theirs)) return take(ours);
  if (deepEqual(base, ours)) return take(theirs);
  if (deepEqual(base, theirs)) return take(ours);
  if (base !== null && ours !== null && theirs !== null) return inside(base, ours, theirs);
  return conflict(); // deleted on one side and changed on the other, or created differently on both
}

export function mergeBlock(slot: Slot<BlockNode>, path: string[]): Merge<BlockNode> {
  const conflict = (): Merge<BlockNode> => ({ value: slot.ours, conflicts: [{ path, ...slot }], selfConflict: true });
  return mergeSlot(slot, (base, ours, theirs) => (isContainerMerge(base, ours, theirs) ? mergeContainer(base, ours, theirs, path) ?? conflict() : conflict()), conflict);
}

/** A container changed on both sides, or null when that is a conflict at the block itself. */
function mergeContainer(base: BlockNode, ours: BlockNode, theirs: BlockNode, path: string[]): Merge<BlockNode> | null {
  const own = mergeProps(omit(base, ['nodes', 'fragments']), omit(ours, ['nodes', 'fragments']), omit(theirs, ['nodes', 'fragments']));
  if (own.conflicts.length) return null;
  const nodes = mergeBlockList(list(base.nodes), list(ours.nodes), list(theirs.nodes), path);
  const fragments = mergeFragments(list(base.fragments), list(ours.fragments), list(theirs.fragments), path);
  if (!fragments) return null;
  const value = own.value as BlockNode;
  if (ours.nodes !== undefined || theirs.nodes !== undefined || nodes.value.length) value.nodes = nodes.value;
  if (ours.fragments !== undefined || theirs.fragments !== undefined || fragments.value.length) value.fragments = fragments.value;
  return { value, conflicts: [...nodes.conflicts, ...fragments.conflicts], selfConflict: false };
}

/** Sibling blocks under `path` (the keys of their ancestors). */
export function mergeBlockList(
  base: BlockNode[],
  ours: BlockNode[],
  theirs: BlockNode[],
  path: string[],
): { value: BlockNode[]; conflicts: BlockConflict[] } {
  // A keyless block's path segment is its index in ours, else theirs, else base.
  const index = new Map<string, number>();
  for (const blocks of [base, theirs, ours]) blockIds(blocks).forEach((id, i) => index.set(id, i));
  const at = (id: string) => [...path, pathSegment(id, index.get(id) ?? 0)];
  const merged = mergeKeyedList({ base, ours, theirs }, blockIds, (id, slot) => mergeBlock(slot, at(id)));
  const disputed = merged.disputed.map(({ id, slot }): BlockConflict => ({ path: at(id), ...slot }));
  return { value: merged.items, conflicts: [...merged.conflicts, ...disputed] };
}

/**
 * A block's fragments, known by name. Block conflicts inside a fragment keep their path (the
 * owner's path, then the keys inside); anything about a fragment itself (deleted against edited,
 * its own properties, the fragments' order) answers null: a conflict at the owning block.
 */
function mergeFragments(
  base: FragmentNode[],
  ours: FragmentNode[],
  theirs: FragmentNode[],
  path: string[],
): { value: FragmentNode[]; conflicts: BlockConflict[] } | null {
  let ownerConflict = false;
  const fragmentConflict = (value: FragmentNode | null): Merge<FragmentNode> => {
    ownerConflict = true;
    return { value, conflicts: [], selfConflict: true };
  };
  const merged = mergeKeyedList({ base, ours, theirs }, fragmentIds, (_id, slot) =>
    mergeSlot(
      slot,
      (b, o, t) => {
        const own = mergeProps(omit(b, ['nodes']), omit(o, ['nodes']), omit(t, ['nodes']));
        if (own.conflicts.length) return fragmentConflict(o);
        const nodes = mergeBlockList(list(b.nodes), list(o.nodes), list(t.nodes), path);
        return { value: { ...own.value, nodes: nodes.value } as FragmentNode, conflicts: nodes.conflicts, selfConflict: false };
      },
      () => fragmentConflict(slot.ours),
    ),
  );
  if (ownerConflict || merged.disputed.length) return null;
  return { value: merged.items, conflicts: merged.conflicts };
}
