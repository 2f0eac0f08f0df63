/** Paths of some pages of a revision: their ancestors read level by level, for all of them at once. */
import type { Queryable } from '../../kernel/pagination/keyset.js';
import type { Entry } from './entries.js';
import { entitiesIn } from './read.js';
import type { RevisionScope } from './scope.js';

/** Each page's complete path (`pages` must be pages of `scope`); one statement per level of depth. */
export async function pathsOf(db: Queryable, scope: RevisionScope, pages: readonly Entry[]): Promise<Map<string, string>> {
  const known = new Map<string, Entry>(pages.map((p) => [p.entityId, p]));
  for (let wanted = parentsMissing(known); wanted.length; wanted = parentsMissing(known)) {
    const found = await entitiesIn(db, scope, 'page', wanted);
    for (const id of wanted) known.set(id, found.find((e) => e.entityId === id) ?? ({ entityId: id, parentId: null, slug: '' } as Entry));
  }
  const paths = new Map<string, string>();
  for (const page of pages) {
    const slugs: string[] = [];
    const seen = new Set<string>();
    for (let at: Entry | undefined = page; at && !seen.has(at.entityId); at = at.parentId ? known.get(at.parentId) : undefined) {
      seen.add(at.entityId);
      slugs.unshift(at.slug);
    }
    paths.set(page.entityId, slugs.filter(Boolean).join('/'));
  }
  return paths;
}

function parentsMissing(known: Map<string, Entry>): string[] {
  return [...new Set([...known.values()].flatMap((e) => (e.parentId && !known.has(e.parentId) ? [e.parentId] : [])))];
}
