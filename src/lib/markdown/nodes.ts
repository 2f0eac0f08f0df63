/**
 * Builders and readers for document nodes. Builders give every block, inline and fragment a new
 * key; readers tolerate malformed nodes (documents from clients), never throwing on them.
 */
import { newKey } from '../documents/keys.js';
import type { BlockNode, FragmentNode, InlineNode, Leaf, Mark, TextNode } from '../documents/types.js';

export type InlineChild = InlineNode | TextNode;
export type Data = Record<string, unknown>;

export const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

export const leaf = (text: string, marks: Mark[] = []): Leaf => ({ object: 'leaf', text, marks });
export const textNode = (text = '', marks: Mark[] = []): TextNode => ({ object: 'text', leaves: [leaf(text, marks)] });
export const mark = (type: string, data?: Data): Mark => (data ? { object: 'mark', type, data } : { object: 'mark', type });

/** A non-void block with children (`nodes`). */
export const block = (type: string, data: Data, nodes: (BlockNode | InlineChild)[]): BlockNode => ({
  object: 'block',
  type,
  key: newKey(),
  isVoid: false,
  data,
  nodes,
});

/** A void block: no `nodes`; content, if any, lives in `data` and `fragments`. */
export const voidBlock = (type: string, data: Data, fragments?: FragmentNode[]): BlockNode => ({
  object: 'block',
  type,
  key: newKey(),
  isVoid: true,
  data,
  ...(fragments ? { fragments } : {}),
});

export const inline = (type: string, data: Data, nodes?: InlineChild[]): InlineNode =>
  nodes ? { object: 'inline', type, key: newKey(), isVoid: false, data, nodes } : { object: 'inline', type, key: newKey(), isVoid: true, data };

export const fragment = (name: string, nodes: BlockNode[], type?: string): FragmentNode => ({
  object: 'fragment',
  key: newKey(),
  fragment: name,
  ...(type ? { type } : {}),
  nodes,
});

export const paragraph = (nodes: InlineChild[] = [textNode()]): BlockNode => block('paragraph', {}, nodes.length ? nodes : [textNode()]);

// ---- readers ----

export const dataOf = (node: unknown): Data => (isRecord(node) && isRecord(node.data) ? node.data : {});
export const typeOf = (node: unknown): string => (isRecord(node) && typeof node.type === 'string' ? node.type : '');
export const stringField = (data: Data, field: string): string | undefined => (typeof data[field] === 'string' ? (data[field] as string) : undefined);

/** The children of a node, keeping only objects (a malformed `nodes` reads as empty). */
export function childrenOf(node: unknown): (BlockNode | InlineChild)[] {
  if (!isRecord(node) || !Array.isArray(node.nodes)) return [];
  return node.nodes.filter(isRecord) as (BlockNode | InlineChild)[];
}

export const blockChildren = (node: unknown): BlockNode[] => childrenOf(node).filter((n): n is BlockNode => n.object === 'block');
export const inlineChildren = (node: unknown): InlineChild[] => childrenOf(node).filter((n): n is InlineChild => n.object === 'inline' || n.object === 'text');

export function fragmentsOf(node: unknown): FragmentNode[] {
  if (!isRecord(node) || !Array.isArray(node.fragments)) return [];
  return node.fragments.filter((f): f is FragmentNode => isRecord(f) && typeof f.fragment === 'string');
}

export const fragmentNamed = (node: unknown, name: string): FragmentNode | undefined => fragmentsOf(node).find((f) => f.fragment === name);

export function leavesOf(node: unknown): Leaf[] {
  if (!isRecord(node) || !Array.isArray(node.leaves)) return [];
  return node.leaves.filter((l): l is Leaf => isRecord(l) && typeof l.text === 'string');
}

export const marksOf = (l: Leaf): Mark[] => (Array.isArray(l.marks) ? l.marks.filter((m): m is Mark => isRecord(m) && typeof m.type === 'string') : []);

/** The text of a node and its descendants (texts, inlines, blocks, fragments), blocks joined by newlines. */
export function plainText(node: unknown, depth = 0): string {
  if (!isRecord(node) || depth > 200) return '';
  if (node.object === 'text') return leavesOf(node).map((l) => l.text).join('');
  const children = childrenOf(node);
  const fragments = fragmentsOf(node);
  const blockLevel = fragments.length > 0 || children.some((c) => c.object === 'block');
  const parts = children.map((c) => plainText(c, depth + 1));
  for (const f of fragments) if (Array.isArray(f.nodes)) parts.push(...f.nodes.map((n) => plainText(n, depth + 1)));
  return blockLevel ? parts.filter((p) => p !== '').join('\n') : parts.join('');
}
