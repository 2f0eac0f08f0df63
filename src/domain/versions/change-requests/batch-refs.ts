/**
 * The rules of a batch's `ref`s (the public document, `insert_page.ref` and `insert_files.files[].ref`):
 * a ref is unique within the batch, page and file refs together, and does not collide with the
 * path of a page already in the change request (`guide/install`, `guide/install.md`,
 * `guide/README.md`, `README.md`: layout.ts `pageAt`), since `./<ref>` would otherwise name two
 * things. Either is refused with a 400 naming the ref (`changes.N.ref`, `changes.N.files.M.ref`).
 */
import { badRequest } from '../../../lib/errors.js';
import { ContentLayout } from '../../../lib/markdown/index.js';
import type { PageChange } from './page-input.js';
import type { Workspace } from './workspace.js';

type BatchRef = { ref: string; field: string };

/** Every ref of the batch with where it is, in order. */
function refsOf(changes: readonly PageChange[]): BatchRef[] {
  return changes.flatMap((change, index) => {
    if (change.operation === 'insert_page') return change.ref ? [{ ref: change.ref, field: `changes.${index}.ref` }] : [];
    if (change.operation === 'insert_files') return change.files.flatMap((file, i) => (file.ref ? [{ ref: file.ref, field: `changes.${index}.files.${i}.ref` }] : []));
    return [];
  });
}

/** Refuses a ref used twice in the batch (before any file is fetched or stored). */
export function requireUniqueRefs(changes: readonly PageChange[]): void {
  const seen = new Map<string, string>();
  for (const { ref, field } of refsOf(changes)) {
    const first = seen.get(ref);
    if (first) throw badRequest(`Invalid value for "${field}": the ref "${ref}" is already used by "${first}" in this batch`, field);
    seen.set(ref, field);
  }
}

/** Refuses a ref that names a page already in the change request (its tree before the batch). */
export async function requireRefsFreeOfPaths(ws: Workspace, changes: readonly PageChange[]): Promise<void> {
  const refs = refsOf(changes);
  if (!refs.length) return;
  const pages = await ws.allOfKind('page');
  const layout = new ContentLayout(pages.map((p) => ({ id: p.entityId, parentId: p.parentId, slug: p.slug, type: p.type, position: p.position })));
  for (const { ref, field } of refs) {
    if (layout.pageAt(ref.replace(/^(\.\/)+/, '')) !== undefined) throw badRequest(`Invalid value for "${field}": the ref "${ref}" is the path of a page already in the change request`, field);
  }
}
