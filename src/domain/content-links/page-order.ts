/** Pages of a revision in tree order: depth-first, siblings by position. */
import type { RevisionPage } from '../../generated/prisma/client.js';

type TreePage = Pick<RevisionPage, 'id' | 'parentId'>;

/** `pages` must already be sorted by position; pages whose parent is missing count as roots. */
export function inTreeOrder<P extends TreePage>(pages: P[]): P[] {
  const ids = new Set(pages.map((p) => p.id));
  const children = new Map<string | null, P[]>();
  for (const p of pages) {
    const parent = p.parentId && ids.has(p.parentId) ? p.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), p]);
  }
  const out: P[] = [];
  const seen = new Set<string>();
  const visit = (parent: string | null) => {
    for (const p of children.get(parent) ?? []) {
      if (seen.has(p.id)) continue;
      seen.add(p.id);
      out.push(p);
      visit(p.id);
    }
  };
  visit(null);
  // Pages in a parent cycle are unreachable from the roots; they still have links to report.
  return out.length === pages.length ? out : [...out, ...pages.filter((p) => !seen.has(p.id))];
}
