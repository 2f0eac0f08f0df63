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
import { loadDocuments, putDocuments } from '../../versions/revisions/documents.js';
import { prepareOffLoop } from '../../../lib/documents/prepare.js';
import type { PreparedDocument } from '../../../lib/documents/document-id.js';
import type { EntityVersion } from '../../versions/revisions/commit.js';
import type { Workspace, WorkingPage } from '../../versions/change-requests/workspace.js';
import { fileVersion, type StoredFile } from '../../versions/files/store-files.js';
import { ImportError } from '../../../lib/import-readers/import-error.js';
import type { ImportedPage, ImportTree } from '../../../lib/import-readers/tree.js';

export type ImportedFileStored = { source: string; file: StoredFile };

export type ImportTarget = {
  /** The page the import replaces; absent: the pages are added to the change request. */
  page?: WorkingPage & { entityId: string };
  /** Zip and website imports are trees: into a page, they replace its children too. */
  tree: boolean;
};

/** A source's location as a URL (zip paths under `file:///`), without its fragment. */
function locate(target: string, base?: string): string | undefined {
  try {
    const url = new URL(target, base ?? 'file:///');
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

const fragmentOf = (target: string) => (target.includes('#') ? target.slice(target.indexOf('#') + 1) : '');

/**
 * A page's markdown converted in the conversion pool (one page at a time, so each has the whole
 * time budget), and its document prepared for storing (large ones in the pool too,
 * revisions/prepare.ts); a page past the markdown or document limits fails the import with
 * TOO_LARGE, naming the page.
 */
async function pageLimits<T>(page: ImportedPage, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof MarkdownLimitError) throw new ImportError('TOO_LARGE', `The page ${page.source} cannot be imported: ${error.message}`);
    throw error;
  }
}

const convertPage = (page: ImportedPage, previous: JSONDocument | undefined, signal?: AbortSignal) =>
  pageLimits(page, () => convertMarkdown(page.markdown, { ...(previous ? { previous } : {}), ...(signal ? { signal } : {}) }));

/**
 * A page's place and what its body became: small, kept for every page until the tree is written
 * (the body itself is stored as soon as its batch is converted, and dropped). `documentId`
 * undefined: a group, or a body whose links wait for the tree (`pending`).
 */
type Planned = { page: ImportedPage; id: string; parentId: string | null; group: boolean; title: string; documentId?: string; pending?: boolean };

/** Pages converted at once: their documents are what the import holds in memory at a time. */
export const IMPORT_BATCH_PAGES = 200;

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
  const pageIds = new Map<string, string>();
  const fileIds = new Map<string, string>();
  // Each page's own ID. Groups have no file of their own (a summary's groups differ only by
  // their fragment, which `locate` drops), so each group gets its own ID and none is a link target.
  const ownIds = new Map<ImportedPage, string>();
  const [first, ...rest] = tree.pages;
  const walk = (pages: ImportedPage[], fn: (page: ImportedPage) => void) => pages.forEach((p) => (fn(p), walk(p.children, fn)));
  walk(tree.pages, (page) => {
    const key = page.type === 'group' ? undefined : locate(page.source);
    const id = page === first && target.page ? target.page.entityId : (key && pageIds.get(key)) || newId('RevisionPage');
    ownIds.set(page, id);
    if (key && !pageIds.has(key)) pageIds.set(key, id);
  });
  for (const { source } of files) {
    const key = locate(source);
    if (key && !fileIds.has(key)) fileIds.set(key, newId('File'));
  }

  /** A page's link or image target as a reference to what this import writes (undefined: left as is). */
  const resolver = (base: string) => (url: string): ContentRef | undefined => {
    const key = locate(url, locate(base));
    if (!key) return undefined;
    const file = fileIds.get(key);
    if (file) return { kind: 'file', file };
    const page = pageIds.get(key);
    if (!page) return undefined;
    const anchor = fragmentOf(url);
    return anchor ? { kind: 'anchor', page, anchor } : { kind: 'page', page };
  };

  const previous = target.page?.documentId ? (await loadDocuments(tx, [target.page.documentId])).get(target.page.documentId) : undefined;
  /** A page's body converted, its links to what this import writes resolved (links left: `layout`, when given). */
  const convert = async (p: Planned, layout?: ContentLayout) => {
    const read = await convertPage(p.page, p.id === target.page?.entityId ? previous : undefined, signal);
    const document = rewriteUrlTargets(read.document, resolver(p.page.source));
    return { read, document: layout ? resolveAgainst(layout, document, p.id) : document };
  };
  const slot = (page: ImportedPage, parentId: string | null, id: string, groupAllowed: boolean): Planned => {
    const group = page.type === 'group' && groupAllowed;
    return { page, id, parentId, group, title: group ? page.title || 'Group' : '' };
  };
  const idOf = (page: ImportedPage) => ownIds.get(page) ?? newId('RevisionPage');

  // Where each imported page goes, parents before children.
  const planned: Planned[] = [];
  const place = (pages: ImportedPage[], parentId: string | null) => {
    for (const page of pages) {
      const item = slot(page, parentId, idOf(page), parentId === null);
      planned.push(item);
      place(page.children, item.id);
    }
  };
  let replaced: Planned | undefined;
  if (target.page && first) {
    replaced = slot(first, target.page.parentId, target.page.entityId, false);
    if (target.tree) {
      for (const child of await ws.descendants(target.page.entityId)) ws.write('page', child.entityId, null);
      place([...first.children, ...rest], target.page.entityId);
    }
  } else {
    place(tree.pages, null);
  }

  // The bodies, a batch at a time: converted (in the pool, side by side), stored, dropped. A body
  // with links that name nothing imported waits for the tree (`pending`): it is converted again then.
  const withBody = [...(replaced ? [replaced] : []), ...planned].filter((p) => !p.group);
  await inBatches(withBody, async (batch) => {
    const converted = await Promise.all(batch.map(async (p) => ({ p, ...(await convert(p)) })));
    const ready: { p: Planned; stored: Promise<PreparedDocument> }[] = [];
    for (const { p, read, document } of converted) {
      p.title = (read.title || p.page.title || 'Untitled').slice(0, 255);
      if (relativeTargets(document).length) p.pending = true;
      else ready.push({ p, stored: prepare(p.page, document, signal) });
    }
    const ids = await putDocuments(tx, await Promise.all(ready.map((r) => r.stored)));
    ready.forEach((r, i) => (r.p.documentId = ids[i]));
    progress?.(batch.length);
  });

  // The tree, with positions and slugs per parent: new parents hold only imported pages; the top
  // level (or the replaced page, whose children were removed) is appended to.
  const versions = new Map<Planned, EntityVersion>();
  if (replaced && target.page) versions.set(replaced, { ...target.page, title: replaced.title });
  const byParent = new Map<string | null, Planned[]>();
  for (const p of planned) byParent.set(p.parentId, [...(byParent.get(p.parentId) ?? []), p]);
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

  // Links left, read from where the pages now sit in the change request's tree.
  const pending = withBody.filter((p) => p.pending);
  if (pending.length) {
    const layout = await workspaceLayout(ws);
    await inBatches(pending, async (batch) => {
      const stored = await Promise.all(batch.map(async (p) => prepare(p.page, (await convert(p, layout)).document, signal)));
      const ids = await putDocuments(tx, stored);
      batch.forEach((p, i) => ws.write('page', p.id, { ...versions.get(p)!, documentId: ids[i]! }));
    });
  }
  return { pages: planned.length + (replaced ? 1 : 0), files: fileIds.size };
}

async function inBatches<T>(items: T[], work: (batch: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += IMPORT_BATCH_PAGES) await work(items.slice(i, i + IMPORT_BATCH_PAGES));
}

/** A document prepared for storing (large ones in the pool), a page past the limits refused naming it. */
const prepare = (page: ImportedPage, document: JSONDocument, signal?: AbortSignal) => pageLimits(page, () => prepareOffLoop(document, { keys: false, ...(signal ? { signal } : {}) }));
