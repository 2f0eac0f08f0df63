/** A revision's pages as a tree: siblings in position order, each page with its full path. */
import type { PageEntry } from './entries.js';

export type PageNode = { entry: PageEntry; path: string; children: PageNode[] };

/** Fractional positions compare byte-wise; ties (which writes avoid) fall back to the ID. */
export const bySiblingOrder = (a: PageEntry, b: PageEntry) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : a.entityId < b.entityId ? -1 : a.entityId > b.entityId ? 1 : 0;

export const joinPath = (parentPath: string, slug: string) => (parentPath ? `${parentPath}/${slug}` : slug);

/**
 * The tree under `rootParentId` (null: the whole revision) built from `pages`, with paths relative
 * to `basePath` (the path of `rootParentId`). Pages whose parent is not among `pages` are left out.
 */
export function buildTree(pages: readonly PageEntry[], rootParentId: string | null = null, basePath = ''): PageNode[] {
  const byParent = new Map<string | null, PageEntry[]>();
  for (const page of pages) {
    const list = byParent.get(page.parentId) ?? [];
    list.push(page);
    byParent.set(page.parentId, list);
  }
  const seen = new Set<string>();
  const build = (parentId: string | null, parentPath: string): PageNode[] =>
    (byParent.get(parentId) ?? [])
      .filter((p) => !seen.has(p.entityId) && seen.add(p.entityId))
      .sort(bySiblingOrder)
      .map((entry) => {
        const path = joinPath(parentPath, entry.slug);
        return { entry, path, children: build(entry.entityId, path) };
      });
  return build(rootParentId, basePath);
}

/** The path of a page given its ancestors, nearest first. */
export const pathOf = (page: PageEntry, ancestors: readonly PageEntry[]) => [...ancestors].reverse().map((a) => a.slug).concat(page.slug).join('/');

/** Every node of the tree, depth-first. */
export function* walk(nodes: readonly PageNode[]): Generator<PageNode> {
  for (const node of nodes) {
    yield node;
    yield* walk(node.children);
  }
}
