/**
 * The text of any subtree without recursion (an explicit stack), so that arbitrarily deep
 * documents can still be shown: what lies below MAX_DEPTH, heading titles, alt texts.
 */
import { isRecord } from '../../../lib/markdown/nodes.js';
import { emojiText } from '../../../lib/markdown/to-inlines.js';

const BREAK = Symbol('block break');

/** Text of the nodes in document order; blocks are separated by one newline. */
export function textOf(nodes: unknown): string {
  const parts: string[] = [];
  const stack: unknown[] = [nodes];
  while (stack.length) {
    const item = stack.pop();
    if (item === BREAK) {
      if (parts.length && parts[parts.length - 1] !== '\n') parts.push('\n');
      continue;
    }
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]);
      continue;
    }
    if (!isRecord(item)) continue;
    if (item.object === 'text') {
      if (Array.isArray(item.leaves)) for (const leaf of item.leaves) if (isRecord(leaf) && typeof leaf.text === 'string') parts.push(leaf.text);
      continue;
    }
    const data = isRecord(item.data) ? item.data : {};
    if (item.type === 'emoji') parts.push(emojiText(data.code));
    if ((item.type === 'inline-math' || item.type === 'math') && typeof data.formula === 'string') parts.push(data.formula);
    const isBlock = item.object === 'block' || item.object === 'fragment';
    // Popped last to first: children, then fragments, then the break after the block.
    if (isBlock) stack.push(BREAK);
    if (Array.isArray(item.fragments)) stack.push(item.fragments);
    if (Array.isArray(item.nodes)) stack.push(item.nodes);
  }
  return parts.join('').trim();
}
