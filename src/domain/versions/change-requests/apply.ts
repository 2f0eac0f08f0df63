/**
 * Applies a batch of page changes to a change request's workspace, in order: inserting, updating
 * (metadata, body, move) and deleting pages. Every rule is checked against the state the earlier
 * changes of the batch left; any failure rejects the whole batch (nothing is written).
 */
import { generateKeyBetween } from 'fractional-indexing';
import { Prisma } from '../../../generated/prisma/client.js';
import { badRequest, notFound } from '../../../lib/errors.js';
import { slugOf } from '../../../lib/documents/slug.js';
import { newId } from '../../kernel/ids.js';
import { loadDocumentText, putDocuments } from '../revisions/documents.js';
import type { EntityVersion } from '../revisions/commit.js';
import type { PageData } from '../revisions/entries.js';
import type { InsertPage, PageChange, UpdatePage } from './page-input.js';
import { resolveBody } from './page-body.js';
import { pageTitle } from './page-title.js';
import { resolveBatchLinks, type PendingBody } from './resolve-links.js';
import { requireRefsFreeOfPaths, requireUniqueRefs } from './batch-refs.js';
import type { Workspace } from './workspace.js';
import { fileVersion, type StoredFile } from '../files/store-files.js';

export type ChangeOutcome =
  | { object: 'created_page' | 'updated_page'; page: string; ref?: string }
  | { object: 'deleted_page'; page: string }
  /** Files are not pages: the REST answer lists them apart (`insertedFiles`). */
  | { object: 'created_file'; file: string; ref?: string };

const field = (index: number, name: string) => `changes.${index}.${name}`;

/** A page's slug from its title (`page` when the title has no letter or digit). */
const slugify = (title: string) => slugOf(title) || 'page';

/** The position that puts page `self` at index `at` under `parentId`, or at the end. */
async function positionAt(ws: Workspace, parentId: string | null, at: number | undefined, self: string): Promise<string> {
  const [before, after] = await ws.neighbours(parentId, at, self);
  return generateKeyBetween(before?.position ?? null, after?.position ?? null);
}

async function requireUniqueSlug(ws: Workspace, parentId: string | null, slug: string, self: string, index: number): Promise<void> {
  if (await ws.slugTaken(parentId, slug, self)) throw badRequest(`Invalid value for "${field(index, 'slug')}": another page in the same parent has the slug "${slug}"`, field(index, 'slug'));
}

function pageMeta(change: InsertPage | UpdatePage, base: PageData): PageData {
  const data: PageData = { ...base };
  for (const key of ['emoji', 'icon', 'description'] as const) {
    const value = change[key];
    if (value === '') delete data[key];
    else if (value !== undefined) data[key] = value;
  }
  if (change.hidden !== undefined) data.hidden = change.hidden;
  if (change.target !== undefined) data.target = change.target;
  return data;
}

/** What the batch carries from change to change: markdown bodies whose links wait for the whole tree. */
type Batch = { pending: PendingBody[] };

/**
 * The page's new body, stored — or, markdown with links to resolve, kept in `batch.pending` and
 * stored once the batch's tree is known (resolve-links.ts); its document ID is the one it has
 * until then.
 */
async function storeBody(tx: Prisma.TransactionClient, batch: Batch, pageId: string, change: InsertPage | UpdatePage, previousDocumentId: string | null, index: number) {
  if (!change.document) return null;
  const previous = previousDocumentId ? await loadDocumentText(tx, previousDocumentId) : null;
  const body = await resolveBody(change.document, previous, field(index, 'document'));
  if ('markdown' in change.document && body.targets?.length) {
    batch.pending.push({ pageId, markdown: change.document.markdown, previousJson: previous, field: field(index, 'document'), stored: body.stored, targets: body.targets });
    return { ...body, documentId: body.stored.id };
  }
  const [documentId] = await putDocuments(tx, [body.stored]);
  return { ...body, documentId };
}

async function insert(tx: Prisma.TransactionClient, ws: Workspace, batch: Batch, change: InsertPage, index: number): Promise<ChangeOutcome> {
  const type = change.type ?? 'document';
  const parentId = change.into ?? null;
  if (parentId) {
    const parent = await ws.page(parentId);
    if (!parent) throw badRequest(`Invalid value for "${field(index, 'into')}": no page ${parentId} in the change request`, field(index, 'into'));
    if (parent.type === 'link') throw badRequest(`Invalid value for "${field(index, 'into')}": a link page has no children`, field(index, 'into'));
    if (type === 'group') throw badRequest(`Invalid value for "${field(index, 'type')}": groups exist only at the top level`, field(index, 'type'));
  }
  if (type === 'link' && !change.target) throw badRequest(`Invalid value for "${field(index, 'target')}": a link page needs a target`, field(index, 'target'));
  const id = newId('RevisionPage');
  const body = type === 'document' ? await storeBody(tx, batch, id, change, null, index) : null;
  const title = pageTitle(body, change.title, 'Untitled');
  const slug = change.slug ?? slugify(title);
  await requireUniqueSlug(ws, parentId, slug, '', index);
  const version: EntityVersion = {
    parentId,
    position: await positionAt(ws, parentId, change.at, ''),
    type,
    title,
    slug,
    documentId: type === 'document' ? (body?.documentId ?? (await putDocuments(tx, [{ object: 'document', data: {}, nodes: [] }]))[0]) : null,
    data: pageMeta(change, body?.description ? { description: body.description } : {}) as Record<string, unknown>,
    createdAt: new Date(),
  };
  ws.write('page', id, version);
  return { object: 'created_page', page: id, ...(change.ref ? { ref: change.ref } : {}) };
}

async function update(tx: Prisma.TransactionClient, ws: Workspace, batch: Batch, change: UpdatePage, index: number): Promise<ChangeOutcome> {
  const page = await ws.page(change.page);
  if (!page) throw notFound('Page');
  if (change.document && page.type !== 'document') throw badRequest(`Invalid value for "${field(index, 'document')}": only document pages have a body`, field(index, 'document'));
  if (change.target && page.type !== 'link') throw badRequest(`Invalid value for "${field(index, 'target')}": only link pages have a target`, field(index, 'target'));
  const body = await storeBody(tx, batch, page.entityId, change, page.documentId, index);
  const moving = change.into !== undefined && change.into !== page.parentId;
  const parentId = change.into === undefined ? page.parentId : change.into;
  if (moving && parentId) {
    const parent = await ws.page(parentId);
    if (!parent) throw badRequest(`Invalid value for "${field(index, 'into')}": no page ${parentId} in the change request`, field(index, 'into'));
    if (await ws.isWithin(parentId, page.entityId)) throw badRequest(`Invalid value for "${field(index, 'into')}": a page cannot move under itself or its descendants`, field(index, 'into'));
    if (parent.type === 'link') throw badRequest(`Invalid value for "${field(index, 'into')}": a link page has no children`, field(index, 'into'));
    if (page.type === 'group') throw badRequest(`Invalid value for "${field(index, 'into')}": groups exist only at the top level`, field(index, 'into'));
  }
  const title = pageTitle(body, change.title, page.title);
  const slug = change.slug ?? page.slug;
  if (moving || slug !== page.slug) await requireUniqueSlug(ws, parentId, slug, page.entityId, index);
  const repositions = moving || change.at !== undefined;
  const data = pageMeta(change, page.data as PageData);
  if (body?.description !== undefined) data.description = body.description;
  ws.write('page', page.entityId, {
    ...page,
    parentId,
    position: repositions ? await positionAt(ws, parentId, change.at, page.entityId) : page.position,
    title,
    slug,
    documentId: body?.documentId ?? page.documentId,
    data: data as Record<string, unknown>,
  });
  return { object: 'updated_page', page: page.entityId };
}

async function remove(ws: Workspace, pageId: string): Promise<ChangeOutcome> {
  const page = await ws.page(pageId);
  if (!page) throw notFound('Page');
  for (const child of await ws.descendants(pageId)) ws.write('page', child.entityId, null);
  ws.write('page', pageId, null);
  return { object: 'deleted_page', page: pageId };
}

/**
 * `files`: the stored files of each `insert_files` change, by the change's index. Links of
 * markdown bodies are resolved after the last change, against the tree the batch leaves, with the
 * batch's `ref`s of pages and files (resolve-links.ts), checked first (batch-refs.ts).
 */
export async function applyChanges(tx: Prisma.TransactionClient, ws: Workspace, changes: readonly PageChange[], files: ReadonlyMap<number, StoredFile[]> = new Map()): Promise<ChangeOutcome[]> {
  requireUniqueRefs(changes);
  await requireRefsFreeOfPaths(ws, changes);
  const outcomes: ChangeOutcome[] = [];
  const batch: Batch = { pending: [] };
  for (const [index, change] of changes.entries()) {
    if (change.operation === 'insert_page') outcomes.push(await insert(tx, ws, batch, change, index));
    else if (change.operation === 'update_page') outcomes.push(await update(tx, ws, batch, change, index));
    else if (change.operation === 'delete_page') outcomes.push(await remove(ws, change.page));
    else {
      for (const [i, file] of (files.get(index) ?? []).entries()) {
        const id = newId('File');
        ws.write('file', id, fileVersion(file));
        const ref = change.files[i]?.ref;
        outcomes.push({ object: 'created_file', file: id, ...(ref ? { ref } : {}) });
      }
    }
  }
  const refs = { pages: new Map<string, string>(), files: new Map<string, string>() };
  for (const o of outcomes) {
    if (o.object === 'created_page' && o.ref) refs.pages.set(o.ref, o.page);
    if (o.object === 'created_file' && o.ref) refs.files.set(o.ref, o.file);
  }
  await resolveBatchLinks(tx, ws, batch.pending, refs);
  return outcomes;
}
