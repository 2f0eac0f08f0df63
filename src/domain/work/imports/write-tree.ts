/**
 * Writes what a source read (an ImportTree) into a change request's workspace: pages with their
 * bodies, files, and links between them. Page and file IDs are chosen first, so a link from one
 * imported page to another (or to an imported image) becomes a page (or file) reference, whatever
 * order they were read in. Everything goes through the workspace, so it lands in the one revision
 * the import commits.
 *
 * A link that names nothing imported is then resolved as a change request's markdown links are
 * (change-requests/resolve-links.ts, lib/markdown/links.ts `resolveLink`) against the change
 * request's pages, files and reusable contents as the import leaves them, from the imported
 * page's own file in that tree: `../existing.md`, `/pages/<id>`, `/files/<id>`…
 *
 * Into the change request: the imported pages are added after its last top-level page. Into a
 * page (`pageId`): that page takes the first imported page's body (and title); for a tree source
 * its children are replaced by the rest of the tree.
 */
import { generateNKeysBetween } from 'fractional-indexing';
import type { Prisma } from '../../../generated/prisma/client.js';
import type { JSONDocument } from '../../../lib/documents/types.js';
import { slugOf } from '../../../lib/documents/slug.js';
import { newId } from '../../kernel/ids.js';
import { convertMarkdown, MarkdownLimitError, relativeTargets, resolveLink, rewriteUrlTargets, type ContentLayout, type ContentRef } from '../../../lib/markdown/index.js';
import { workspaceLayout } from '../../versions/change-requests/resolve-links.js';
import { loadDocumentText, putDocuments } from '../../versions/revisions/documents.js';
import { prepareOffLoop } from '../../../lib/documents/prepare.js';
import type { EntityVersion } from '../../versions/revisions/commit.js';
import type { Workspace, WorkingPage } from '../../versions/change-requests/workspace.js';
import { fileVersion, type StoredFile } from '../../versions/files/store-files.js';
import { ImportError } from '../../../lib/import-readers/import-error.js';
import { forgetPrismaDebugHistory } from '../../../db/debug-history.js';
import { importPageInPool } from '../../../lib/import-readers/in-pool.js';
import type { PreparedDocument } from '../../../lib/documents/document-id.js';
import { poolSettings } from '../../../lib/threads/pool.js';
import { convertInWindow } from '../../../lib/threads/windowed.js';
import { decodeTargets, encodeImportTargets, importedTarget, locate, type ImportTargets } from '../../../lib/import-readers/link-targets.js';
import type { ImportedPage, ImportTree } from '../../../lib/import-readers/tree.js';

export type ImportedFileStored = { source: string; file: StoredFile };

export type ImportTarget = {
  /** The page the import replaces; absent: the pages are added to the change request. */
  page?: WorkingPage & { entityId: string };
  /** Zip and website imports are trees: into a page, they replace its children too. */
  tree: boolean;
};

/** A page past the markdown or document limits fails the import with TOO_LARGE, naming the page. */
async function pageLimits<T>(page: ImportedPage, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof MarkdownLimitError) throw new ImportError('TOO_LARGE', `The page ${page.source} cannot be imported: ${error.message}`);
    throw error;
  }
}

/**
 * A page's place and what its body became: small, kept for every page until the tree is written
 * (the body itself is stored as soon as its batch is converted, and dropped). `documentId`
 * undefined: a group, or a body whose links wait for the tree (`pending`).
 */
type Planned = { page: ImportedPage; id: string; parentId: string | null; group: boolean; title: string; documentId?: string; pending?: boolean };

/** Pages stored by one statement: with those converting meanwhile, what the import holds of their bodies at a time. */
export const IMPORT_BATCH_PAGES = 50;

/** Pages converting at a time: two per conversion thread, so that none waits for the event loop. */
const CONVERSIONS_UNDER_WAY = () => 2 * poolSettings().threads;

/** Sibling slugs, unique among themselves and the pages already there (`taken`). */
async function uniqueSlug(title: string, used: Set<string>, taken: (slug: string) => Promise<boolean>): Promise<string> {
  const base = (slugOf(title) || 'page').slice(0, 90);
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!used.has(slug) && !(await taken(slug))) {
      used.add(slug);
      return slug;
    }
  }
}

/** `document` of page `pageId` with the relative targets the import left resolved against the change request (`layout`). */
function resolveAgainst(layout: ContentLayout, document: JSONDocument, pageId: string): JSONDocument {
  const links = new Map<string, ContentRef>();
  for (const { url } of relativeTargets(document)) {
    const ref = resolveLink(layout, url, pageId);
    if (ref) links.set(url, ref);
  }
  return links.size ? rewriteUrlTargets(document, (url) => links.get(url)) : document;
}

/**
 * Where each imported page goes, parents before children, with its ID; and what the pages' links
 * may name (`targets`: every page with a file of its own, and `fileIds`). Two pages read from the
 * same location get the same ID. Groups have no file of their own (a summary's groups differ only
 * by their fragment, which `locate` drops), so each group gets its own ID and none is a link target.
 */
function planPages(tree: ImportTree, target: ImportTarget, fileIds: Map<string, string>): { planned: Planned[]; replaced?: Planned; targets: ImportTargets } {
  const pageIds = new Map<string, string>();
  const idOf = (page: ImportedPage, id?: string) => {
    const key = page.type === 'group' ? undefined : locate(page.source);
    const own = id ?? ((key && pageIds.get(key)) || newId('RevisionPage'));
    if (key && !pageIds.has(key)) pageIds.set(key, own);
    return own;
  };
  const slot = (page: ImportedPage, parentId: string | null, id: string, groupAllowed: boolean): Planned => {
    const group = page.type === 'group' && groupAllowed;
    return { page, id, parentId, group, title: group ? page.title || 'Group' : '' };
  };
  const planned: Planned[] = [];
  const place = (pages: ImportedPage[], parentId: string | null) => {
    for (const page of pages) {
      const item = slot(page, parentId, idOf(page), parentId === null);
      planned.push(item);
      place(page.children, item.id);
    }
  };
  const [first, ...rest] = tree.pages;
  let replaced: Planned | undefined;
  if (target.page && first) {
    replaced = slot(first, target.page.parentId, idOf(first, target.page.entityId), false);
    // Into a page, a single page source has nothing else to place.
    if (target.tree) place([...first.children, ...rest], target.page.entityId);
  } else {
    place(tree.pages, null);
  }
  return { planned, ...(replaced ? { replaced } : {}), targets: encodeImportTargets(pageIds, fileIds) };
}

export async function writeImportTree(
  tx: Prisma.TransactionClient,
  ws: Workspace,
  tree: ImportTree,
  files: ImportedFileStored[],
  target: ImportTarget,
  signal?: AbortSignal,
  /** Called as each batch of bodies is stored, with how many pages it held. */
  progress?: (pages: number) => void,
): Promise<{ pages: number; files: number }> {
  const fileIds = new Map<string, string>();
  for (const { source } of files) {
    const key = locate(source);
    if (key && !fileIds.has(key)) fileIds.set(key, newId('File'));
  }
  const { planned, replaced, targets } = planPages(tree, target, fileIds);
  if (target.page && replaced && target.tree) for (const child of await ws.descendants(target.page.entityId)) ws.write('page', child.entityId, null);
  const previousJson = target.page?.documentId ? ((await loadDocumentText(tx, target.page.documentId)) ?? undefined) : undefined;
  const previousOf = (p: Planned) => (previousJson !== undefined && p.id === target.page?.entityId ? previousJson : undefined);

  // The bodies: converted in the pool, a few at a time (threads/windowed.ts), each page's links to
  // what the import writes resolved there; the event loop gets each body's stored form only, and
  // stores them a group at a time while the next pages convert. A body with links that name
  // nothing imported waits for the tree (`pending`): it is converted again then.
  const withBody = [...(replaced ? [replaced] : []), ...planned].filter((p) => !p.group);
  const convert = (p: Planned) => {
    const previous = previousOf(p);
    return pageLimits(p.page, () => importPageInPool({ markdown: p.page.markdown, source: p.page.source, ...(previous ? { previousJson: previous } : {}), targets }, signal));
  };
  await convertInWindow(withBody, { window: CONVERSIONS_UNDER_WAY(), group: IMPORT_BATCH_PAGES }, convert, async (group) => {
    const ready: { p: Planned; stored: PreparedDocument }[] = [];
    for (const { item: p, result: read } of group) {
      p.title = (read.title || p.page.title || 'Untitled').slice(0, 255);
      if (read.targets.length) p.pending = true;
      else ready.push({ p, stored: read.stored });
    }
    const ids = await putDocuments(tx, ready.map((r) => r.stored));
    // The group's statement would otherwise stay alive, parameters and all (db/debug-history.ts).
    forgetPrismaDebugHistory();
    ready.forEach((r, i) => (r.p.documentId = ids[i]));
    progress?.(group.length);
  });

  // The tree, with positions and slugs per parent: new parents hold only imported pages; the top
  // level (or the replaced page, whose children were removed) is appended to.
  const versions = new Map<Planned, EntityVersion>();
  if (replaced && target.page) versions.set(replaced, { ...target.page, title: replaced.title });
  const byParent = new Map<string | null, Planned[]>();
  for (const p of planned) {
    const siblings = byParent.get(p.parentId);
    if (siblings) siblings.push(p);
    else byParent.set(p.parentId, [p]);
  }
  for (const [parentId, siblings] of byParent) {
    const isNew = parentId !== null && parentId !== target.page?.entityId;
    const [last] = isNew ? [undefined] : await ws.neighbours(parentId, undefined, '');
    const positions = generateNKeysBetween(last?.position ?? null, null, siblings.length);
    const used = new Set<string>();
    const taken = isNew ? async () => false : (slug: string) => ws.slugTaken(parentId, slug, '');
    for (const [i, p] of siblings.entries()) {
      const version: EntityVersion = {
        parentId,
        position: positions[i],
        type: p.group ? 'group' : 'document',
        title: p.title,
        slug: await uniqueSlug(p.title, used, taken),
        documentId: null,
        data: {},
        createdAt: new Date(),
      };
      versions.set(p, version);
    }
  }
  for (const [p, version] of versions) ws.write('page', p.id, p.documentId ? { ...version, documentId: p.documentId } : version);
  for (const { source, file } of files) {
    const id = fileIds.get(locate(source) ?? '');
    if (id) ws.write('file', id, fileVersion(file));
  }

  // Links left, read from where the pages now sit in the change request's tree (on the event loop:
  // the whole layout is needed to resolve them).
  const pending = withBody.filter((p) => p.pending);
  if (pending.length) {
    const layout = await workspaceLayout(ws);
    const imported = decodeTargets(targets);
    const previous = previousJson === undefined ? undefined : (JSON.parse(previousJson) as JSONDocument);
    await inBatches(pending, async (batch) => {
      const stored = await Promise.all(
        batch.map(async (p) => {
          const read = await pageLimits(p.page, () => convertMarkdown(p.page.markdown, { ...(previousOf(p) && previous ? { previous } : {}), ...(signal ? { signal } : {}) }));
          const document = resolveAgainst(layout, rewriteUrlTargets(read.document, importedTarget(imported, p.page.source)), p.id);
          return pageLimits(p.page, () => prepareOffLoop(document, { keys: false, ...(signal ? { signal } : {}) }));
        }),
      );
      const ids = await putDocuments(tx, stored);
      forgetPrismaDebugHistory();
      batch.forEach((p, i) => ws.write('page', p.id, { ...versions.get(p)!, documentId: ids[i]! }));
    });
  }
  return { pages: planned.length + (replaced ? 1 : 0), files: fileIds.size };
}

async function inBatches<T>(items: T[], work: (batch: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += IMPORT_BATCH_PAGES) await work(items.slice(i, i + IMPORT_BATCH_PAGES));
}
