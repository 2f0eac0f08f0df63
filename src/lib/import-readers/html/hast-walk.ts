/**
 * Iterative walks over a hast tree. The unified utilities recurse, so a hostile page (thousands of
 * nested elements, hundreds of thousands of siblings) would overflow the stack in them: these
 * walks prune and bound the tree first, without recursion, so the utilities only see sane trees.
 */
import type { Element, Nodes, Parents, Text } from 'hast';

/** Element nesting kept below the content root; deeper subtrees become their text. */
export const MAX_DEPTH = 128;
/** Nodes kept in the content (a long docs page has a few thousand); the rest is cut off. */
export const MAX_NODES = 50_000;
/** Characters of text kept (a long book chapter); the rest is cut off. */
export const MAX_TEXT_CHARS = 1_000_000;

const hasChildren = (node: Nodes): node is Parents => 'children' in node && Array.isArray(node.children);

/** The text of a node's descendants, in document order (`<br>` as a line break). */
export function textOf(node: Nodes): string {
  const parts: string[] = [];
  const stack: Nodes[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    if (current.type === 'text') parts.push(current.value);
    else if (current.type === 'element' && current.tagName === 'br') parts.push('\n');
    else if (hasChildren(current)) for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]);
  }
  return parts.join('');
}

/** Removes every node (and its subtree) for which `remove` is true. */
export function prune(root: Parents, remove: (node: Nodes) => boolean): void {
  const stack: Parents[] = [root];
  while (stack.length) {
    const parent = stack.pop()!;
    const kept = (parent.children as Nodes[]).filter((child) => !remove(child));
    if (kept.length !== parent.children.length) parent.children = kept as typeof parent.children;
    for (const child of kept) if (hasChildren(child)) stack.push(child);
  }
}

/** Calls `visit` on every element under `root` with its ancestors (nearest last). */
export function eachElement(root: Parents, visit: (element: Element, ancestors: readonly Element[]) => void): void {
  type Frame = { node: Parents; index: number };
  const frames: Frame[] = [{ node: root, index: 0 }];
  const ancestors: Element[] = [];
  while (frames.length) {
    const frame = frames[frames.length - 1];
    if (frame.index >= frame.node.children.length) {
      frames.pop();
      if (frame.node.type === 'element') ancestors.pop();
      continue;
    }
    const child = frame.node.children[frame.index++];
    if (child.type !== 'element') continue;
    visit(child, ancestors);
    ancestors.push(child);
    frames.push({ node: child, index: 0 });
  }
}

/**
 * Caps the tree's depth (an element at MAX_DEPTH keeps only its text) and size (nodes past
 * MAX_NODES or text past MAX_TEXT_CHARS, in document order, are dropped).
 */
export function bound(root: Parents): void {
  type Frame = { node: Parents; index: number; depth: number };
  const frames: Frame[] = [{ node: root, index: 0, depth: 0 }];
  let count = 0;
  let chars = 0;
  /** Keeps `text` within the text budget. */
  const budget = (text: Text) => {
    if (chars + text.value.length > MAX_TEXT_CHARS) text.value = text.value.slice(0, MAX_TEXT_CHARS - chars);
    chars += text.value.length;
  };
  while (frames.length) {
    const frame = frames[frames.length - 1];
    if (frame.index >= frame.node.children.length) {
      frames.pop();
      continue;
    }
    const child = frame.node.children[frame.index++] as Nodes;
    if (++count > MAX_NODES || chars >= MAX_TEXT_CHARS) {
      // Keep what came before this node: each open ancestor ends at the child being visited.
      frames.forEach((f, i) => (f.node.children.length = i === frames.length - 1 ? f.index - 1 : f.index));
      return;
    }
    if (child.type === 'text') budget(child);
    if (child.type !== 'element' || !child.children.length) continue;
    if (frame.depth + 1 >= MAX_DEPTH) {
      const text: Text = { type: 'text', value: textOf(child) };
      budget(text);
      child.children = text.value ? [text] : [];
      count++;
      continue;
    }
    frames.push({ node: child, index: 0, depth: frame.depth + 1 });
  }
}
