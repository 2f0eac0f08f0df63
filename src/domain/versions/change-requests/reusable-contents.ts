/** Reusable contents of a change request: created, retitled, rewritten and deleted like pages. */
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { notFound } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { loadDocumentText, putDocuments } from '../revisions/documents.js';
import { parseInput } from '../../../lib/validation.js';
import { resolveBody } from './page-body.js';
import { bodySchema } from './page-input.js';
import { editContent } from './write-content.js';

const create = z.object({ title: z.string().trim().min(1).max(255), document: bodySchema.optional() }).strict();
const update = z.object({ title: z.string().trim().min(1).max(255).optional(), document: bodySchema.optional() }).strict();

export async function createReusableContent(db: Db, access: Access, spaceId: string, changeRequest: string, raw: unknown) {
  const input = parseInput(create, raw);
  return editContent(db, access, spaceId, changeRequest, async (tx, ws) => {
    const id = newId('ReusableContent');
    const [documentId] = await putDocuments(tx, [(await resolveBody(input.document ?? {}, null)).stored]);
    ws.write('reusable-content', id, { parentId: null, position: '', type: '', title: input.title, slug: '', documentId, data: {}, createdAt: new Date() });
    return id;
  });
}

export async function updateReusableContent(db: Db, access: Access, spaceId: string, changeRequest: string, id: string, raw: unknown) {
  const input = parseInput(update, raw);
  return editContent(db, access, spaceId, changeRequest, async (tx, ws) => {
    const current = await ws.entity('reusable-content', id);
    if (!current) throw notFound('Reusable content');
    let documentId = current.documentId;
    if (input.document) {
      const previous = documentId ? await loadDocumentText(tx, documentId) : null;
      [documentId] = await putDocuments(tx, [(await resolveBody(input.document, previous)).stored]);
    }
    ws.write('reusable-content', id, { ...current, title: input.title ?? current.title, documentId });
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
