/**
 * Links of the markdown bodies of a batch, resolved once the whole batch is applied: a page may
 * link to a page or file inserted later in the same batch (by path or by its `ref`), and relative
 * links are read from where the page ends up. Each markdown body with targets still URLs
 * (`./x.md`, `/pages/…`, `/files/…`) waits here, converted but not stored; after the last change,
 * the page tree and files are read once (workspace `allOfKind`), its targets are resolved
 * (lib/markdown/links.ts `resolveLink`), and the body is converted again with them and stored.
 * A target that names nothing stays a URL.
 */
import type { Prisma } from '../../../generated/prisma/client.js';
import { ContentLayout, resolveLink, type BatchRefs, type ContentRef } from '../../../lib/markdown/index.js';
import type { PreparedDocument } from '../../../lib/documents/document-id.js';
import { putDocuments } from '../revisions/documents.js';
import { relinkBody } from './page-body.js';
import type { Workspace } from './workspace.js';

/** A markdown body whose links wait for the batch's tree. */
export type PendingBody = { pageId: string; markdown: string; previousJson: string | null; field: string; stored: PreparedDocument; targets: string[] };

export async function resolveBatchLinks(tx: Prisma.TransactionClient, ws: Workspace, pending: readonly PendingBody[], refs: BatchRefs): Promise<void> {
  if (!pending.length) return;
  const [pages, files] = await Promise.all([ws.allOfKind('page'), ws.allOfKind('file')]);
  const layout = new ContentLayout(
    pages.map((p) => ({ id: p.entityId, parentId: p.parentId, slug: p.slug, type: p.type, position: p.position })),
    files.map((f) => ({ id: f.entityId, name: f.title })),
  );
  for (const body of pending) {
    const page = await ws.page(body.pageId);
    // Deleted, or given another body, by a later change of the batch: this body is not kept.
    if (!page || page.documentId !== body.stored.id) continue;
    const links: Record<string, ContentRef> = {};
    for (const url of body.targets) {
      const ref = resolveLink(layout, url, body.pageId, refs);
      if (ref) links[url] = ref;
    }
    const stored = Object.keys(links).length ? await relinkBody(body.markdown, body.previousJson, links, body.field) : body.stored;
    const [documentId] = await putDocuments(tx, [stored]);
    if (documentId !== page.documentId) ws.write('page', body.pageId, { ...page, documentId: documentId! });
  }
}
