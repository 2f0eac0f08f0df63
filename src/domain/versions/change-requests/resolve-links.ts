/**
 * Links of the markdown bodies of a batch, resolved once the whole batch is applied: a page may
 * link to a page or file inserted later in the same batch (by path or by its `ref`), and relative
 * links are read from where the page ends up. Each markdown body with targets still URLs
 * (`./x.md`, `/pages/…`, `/files/…`, `{% include "../.gitbook/includes/x.md" %}`) waits here,
 * converted but not stored; after the last change, the page tree, files and reusable contents are
 * read once (workspace `allOfKind`), its targets are resolved (lib/markdown/links.ts
 * `resolveLink`), and the body is converted again with them and stored. A target that names
 * nothing stays a URL. A reusable content's body (reusable-contents.ts) is resolved the same way,
 * relative to its own file `.gitbook/includes/<slug>.md`.
 */
import type { Prisma } from '../../../generated/prisma/client.js';
import { resolveLink, type BatchRefs, type ContentLayout, type ContentRef } from '../../../lib/markdown/index.js';
import { contentLayoutOf } from '../../git-sync/layout.js';
import type { PreparedDocument } from '../../../lib/documents/document-id.js';
import { putDocuments } from '../revisions/documents.js';
import { relinkBody } from './page-body.js';
import type { Workspace } from './workspace.js';

/** A markdown body whose links wait for the batch's tree: of a page, or (`kind`) a reusable content. */
export type PendingBody = { pageId: string; kind?: 'page' | 'reusable-content'; markdown: string; previousJson: string | null; field: string; stored: PreparedDocument; targets: string[] };

/** The layout (layout.ts) of the workspace as it is now: its pages, files and reusable contents. */
export async function workspaceLayout(ws: Workspace): Promise<ContentLayout> {
  const [pages, files, reusables, mapping] = await Promise.all([ws.allOfKind('page'), ws.allOfKind('file'), ws.allOfKind('reusable-content'), ws.gitMapping()]);
  // A synced space's links are its repository's paths (git-sync/layout.ts).
  const kinded = [...pages.map((p) => ({ ...p, kind: 'page' as const })), ...files.map((f) => ({ ...f, kind: 'file' as const })), ...reusables.map((r) => ({ ...r, kind: 'reusable-content' as const }))];
  return contentLayoutOf(kinded, mapping);
}

export async function resolveBatchLinks(tx: Prisma.TransactionClient, ws: Workspace, pending: readonly PendingBody[], refs: BatchRefs = {}): Promise<void> {
  if (!pending.length) return;
  const layout = await workspaceLayout(ws);
  for (const body of pending) {
    const kind = body.kind ?? 'page';
    const entity = kind === 'page' ? await ws.page(body.pageId) : await ws.entity(kind, body.pageId);
    // Deleted, or given another body, by a later change of the batch: this body is not kept.
    if (!entity || entity.documentId !== body.stored.id) continue;
    const links: Record<string, ContentRef> = {};
    for (const url of body.targets) {
      const ref = resolveLink(layout, url, body.pageId, refs);
      if (ref) links[url] = ref;
    }
    const stored = Object.keys(links).length ? await relinkBody(body.markdown, body.previousJson, links, body.field) : body.stored;
    const [documentId] = await putDocuments(tx, [stored]);
    if (documentId !== entity.documentId) ws.write(kind, body.pageId, { ...entity, documentId: documentId! });
  }
}
