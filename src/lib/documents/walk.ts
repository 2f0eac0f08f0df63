/**
 * Every node of a JSON document — blocks, inlines, texts, and the fragments of expandables, tables
 * and captions with what they hold — in document order. The walk keeps its own stack, so a deeply
 * nested document cannot overflow the call stack, and pushes children one at a time (spreading a
 * table of 200,000 cells into a call would).
 */
import { isObject } from './content-ref.js';

export function* documentNodes(document: unknown): Generator<Record<string, unknown>> {
  const stack: unknown[] = [document];
  while (stack.length) {
    const node = stack.pop();
    if (!isObject(node)) continue;
    yield node;
    // Last first, so they come out in document order: `nodes`, then `fragments`.
    const fragments = Array.isArray(node.fragments) ? node.fragments : [];
    const nodes = Array.isArray(node.nodes) ? node.nodes : [];
    for (let i = fragments.length - 1; i >= 0; i--) stack.push(fragments[i]);
    for (let i = nodes.length - 1; i >= 0; i--) stack.push(nodes[i]);
  }
}
