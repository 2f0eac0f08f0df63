/**
 * Canonical inline content, so that equivalent markdown gives identical documents: marks sorted
 * and deduplicated, adjacent leaves with the same marks merged, adjacent texts merged, empty
 * leaves dropped, and the editor's invariant kept (a text before, between and after inlines).
 */
import { stringify } from 'safe-stable-stringify';
import type { Leaf, Mark, TextNode } from '../documents/types.js';
import { childrenOf, leavesOf, marksOf, type InlineChild } from './nodes.js';

const MARK_ORDER = ['bold', 'italic', 'strikethrough', 'code', 'superscript', 'subscript', 'keyboard', 'color'];

/** Identity of a mark: its type and data (two colour marks with other colours differ). */
export const markId = (m: Mark): string => (m.data ? `${m.type}:${stringify(m.data)}` : m.type);

function rank(m: Mark): number {
  const i = MARK_ORDER.indexOf(m.type);
  return i < 0 ? MARK_ORDER.length : i;
}

export function canonicalMarks(marks: readonly Mark[]): Mark[] {
  const seen = new Map<string, Mark>();
  for (const m of marks) if (!seen.has(markId(m))) seen.set(markId(m), m);
  return [...seen.values()].sort((a, b) => rank(a) - rank(b) || (markId(a) < markId(b) ? -1 : markId(a) > markId(b) ? 1 : 0));
}

const sameMarks = (a: readonly Mark[], b: readonly Mark[]) => a.length === b.length && a.every((m, i) => markId(m) === markId(b[i]));

function mergeLeaves(leaves: Leaf[]): Leaf[] {
  const out: Leaf[] = [];
  for (const l of leaves) {
    if (l.text === '') continue;
    const marks = canonicalMarks(marksOf(l));
    const last = out[out.length - 1];
    if (last && sameMarks(last.marks, marks)) last.text += l.text;
    else out.push({ object: 'leaf', text: l.text, marks });
  }
  return out;
}

/** Normalised inline children; never empty (at least one empty text). */
export function normalizeInlines(nodes: readonly InlineChild[]): InlineChild[] {
  const out: InlineChild[] = [];
  let pending: Leaf[] = [];
  let pendingKey: string | undefined;
  const flush = () => {
    const leaves = mergeLeaves(pending);
    const text: TextNode = { object: 'text', leaves: leaves.length ? leaves : [{ object: 'leaf', text: '', marks: [] }] };
    if (pendingKey) text.key = pendingKey;
    out.push(text);
    pending = [];
    pendingKey = undefined;
  };
  for (const node of nodes) {
    if (node.object === 'text') {
      pending.push(...leavesOf(node).map((l) => ({ ...l })));
      pendingKey ??= node.key;
    } else {
      flush();
      const copy = { ...node };
      if (Array.isArray(node.nodes)) copy.nodes = normalizeInlines(childrenOf(node) as InlineChild[]);
      out.push(copy);
    }
  }
  flush();
  return out;
}

/** True when inline content shows nothing at all (no text, no inline). */
export const isEmptyInlines = (nodes: readonly InlineChild[]): boolean =>
  nodes.every((n) => n.object === 'text' && leavesOf(n).every((l) => l.text === ''));
