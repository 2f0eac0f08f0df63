/**
 * Identities of items in a list being merged. A block is its `key`. A block without one (or
 * whose key an earlier sibling already took, or whose key is not a non-empty string) is known by
 * a hash of its whole content plus the occurrence of that hash among its siblings: it survives
 * reorders and insertions around it, and any edit makes it a different block (a replacement),
 * so keyless blocks are only ever merged as whole values. A fragment is its `fragment` name.
 */
import { createHash } from 'node:crypto';
import type { BlockNode, FragmentNode } from '../documents/types.js';
import { canonicalJson } from './equal.js';

function identify<T>(items: readonly T[], nameOf: (item: T) => unknown, prefix: string): string[] {
  const taken = new Set<string>();
  const occurrences = new Map<string, number>();
  return items.map((item) => {
    const name = nameOf(item);
    if (typeof name === 'string' && name !== '' && !taken.has(`${prefix}${name}`)) {
      taken.add(`${prefix}${name}`);
      return `${prefix}${name}`;
    }
    const hash = createHash('sha1').update(canonicalJson(item)).digest('base64url');
    const n = occurrences.get(hash) ?? 0;
    occurrences.set(hash, n + 1);
    return `~${hash}.${n}`;
  });
}

const field = (item: unknown, name: string): unknown => (item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[name] : undefined);

export const blockIds = (blocks: readonly BlockNode[]): string[] => identify(blocks, (block) => field(block, 'key'), 'k:');

export const fragmentIds = (fragments: readonly FragmentNode[]): string[] => identify(fragments, (f) => field(f, 'fragment'), 'f:');

/** How a block appears in a conflict path: its key, or `#<index>` among its siblings when it has no usable key. */
export function pathSegment(id: string, index: number): string {
  return id.startsWith('k:') ? id.slice(2) : `#${index}`;
}
