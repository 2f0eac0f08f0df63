/**
 * The links of a document: inline links and the blocks that point at something, kept as rows of
 * "DocumentLink" (`documentLinkRows`), written with the document (revisions/documents.ts), so that
 * link reports and backlinks read rows, not bodies.
 */
import { asContentRef, isObject, refField, type ContentRef } from './content-ref.js';
import { documentNodes } from './walk.js';

export type LinkLocation = { page: string; path: string };
export type PageLink = { target: ContentRef; location: LinkLocation };


/** Blocks that point at something with `data.ref`: an image or a file (a file), a content ref (a page), an included reusable content. */
export const REF_BLOCKS: ReadonlySet<string> = new Set(['image', 'file', 'content-ref', 'reusable-content']);

/**
 * The `data.ref` of every inline `link` node and of every block of REF_BLOCKS of a JSON document,
 * in document order. Children are in `nodes` (blocks, inlines, texts) and in `fragments`
 * (expandables, tables, captions); the walk uses its own stack, so a deeply nested document cannot
 * overflow the call stack. The migration `document_links` computes the same in SQL.
 */
export function* inlineLinkRefs(document: unknown): Generator<unknown> {
  for (const node of documentNodes(document)) {
    if (node.object === 'inline' && node.type === 'link') yield isObject(node.data) ? node.data.ref : undefined;
    else if (node.object === 'block' && REF_BLOCKS.has(String(node.type)) && isObject(node.data) && isObject(node.data.ref)) yield node.data.ref;
  }
}

export type DocumentLinkRow = { ordinal: number; kind: string; target: string | null; ref: ContentRef };

/** The field of each kind of reference that holds the ID it names. */
const TARGET_FIELDS: Record<string, string> = {
  page: 'page',
  anchor: 'page',
  file: 'file',
  space: 'space',
  collection: 'collection',
  user: 'user',
  'reusable-content': 'reusableContent',
};

/** `kind` as stored: the reference's kind, or '' when it has none (or not a string). */
export const refKind = (ref: ContentRef): string => (typeof ref.kind === 'string' ? ref.kind : '');

/**
 * The ID the reference names: the page of `page` and `anchor` references (an anchor without one
 * is in the page it is on: null), the file, space, collection, user or reusable content; null for
 * URLs, tags and anything else. The migration's backfill computes the same in SQL.
 */
export function refTarget(ref: ContentRef): string | null {
  const kind = refKind(ref);
  return Object.hasOwn(TARGET_FIELDS, kind) ? (refField(ref, TARGET_FIELDS[kind]) ?? null) : null;
}

/**
 * Link pages: the page or file their target names (ContentEntry.linkTarget), null for any other
 * target. Backlinks of pages and files read it.
 */
export function linkPageTarget(target: unknown): string | null {
  const ref = asContentRef(target);
  if (!ref) return null;
  const kind = refKind(ref);
  return kind === 'page' || kind === 'anchor' ? (refField(ref, 'page') ?? null) : kind === 'file' ? (refField(ref, 'file') ?? null) : null;
}

/** The rows of a document's links: references that are JSON objects, numbered from 0. */
export function documentLinkRows(document: unknown): DocumentLinkRow[] {
  const rows: DocumentLinkRow[] = [];
  for (const value of inlineLinkRefs(document)) {
    const ref = asContentRef(value);
    if (ref) rows.push({ ordinal: rows.length, kind: refKind(ref), target: refTarget(ref), ref });
  }
  return rows;
}
