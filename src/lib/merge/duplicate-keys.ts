/**
 * Blocks are merged per container, so a block moved into two different containers (one on each
 * side) comes out twice. Keys are unique within a document: a key the merged document holds more
 * often than either side did is a conflict at its later places.
 */
import type { BlockNode, JSONDocument } from '../documents/types.js';
import type { BlockConflict } from './types.js';

type Placed = { block: BlockNode; path: string[] };

const isBlock = (node: unknown): node is BlockNode => node !== null && typeof node === 'object' && (node as BlockNode).object === 'block';

/** Every block of a document with its path, depth first (children, then fragments' blocks). */
function* walk(nodes: unknown, path: string[]): Generator<Placed> {
  if (!Array.isArray(nodes)) return;
  for (const [i, node] of nodes.entries()) {
    if (!isBlock(node)) continue;
    const here = [...path, typeof node.key === 'string' && node.key !== '' ? node.key : `#${i}`];
    yield { block: node, path: here };
    yield* walk(node.nodes, here);
    if (Array.isArray(node.fragments)) for (const fragment of node.fragments) yield* walk(fragment?.nodes, here);
  }
}

function keyCounts(document: JSONDocument): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { block } of walk(document.nodes, [])) if (typeof block.key === 'string') counts.set(block.key, (counts.get(block.key) ?? 0) + 1);
  return counts;
}

function find(document: JSONDocument, key: string): BlockNode | null {
  for (const { block } of walk(document.nodes, [])) if (block.key === key) return block;
  return null;
}

export function duplicateKeyConflicts(merged: JSONDocument, base: JSONDocument, ours: JSONDocument, theirs: JSONDocument): BlockConflict[] {
  const [inOurs, inTheirs] = [keyCounts(ours), keyCounts(theirs)];
  const seen = new Map<string, number>();
  const conflicts: BlockConflict[] = [];
  for (const { block, path } of walk(merged.nodes, [])) {
    if (typeof block.key !== 'string') continue;
    const n = (seen.get(block.key) ?? 0) + 1;
    seen.set(block.key, n);
    if (n > Math.max(inOurs.get(block.key) ?? 0, inTheirs.get(block.key) ?? 0)) {
      conflicts.push({ path, base: find(base, block.key), ours: find(ours, block.key), theirs: find(theirs, block.key) });
    }
  }
  return conflicts;
}
