/**
 * Reusable contents of a change request: created, retitled, rewritten and deleted like pages. A
 * markdown body's links and includes resolve as a page's do (resolve-links.ts), relative to the
 * reusable content's own file `.gitbook/includes/<slug>.md`.
 */
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { notFound } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { loadDocumentText, putDocuments } from '../revisions/documents.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { resolveBody } from './page-body.js';
import type { PageBody } from './page-input.js';
import { resolveBatchLinks } from './resolve-links.js';
import type { Workspace } from './workspace.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import { bodySchema } from './page-input.js';
import { editContent } from './write-content.js';

const create = lazySchema(() => z.object({ title: z.string().trim().min(1).max(255), document: bodySchema.optional() }).strict());
const update = lazySchema(() => z.object({ title: z.string().trim().min(1).max(255).optional(), document: bodySchema.optional() }).strict());

/** Stores `body` as reusable content `id`'s document (written by `write`), its markdown links resolved. */
async function storeBody(tx: Prisma.TransactionClient, ws: Workspace, id: string, body: PageBody, previous: string | null, write: (documentId: string) => void) {
  const resolved = await resolveBody(body, previous, 'document');
  if ('markdown' in body && resolved.targets?.length) {
    write(resolved.stored.id);
    await resolveBatchLinks(tx, ws, [{ pageId: id, kind: 'reusable-content', markdown: body.markdown, previousJson: previous, field: 'document', stored: resolved.stored, targets: resolved.targets }]);
    return;
  }
  const [documentId] = await putDocuments(tx, [resolved.stored]);
  write(documentId!);
}

export async function createReusableContent(db: Db, access: Access, spaceId: string, changeRequest: string, raw: unknown) {
  const input = parseInput(create, raw);
  return editContent(db, access, spaceId, changeRequest, async (tx, ws) => {
    const id = newId('ReusableContent');
    const version = { parentId: null, position: '', type: '', title: input.title, slug: '', data: {}, createdAt: new Date() };
    await storeBody(tx, ws, id, input.document ?? {}, null, (documentId) => ws.write('reusable-content', id, { ...version, documentId }));
    return id;
  });
}

export async function updateReusableContent(db: Db, access: Access, spaceId: string, changeRequest: string, id: string, raw: unknown) {
  const input = parseInput(update, raw);
  return editContent(db, access, spaceId, changeRequest, async (tx, ws) => {
    const current = await ws.entity('reusable-content', id);
    if (!current) throw notFound('Reusable content');
    const next = { ...current, title: input.title ?? current.title };
    if (!input.document) ws.write('reusable-content', id, next);
    else {
      const previous = current.documentId ? await loadDocumentText(tx, current.documentId) : null;
      await storeBody(tx, ws, id, input.document, previous, (documentId) => ws.write('reusable-content', id, { ...next, documentId }));
    }
    return id;
  });
}

export async function deleteReusableContent(db: Db, access: Access, spaceId: string, changeRequest: string, id: string) {
  return editContent(db, access, spaceId, changeRequest, async (_tx, ws) => {
    if (!(await ws.entity('reusable-content', id))) throw notFound('Reusable content');
    ws.write('reusable-content', id, null);
    return id;
  });
}
