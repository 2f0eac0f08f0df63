/**
 * What a comment is anchored to: a page of its place's current content, and optionally a block
 * (or inline) of that page's document, by key. Keys survive edits of other blocks and merges
 * (merges follow blocks by key), so a comment stays on its block while the page changes; once the
 * page or the key is gone, the comment is outdated (outdated.ts).
 */
import type { JSONDocument } from '../../lib/documents/types.js';
import { documentNodes } from '../../lib/documents/walk.js';
import { badRequest } from '../../lib/errors.js';
import type { Queryable } from '../kernel/pagination/keyset.js';
import { loadDocuments } from '../versions/revisions/documents.js';
import { revisionScope } from '../versions/revisions/load.js';
import { entityIn } from '../versions/revisions/read.js';

const keysOf = new WeakMap<object, Set<string>>();

/** Every key of a document's blocks and inlines (fragments included), computed once per document object. */
export function documentKeys(document: JSONDocument): Set<string> {
  const known = keysOf.get(document);
  if (known) return known;
  const keys = new Set<string>();
  for (const node of documentNodes(document)) if (typeof node.key === 'string') keys.add(node.key);
  keysOf.set(document, keys);
  return keys;
}

export type Anchor = { pageId: string | null; nodeKey: string | null };

/**
 * Checks `page` and `node` against revision `revisionId` (in the write's transaction): an unknown
 * page is a 400 naming `page`, a node without a page or not in the page's document one naming `node`.
 */
export async function checkAnchor(db: Queryable, revisionId: string, page: string | null | undefined, node: string | null | undefined): Promise<Anchor> {
  if (node != null && page == null) throw badRequest('Invalid value for "node": a node needs its "page"', 'node');
  if (page == null) return { pageId: null, nodeKey: null };
  const entry = await entityIn(db, await revisionScope(db, revisionId), 'page', page);
  if (!entry) throw badRequest(`Invalid value for "page": no page ${page} in this content`, 'page');
  if (node == null) return { pageId: page, nodeKey: null };
  const document = entry.documentId ? (await loadDocuments(db, [entry.documentId])).get(entry.documentId) : undefined;
  if (!document || !documentKeys(document).has(node)) throw badRequest(`Invalid value for "node": no node ${node} in page ${page}`, 'node');
  return { pageId: page, nodeKey: node };
}
