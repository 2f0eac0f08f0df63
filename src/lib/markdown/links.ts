/**
 * Relative link targets. Markdown links, images, files, content-refs and includes read as
 * `{kind: 'url', url}` even for `other-page.md`: the caller knows the page tree, so it lists the
 * relative targets of an imported document, resolves them, and rewrites them with a map.
 */
import type { JSONDocument } from '../documents/types.js';
import { isRecord } from './nodes.js';
import { isRelativeUrl, type ContentRef } from './refs.js';

/** Walks every node (blocks, inlines, fragments) with its own stack; calls `visit` on each `data.ref`. */
function eachRef(document: unknown, visit: (holder: Record<string, unknown>, ref: Record<string, unknown>, type: string) => void): void {
  const stack: unknown[] = [document];
  while (stack.length) {
    const node = stack.pop();
    if (!isRecord(node)) continue;
    if (isRecord(node.data) && isRecord(node.data.ref)) visit(node.data, node.data.ref, String(node.type));
    // Children pushed last-first, so they are visited in document order.
    const children = [...(Array.isArray(node.nodes) ? node.nodes : []), ...(Array.isArray(node.fragments) ? node.fragments : [])];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

export type RelativeTarget = {
  /** The URL as written, e.g. `../guide/setup.md#install`. */
  url: string;
  /** The node types that point there: `link`, `image`, `inline-image`, `file`, `content-ref`, `reusable-content`. */
  usedBy: string[];
};

/** The distinct relative targets of a document (`{kind: 'url'}` refs that are not absolute URLs nor `#anchors`). */
export function relativeTargets(document: JSONDocument): RelativeTarget[] {
  const found = new Map<string, Set<string>>();
  eachRef(document, (_, ref, type) => {
    if (ref.kind !== 'url' || typeof ref.url !== 'string' || !isRelativeUrl(ref.url)) return;
    if (!found.has(ref.url)) found.set(ref.url, new Set());
    found.get(ref.url)!.add(type);
  });
  return [...found].map(([url, types]) => ({ url, usedBy: [...types] }));
}

/**
 * A copy of the document with `{kind: 'url'}` targets replaced by what `resolve` answers for them
 * (undefined: kept as they are). Used by imports, whose targets may be absolute URLs of other
 * imported pages.
 */
export function rewriteUrlTargets(document: JSONDocument, resolve: (url: string) => ContentRef | undefined): JSONDocument {
  const copy = structuredClone(document);
  eachRef(copy, (data, ref) => {
    if (ref.kind !== 'url' || typeof ref.url !== 'string') return;
    const target = resolve(ref.url);
    if (target) data.ref = { ...target };
  });
  return copy;
}

/**
 * A copy of the document with relative targets replaced. `targets` maps a URL as written (or its
 * part before `#`) to a reference, typically `{kind: 'page', page}` or `{kind: 'file', file}`;
 * `page.md#section` with `page.md` mapped to a page becomes `{kind: 'anchor', page, anchor}`.
 * Targets missing from the map stay as they are.
 */
export function rewriteRelativeTargets(document: JSONDocument, targets: Map<string, ContentRef> | Record<string, ContentRef>): JSONDocument {
  const lookup = (url: string) => (targets instanceof Map ? targets.get(url) : Object.hasOwn(targets, url) ? targets[url] : undefined);
  return rewriteUrlTargets(document, (url) => {
    if (!isRelativeUrl(url)) return undefined;
    const whole = lookup(url);
    if (whole) return whole;
    const hash = url.indexOf('#');
    const page = hash < 0 ? undefined : lookup(url.slice(0, hash));
    if (page?.kind === 'page' && typeof page.page === 'string') {
      return { kind: 'anchor', anchor: url.slice(hash + 1), page: page.page, ...(typeof page.space === 'string' ? { space: page.space } : {}) };
    }
    return undefined;
  });
}
