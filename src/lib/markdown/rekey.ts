/**
 * Keys across re-imports. Markdown carries no block keys, so an imported document is matched
 * against the page's previous document; otherwise every re-import would look like a rewrite of
 * every block and merges would conflict constantly.
 *
 * - A block whose markdown is the same as a previous block's (same type, data and text as far as
 *   markdown can tell) is that previous block: it is taken over whole, key, inline keys and any
 *   data markdown cannot carry (table column ids and widths, highlighted code lines…) included.
 * - A container (hint, tabs, list, blockquote, expandable…) whose own markdown, children left out,
 *   matches a previous one keeps that block's key, and its children are matched the same way,
 *   within it. So one changed paragraph in a hint gives a new key to that paragraph only.
 * - Anything else gets a new key. Matching follows content, not position: a moved block keeps its key.
 */
import { newKey } from '../documents/keys.js';
import type { BlockNode, FragmentNode, JSONDocument } from '../documents/types.js';
import { blockChildren, fragmentsOf, isRecord } from './nodes.js';
import type { WriteOptions } from './refs.js';
import { blocksToMarkdown } from './to-blocks.js';

const isContainer = (b: BlockNode) =>
  b.type !== 'table' && b.type !== 'code' && (blockChildren(b).length > 0 || fragmentsOf(b).some((f) => Array.isArray(f.nodes) && f.nodes.length > 0));

export function preserveKeys(document: JSONDocument, previous: JSONDocument, options: WriteOptions = {}): JSONDocument {
  const signatures = new Map<BlockNode, string>();
  const write = (b: BlockNode) => `${b.type}\n${blocksToMarkdown([b], { ...options, depth: 0 })}`;
  const signature = (b: BlockNode) => {
    let s = signatures.get(b);
    if (s === undefined) signatures.set(b, (s = write(b)));
    return s;
  };
  const shell = (b: BlockNode) =>
    write({ ...b, nodes: b.nodes ? [] : undefined, fragments: b.fragments ? fragmentsOf(b).map((f) => ({ ...f, nodes: [] })) : undefined });

  const matchFragments = (fresh: FragmentNode[], old: FragmentNode[]): FragmentNode[] =>
    fresh.map((f) => {
      const before = old.find((o) => o.fragment === f.fragment);
      return before ? { ...f, key: before.key ?? f.key, nodes: matchList(f.nodes, blockChildren(before)) } : f;
    });

  function matchList(fresh: BlockNode[], old: BlockNode[]): BlockNode[] {
    const result = fresh.slice();
    const used = new Set<number>();
    const matched = new Set<number>();
    const bySignature = new Map<string, number[]>();
    old.forEach((o, j) => {
      const s = signature(o);
      if (!bySignature.has(s)) bySignature.set(s, []);
      bySignature.get(s)!.push(j);
    });
    fresh.forEach((b, i) => {
      const candidates = bySignature.get(signature(b));
      const j = candidates?.shift();
      if (j === undefined) return;
      used.add(j);
      matched.add(i);
      result[i] = structuredClone(old[j]);
    });
    fresh.forEach((b, i) => {
      if (matched.has(i) || !isContainer(b)) return;
      const own = shell(b);
      const j = old.findIndex((o, j) => !used.has(j) && o.type === b.type && isContainer(o) && shell(o) === own);
      if (j < 0) return;
      used.add(j);
      const before = old[j];
      result[i] = {
        ...b,
        key: before.key ?? b.key,
        ...(b.nodes ? { nodes: matchList(blockChildren(b), blockChildren(before)) } : {}),
        ...(b.fragments ? { fragments: matchFragments(fragmentsOf(b), fragmentsOf(before)) } : {}),
      };
    });
    return result;
  }

  return { ...document, nodes: matchList(document.nodes, blockChildren(previous)) };
}

/** Gives a new key to every block, inline and fragment without one, or whose key is taken already. */
export function ensureKeys(document: JSONDocument): JSONDocument {
  const seen = new Set<string>();
  const stack: unknown[] = [...document.nodes];
  while (stack.length) {
    const node = stack.pop();
    if (!isRecord(node)) continue;
    const keyed = node.object === 'block' || node.object === 'inline' || node.object === 'fragment';
    if (keyed || typeof node.key === 'string') {
      if (typeof node.key !== 'string' || !node.key || seen.has(node.key)) node.key = newKey();
      seen.add(node.key as string);
    }
    // One at a time: spreading a huge array (a table of 200,000 cells) overflows the call stack.
    if (Array.isArray(node.nodes)) for (const child of node.nodes) stack.push(child);
    if (Array.isArray(node.fragments)) for (const fragment of node.fragments) stack.push(fragment);
  }
  return document;
}
