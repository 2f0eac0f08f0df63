/** Expected JSON documents of the markdown suites, written short (keys left out, inline content as the editor keeps it). */
import type { BlockNode, FragmentNode, InlineNode, JSONDocument, Mark, TextNode } from '../../src/lib/documents/types.js';

export type Inline = InlineNode | TextNode;

export const mark = (type: string, data?: Record<string, unknown>): Mark => (data ? { object: 'mark', type, data } : { object: 'mark', type });
export const text = (value: string, ...marks: Mark[]): TextNode => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks }] });
export const leaves = (...parts: [string, ...Mark[]][]): TextNode => ({ object: 'text', leaves: parts.map(([value, ...marks]) => ({ object: 'leaf', text: value, marks })) });

/** A text before, between and after inlines. */
export function inlines(...nodes: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const n of nodes) {
    if (n.object === 'inline' && out[out.length - 1]?.object !== 'text') out.push(text(''));
    out.push(n);
  }
  if (out[out.length - 1]?.object !== 'text') out.push(text(''));
  return out;
}

export const block = (type: string, data: Record<string, unknown>, nodes: (BlockNode | Inline)[]): BlockNode => ({ object: 'block', type, isVoid: false, data, nodes });
export const voidBlock = (type: string, data: Record<string, unknown>, fragments?: FragmentNode[]): BlockNode => ({
  object: 'block',
  type,
  isVoid: true,
  data,
  ...(fragments ? { fragments } : {}),
});
export const fragment = (name: string, nodes: BlockNode[], type?: string): FragmentNode => ({ object: 'fragment', fragment: name, ...(type ? { type } : {}), nodes });
export const p = (...nodes: Inline[]) => block('paragraph', {}, inlines(...nodes));
export const url = (u: string) => ({ kind: 'url', url: u });
export const link = (ref: Record<string, unknown>, ...nodes: Inline[]): InlineNode => ({ object: 'inline', type: 'link', isVoid: false, data: { ref }, nodes: inlines(...nodes) });
export const codeBlock = (data: Record<string, unknown>, ...lines: string[]) => block('code', data, lines.map((l) => block('code-line', {}, [text(l)])));
export const doc = (...nodes: BlockNode[]): JSONDocument => ({ object: 'document', data: {}, nodes });
