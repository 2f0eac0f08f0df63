/** A revision's pages with their paths and bodies, in tree order: what whole-revision scans need. */
import type { JSONDocument } from '../documents/types.js';
import type { Queryable } from '../pagination/keyset.js';
import { loadDocuments } from './documents.js';
import { pageData, type PageType } from './entries.js';
import { allPages } from './read.js';
import type { RevisionScope } from './scope.js';
import { buildTree, walk } from './tree.js';

export type PageWithBody = {
  id: string;
  parentId: string | null;
  path: string;
  type: PageType;
  title: string;
  document: JSONDocument | null;
  /** Link pages: their target (a ContentRef). */
  target: unknown;
};

/** Loads every page and document of the revision: for link reports over a whole revision only. */
export async function pagesWithBodies(db: Queryable, scope: RevisionScope): Promise<PageWithBody[]> {
  const tree = buildTree(await allPages(db, scope));
  const nodes = [...walk(tree)];
  const documents = await loadDocuments(db, nodes.flatMap((n) => (n.entry.documentId ? [n.entry.documentId] : [])));
  return nodes.map(({ entry, path }) => ({
    id: entry.entityId,
    parentId: entry.parentId,
    path,
    type: entry.type,
    title: entry.title,
    document: entry.documentId ? (documents.get(entry.documentId) ?? null) : null,
    target: pageData(entry).target,
  }));
}
