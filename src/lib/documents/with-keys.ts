/**
 * Keys for a JSON document sent as is (a page body's `document`): merges follow blocks and inlines
 * by key, so each one without a key gets one. Free of the database and the pool, so the conversion
 * threads run it too (a large document is keyed and stored off the event loop, tasks.ts).
 */
import { newKey } from './keys.js';
import type { BlockNode, JSONDocument } from './types.js';

/** Gives every block and inline without a key one: merges follow blocks by key. */
export function withKeys(document: JSONDocument): JSONDocument {
  const visit = (node: unknown): unknown => {
    if (!node || typeof node !== 'object') return node;
    const n = node as BlockNode & { fragments?: { nodes: unknown[] }[] };
    const keyed = n.object === 'block' || n.object === 'inline' ? { ...n, key: n.key ?? newKey() } : { ...n };
    if (Array.isArray(n.nodes)) keyed.nodes = n.nodes.map(visit) as never;
    if (Array.isArray(n.fragments)) keyed.fragments = n.fragments.map((f) => ({ ...f, nodes: Array.isArray(f.nodes) ? f.nodes.map(visit) : [] })) as never;
    return keyed;
  };
  return { object: 'document', data: document.data ?? {}, nodes: document.nodes.map(visit) as BlockNode[] };
}
