/**
 * The PDF of a change request (API 4.6, `GET …/change-requests/{id}/pdf`) or of a space's current
 * content (`GET /spaces/{id}/pdf`, the same with the space's revision): what the signed URL names,
 * and what fetching it prints.
 *
 * Asking for the URL checks that the caller can read the space (`view`) and that the page, when
 * one is named, is in the request; the URL then names the request's current revision, so the PDF
 * shows the content as it was when the URL was asked for, however the request changes after.
 * Fetching the URL checks access again as the same user (a member removed meanwhile gets a 404)
 * and prints that revision's pages in tree order (depth-first, siblings in position order):
 *   - no `page`: every page of the revision (`only` means nothing without a page and is ignored);
 *   - `page`: that page and all its descendants;
 *   - `page` and `only=true`: that page alone ("Generate a PDF only for the provided page").
 * Group pages print as a section title, link pages as their title and target.
 *
 * Size: at most MAX_PDF_PAGES pages and MAX_PDF_DOCUMENT_BYTES of stored documents; past either,
 * asking for the URL is a 400 (BAD_REQUEST) that says to narrow it with `page`. Bodies are read
 * in batches (PDF_BATCH_PAGES pages or PDF_BATCH_BYTES, whichever comes first): one statement per
 * batch, never one per page, and never the whole content in memory at once.
 */
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/client.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { Access } from '../../access/access.js';
import type { JSONDocument } from '../../../lib/documents/types.js';
import { badRequest, notFound } from '../../../lib/errors.js';
import { signingSecret } from '../../kernel/signing-secret.js';
import { refToUrl } from '../../../lib/markdown/refs.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import { loadDocuments } from '../revisions/documents.js';
import { pageData, type PageEntry } from '../revisions/entries.js';
import { revisionScope } from '../revisions/load.js';
import { pageById, pageTree } from '../revisions/pages.js';
import { entityIn } from '../revisions/read.js';
import type { RevisionScope } from '../revisions/scope.js';
import { walk } from '../revisions/tree.js';
import { signPdfLink, type PdfLinkClaims } from './pdf-link.js';
import type { PdfPage } from '../../../lib/pdf/render.js';


export const MAX_PDF_PAGES = 1000;
export const MAX_PDF_DOCUMENT_BYTES = 32 * 1024 * 1024;
export const PDF_BATCH_PAGES = 50;
export const PDF_BATCH_BYTES = 4 * 1024 * 1024;

export type PdfSelection = { page?: string | null; only?: boolean | null };

type Deps = { db: Db; access: Access };

/** The pages the selection names, in print order (404 for a page not in the revision). */
async function selectPages(db: Queryable, scope: RevisionScope, selection: PdfSelection): Promise<PageEntry[]> {
  if (!selection.page) return [...walk(await pageTree(db, scope))].map((n) => n.entry);
  if (selection.only) {
    const page = await entityIn(db, scope, 'page', selection.page);
    if (!page) throw notFound('Page');
    return [page as PageEntry];
  }
  const node = await pageById(db, scope, selection.page);
  if (!node) throw notFound('Page');
  return [...walk([node])].map((n) => n.entry);
}

/** Stored sizes of the bodies of `pages` (one statement). */
async function documentSizes(db: Queryable, pages: readonly PageEntry[]): Promise<Map<string, number>> {
  const ids = [...new Set(pages.map((p) => p.documentId).filter((id): id is string => !!id))];
  if (!ids.length) return new Map();
  const rows = await db.$queryRaw<{ id: string; size: number }[]>(Prisma.sql`SELECT "id", "size" FROM "Document" WHERE "id" = ANY(${ids}::text[])`);
  return new Map(rows.map((r) => [r.id, Number(r.size)]));
}

/** Refuses a selection past the caps (400), naming which and what to do. */
export function checkPdfSize(pages: readonly PageEntry[], sizes: Map<string, number>): void {
  if (pages.length > MAX_PDF_PAGES) {
    throw badRequest(`The PDF would hold ${pages.length} pages; at most ${MAX_PDF_PAGES} pages are printed at once: name a page (with "page") to print part of the content`, 'page');
  }
  const bytes = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  if (bytes > MAX_PDF_DOCUMENT_BYTES) {
    const mb = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;
    throw badRequest(`The PDF's pages hold ${mb(bytes)} of content; at most ${mb(MAX_PDF_DOCUMENT_BYTES)} is printed at once: name a page (with "page") to print part of the content`, 'page');
  }
}

/** The signed URL of the PDF of a change request (by ID or number) for the caller of `access`; `pdfUrl` makes it of the token (the transport's, http/paths.ts). */
export async function changeRequestPdfUrl(
  deps: Deps & { config: Pick<Config, 'publicUrl' | 'secret'> },
  spaceId: string,
  idOrNumber: string,
  selection: PdfSelection,
  pdfUrl: (token: string) => string,
): Promise<string> {
  const { changeRequest } = await deps.access.requireChangeRequest(spaceId, idOrNumber, 'view');
  return signedPdfUrl(deps, { spaceId: changeRequest.spaceId, changeRequestId: changeRequest.id, revisionId: changeRequest.revisionId }, selection, pdfUrl);
}

/** The signed URL of the PDF of a space's current content (API `GET /spaces/{id}/pdf`), as changeRequestPdfUrl. */
export async function spacePdfUrl(deps: Deps & { config: Pick<Config, 'publicUrl' | 'secret'> }, spaceId: string, selection: PdfSelection, pdfUrl: (token: string) => string): Promise<string> {
  const { space } = await deps.access.requireSpace(spaceId, 'view');
  return signedPdfUrl(deps, { spaceId: space.id, changeRequestId: null, revisionId: space.revisionId }, selection, pdfUrl);
}

async function signedPdfUrl(
  deps: Deps & { config: Pick<Config, 'publicUrl' | 'secret'> },
  target: Pick<PdfLinkClaims, 'spaceId' | 'changeRequestId' | 'revisionId'>,
  selection: PdfSelection,
  pdfUrl: (token: string) => string,
): Promise<string> {
  const { db, access, config } = deps;
  const page = selection.page ? String(selection.page) : undefined;
  if (page !== undefined && page.length > 128) throw notFound('Page');
  const scope = await revisionScope(db, target.revisionId);
  const pages = await selectPages(db, scope, { page, only: selection.only });
  checkPdfSize(pages, await documentSizes(db, pages));
  const claims: PdfLinkClaims = { userId: access.userId, ...target, ...(page ? { page, only: selection.only === true } : {}) };
  const token = await signPdfLink(claims, { secret: await signingSecret(db, config.secret), issuer: config.publicUrl });
  return pdfUrl(token);
}

export type PreparedPdf = {
  /** The PDF's title: the space and the change request. */
  title: string;
  /** An ASCII file name ending in .pdf. */
  filename: string;
  pageCount: number;
  /** The pages with their bodies, read batch by batch as they are consumed. */
  pages: AsyncIterable<PdfPage>;
};

const fileSlug = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_-]+/g, '-')
    .toLowerCase()
    .slice(0, 60)
    .replace(/-$/, '');

/** Groups of pages whose bodies are read together. */
function batches(pages: readonly PageEntry[], sizes: Map<string, number>): PageEntry[][] {
  const out: PageEntry[][] = [];
  let batch: PageEntry[] = [];
  let bytes = 0;
  for (const page of pages) {
    const size = (page.documentId && sizes.get(page.documentId)) || 0;
    if (batch.length && (batch.length >= PDF_BATCH_PAGES || bytes + size > PDF_BATCH_BYTES)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(page);
    bytes += size;
  }
  if (batch.length) out.push(batch);
  return out;
}

function toPdfPage(entry: PageEntry, documents: Map<string, JSONDocument>): PdfPage {
  const data = pageData(entry);
  const kind = entry.type === 'group' || entry.type === 'link' ? entry.type : 'document';
  return {
    title: entry.title,
    kind,
    ...(data.description ? { description: data.description } : {}),
    ...(kind === 'document' ? { document: (entry.documentId && documents.get(entry.documentId)) || null } : {}),
    ...(kind === 'link' ? { target: refToUrl(data.target) } : {}),
  };
}

async function* readPages(db: Queryable, groups: PageEntry[][]): AsyncGenerator<PdfPage> {
  for (const group of groups) {
    const documents = await loadDocuments(db, group.map((p) => p.documentId).filter((id): id is string => !!id));
    for (const entry of group) yield toPdfPage(entry, documents);
  }
}

/**
 * What a signed URL prints, once its token is verified: access is checked again as the user the
 * URL was made for (`deps.access` must be theirs), then the named revision's pages are gathered.
 */
export async function prepareChangeRequestPdf(deps: Deps, claims: PdfLinkClaims): Promise<PreparedPdf> {
  const { db, access } = deps;
  if (access.userId !== claims.userId) throw new Error('prepareChangeRequestPdf: access is not the link holder’s');
  const { space, changeRequest } = claims.changeRequestId
    ? await access.requireChangeRequest(claims.spaceId, claims.changeRequestId, 'view')
    : { ...(await access.requireSpace(claims.spaceId, 'view')), changeRequest: null };
  const scope = await revisionScope(db, claims.revisionId);
  if (scope.spaceId !== space.id) throw notFound('Revision');
  const pages = await selectPages(db, scope, { page: claims.page, only: claims.only });
  const sizes = await documentSizes(db, pages);
  checkPdfSize(pages, sizes);
  const subject = changeRequest && (changeRequest.subject.trim() || `Change request #${changeRequest.number}`);
  const only = pages.length === 1 && claims.page ? `-${fileSlug(pages[0].title) || 'page'}` : '';
  return {
    title: subject ? `${space.title}: ${subject}` : space.title,
    filename: `${fileSlug(space.title) || 'space'}${changeRequest ? `-change-request-${changeRequest.number}` : ''}${only}.pdf`,
    pageCount: pages.length,
    pages: readPages(db, batches(pages, sizes)),
  };
}
