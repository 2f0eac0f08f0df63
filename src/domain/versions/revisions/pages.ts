/** Pages of a revision as the API answers them: the whole tree, or one page with its path and subtree. */
import type { Queryable } from '../../kernel/pagination/keyset.js';
import type { PageEntry } from './entries.js';
import { ancestors, allPages, descendants, entityIn, pageAtPath } from './read.js';
import type { RevisionScope } from './scope.js';
import { buildTree, pathOf, type PageNode } from './tree.js';

export async function pageTree(db: Queryable, scope: RevisionScope): Promise<PageNode[]> {
  return buildTree(await allPages(db, scope));
}

/** One page with its complete path and its descendants (statements: one per level above and below it). */
async function withSubtree(db: Queryable, scope: RevisionScope, page: PageEntry, path?: string): Promise<PageNode> {
  const [above, below] = await Promise.all([path === undefined ? ancestors(db, scope, page) : Promise.resolve([]), descendants(db, scope, page.entityId)]);
  const fullPath = path ?? pathOf(page, above);
  return { entry: page, path: fullPath, children: buildTree(below, page.entityId, fullPath) };
}

export async function pageById(db: Queryable, scope: RevisionScope, pageId: string): Promise<PageNode | null> {
  const page = (await entityIn(db, scope, 'page', pageId)) as PageEntry | null;
  return page && withSubtree(db, scope, page);
}

export async function pageByPath(db: Queryable, scope: RevisionScope, path: string): Promise<PageNode | null> {
  const page = await pageAtPath(db, scope, path);
  return page && withSubtree(db, scope, page, path.split('/').filter(Boolean).join('/'));
}
