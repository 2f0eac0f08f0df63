/** The links of one revision page: inline links of a document page, the target of a link page. */
import type { PageWithBody } from '../revisions/bodies.js';
import { asContentRef, isObject, type ContentRef } from './content-ref.js';

export type LinkLocation = { page: string; path: string };
export type PageLink = { target: ContentRef; location: LinkLocation };

type LinkSourcePage = Pick<PageWithBody, 'id' | 'path' | 'type' | 'document' | 'target'>;

/**
 * The `data.ref` of every inline `link` node of a JSON document, in document order. Children are
 * in `nodes` (blocks, inlines, texts) and in `fragments` (expandables, tables, captions); the walk
 * uses its own stack, so a deeply nested document cannot overflow the call stack.
 */
function* inlineLinkRefs(document: unknown): Generator<unknown> {
  const stack: unknown[] = [document];
  while (stack.length) {
    const node = stack.pop();
    if (!isObject(node)) continue;
    if (node.object === 'inline' && node.type === 'link') yield isObject(node.data) ? node.data.ref : undefined;
    const children = [...(Array.isArray(node.nodes) ? node.nodes : []), ...(Array.isArray(node.fragments) ? node.fragments : [])];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

/** Links whose reference is not a JSON object are skipped: there is no target to report. */
export function* extractLinks(page: LinkSourcePage): Generator<PageLink> {
  const location = { page: page.id, path: page.path };
  const refs = page.type === 'document' ? inlineLinkRefs(page.document) : page.type === 'link' ? [page.target] : [];
  for (const value of refs) {
    const target = asContentRef(value);
    if (target) yield { target, location };
  }
}
