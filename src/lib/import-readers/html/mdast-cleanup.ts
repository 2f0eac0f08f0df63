/**
 * Tidies the mdast converted from a page before it is written: no raw HTML, no links that run
 * script, no images without a usable address, no links without text.
 */
import type { Nodes, Parents } from 'mdast';
import { MAX_URL_LENGTH, SCRIPT_SCHEMES } from './links.js';

const textOf = (node: Nodes): string => ('value' in node ? node.value : 'children' in node ? (node.children as Nodes[]).map(textOf).join('') : '');

function replacement(node: Nodes): Nodes[] | null {
  if (node.type === 'html') return [];
  if (node.type === 'image') return !node.url || node.url.length > MAX_URL_LENGTH || SCRIPT_SCHEMES.test(node.url) ? [] : null;
  if (node.type !== 'link') return null;
  if (!node.children.some((c) => c.type === 'image') && !textOf(node).trim()) return [];
  if (!node.url || node.url.length > MAX_URL_LENGTH || SCRIPT_SCHEMES.test(node.url)) return node.children;
  return null;
}

/** Depth is bounded by the hast tree it came from (see hast-walk.ts), so recursion is safe here. */
export function cleanMdast(parent: Parents): void {
  const out: Nodes[] = [];
  for (const child of parent.children as Nodes[]) {
    const replaced = replacement(child);
    if (replaced === null) {
      if ('children' in child) cleanMdast(child);
      out.push(child);
      continue;
    }
    for (const node of replaced) {
      if ('children' in node) cleanMdast(node);
      out.push(node);
    }
  }
  parent.children = out as typeof parent.children;
}
