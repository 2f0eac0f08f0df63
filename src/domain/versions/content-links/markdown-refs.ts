/**
 * A page's (or reusable content's) body as markdown, its references written from where it sits in
 * its revision (`relative`: `../install.md`, `../.gitbook/assets/logo.png`,
 * `{% include "../.gitbook/includes/terms.md" %}`) or by identifier (`stable`: `/pages/<id>`,
 * `/files/<id>`, `/reusable-contents/<id>`); see lib/markdown/links.ts `markdownRefOptions` and
 * layout.ts. The revision's pages (and files, and reusable contents, only when the body references
 * one) are read through the request's loaders — one statement per revision for every body
 * rendered, however many — and the layout built from them is kept per revision for the request.
 */
import type { JSONDocument } from '../../../lib/documents/types.js';
import { isObject } from '../../../lib/documents/content-ref.js';
import { documentNodes } from '../../../lib/documents/walk.js';
import { documentToMarkdown, markdownRefOptions, type ContentLayout, type MarkdownRefs } from '../../../lib/markdown/index.js';
import { contentLayoutOf } from '../../git-sync/layout.js';
import type { BlobRecord } from '../../git-sync/mapping.js';
import type { Entry, PageEntry } from '../revisions/entries.js';
import type { Loaders } from '../../loaders/index.js';

/** Layouts by the loaders' answers (the same objects for the same revision within a request). */
const layouts = new WeakMap<readonly PageEntry[], WeakMap<readonly Entry[], WeakMap<readonly Entry[], WeakMap<ReadonlyMap<string, BlobRecord>, ContentLayout>>>>();
const NONE: readonly Entry[] = [];
const UNSYNCED: ReadonlyMap<string, BlobRecord> = new Map();

/** Whether the document references an entity of `kind` (a walk of its nodes, stopping at the first). */
function references(document: JSONDocument, kind: 'file' | 'reusable-content'): boolean {
  for (const node of documentNodes(document)) if (isObject(node.data) && isObject(node.data.ref) && node.data.ref.kind === kind) return true;
  return false;
}

/** A level of the layout cache, made on first use. */
function level<K extends object, V>(map: WeakMap<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (!value) map.set(key, (value = make()));
  return value;
}

async function layoutOf(loaders: Loaders, revisionId: string, document: JSONDocument, withReusables: boolean): Promise<ContentLayout> {
  const pages = await loaders.revisionPages.load(revisionId);
  // A synced space writes its links as its repository's paths (git-sync/layout.ts): every file is placed then.
  const mapping = pages[0] ? await loaders.gitMapping.load(pages[0].spaceId) : UNSYNCED;
  const synced = mapping.size > 0;
  const [files, reusables] = await Promise.all([
    synced || references(document, 'file') ? loaders.revisionFiles.load(revisionId) : NONE,
    synced || withReusables || references(document, 'reusable-content') ? loaders.revisionReusableContents.load(revisionId) : NONE,
  ]);
  const byFiles = level(layouts, pages, () => new WeakMap());
  const byReusables = level(byFiles, files, () => new WeakMap());
  const byMapping = level(byReusables, reusables, () => new WeakMap());
  return level(byMapping, mapping, () => contentLayoutOf([...pages, ...files, ...reusables], mapping));
}

/** `pageId`'s body (of revision `revisionId`) as markdown, title and description first. */
export async function pageMarkdown(
  loaders: Loaders,
  revisionId: string,
  pageId: string,
  document: JSONDocument,
  page: { title: string; description?: string; refs: MarkdownRefs },
): Promise<string> {
  const layout = page.refs === 'relative' ? await layoutOf(loaders, revisionId, document, false) : undefined;
  return documentToMarkdown(document, { title: page.title, description: page.description, ...markdownRefOptions(page.refs, layout, pageId) });
}

/** Reusable content `id`'s body as markdown (no title), its links relative to `.gitbook/includes/<slug>.md`. */
export async function reusableContentMarkdown(loaders: Loaders, revisionId: string, id: string, document: JSONDocument, refs: MarkdownRefs): Promise<string> {
  const layout = refs === 'relative' ? await layoutOf(loaders, revisionId, document, true) : undefined;
  return documentToMarkdown(document, markdownRefOptions(refs, layout, id));
}
