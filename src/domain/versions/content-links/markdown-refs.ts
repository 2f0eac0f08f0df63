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
import { ContentLayout, documentToMarkdown, markdownRefOptions, type MarkdownRefs } from '../../../lib/markdown/index.js';
import type { Entry, PageEntry } from '../revisions/entries.js';
import type { Loaders } from '../../loaders/index.js';

/** Layouts by the loaders' answers (the same arrays for the same revision within a request). */
const layouts = new WeakMap<readonly PageEntry[], WeakMap<readonly Entry[], WeakMap<readonly Entry[], ContentLayout>>>();
const NONE: readonly Entry[] = [];

/** Whether the document references an entity of `kind` (a walk of its nodes, stopping at the first). */
function references(document: JSONDocument, kind: 'file' | 'reusable-content'): boolean {
  const stack: unknown[] = [document];
  while (stack.length) {
    const node = stack.pop() as { data?: { ref?: { kind?: unknown } }; nodes?: unknown[]; fragments?: unknown[] } | null;
    if (!node || typeof node !== 'object') continue;
    if (node.data?.ref?.kind === kind) return true;
    if (Array.isArray(node.nodes)) for (const child of node.nodes) stack.push(child);
    if (Array.isArray(node.fragments)) for (const child of node.fragments) stack.push(child);
  }
  return false;
}

async function layoutOf(loaders: Loaders, revisionId: string, document: JSONDocument, withReusables: boolean): Promise<ContentLayout> {
  const [pages, files, reusables] = await Promise.all([
    loaders.revisionPages.load(revisionId),
    references(document, 'file') ? loaders.revisionFiles.load(revisionId) : NONE,
    withReusables || references(document, 'reusable-content') ? loaders.revisionReusableContents.load(revisionId) : NONE,
  ]);
  let byFiles = layouts.get(pages);
  if (!byFiles) layouts.set(pages, (byFiles = new WeakMap()));
  let byReusables = byFiles.get(files);
  if (!byReusables) byFiles.set(files, (byReusables = new WeakMap()));
  let layout = byReusables.get(reusables);
  if (!layout) {
    layout = new ContentLayout(
      pages.map((p) => ({ id: p.entityId, parentId: p.parentId, slug: p.slug, type: p.type, position: p.position })),
      files.map((f) => ({ id: f.entityId, name: f.title })),
      reusables.map((r) => ({ id: r.entityId, title: r.title })),
    );
    byReusables.set(reusables, layout);
  }
  return layout;
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
