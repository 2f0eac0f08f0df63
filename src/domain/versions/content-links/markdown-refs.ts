/**
 * A page's body as markdown, its references written from where the page sits in its revision
 * (`relative`: `../install.md`, `../.gitbook/assets/logo.png`) or by identifier (`stable`:
 * `/pages/<id>`, `/files/<id>`); see lib/markdown/links.ts `markdownRefOptions` and layout.ts.
 * The revision's pages (and files, only when the body references one) are read through the
 * request's loaders — one statement per revision for every page rendered, however many — and the
 * layout built from them is kept per revision for the request.
 */
import type { JSONDocument } from '../../../lib/documents/types.js';
import { ContentLayout, documentToMarkdown, markdownRefOptions, type MarkdownRefs } from '../../../lib/markdown/index.js';
import type { Entry, PageEntry } from '../revisions/entries.js';
import type { Loaders } from '../../loaders/index.js';

/** Layouts by the loaders' answers (the same arrays for the same revision within a request). */
const layouts = new WeakMap<readonly PageEntry[], WeakMap<readonly Entry[], ContentLayout>>();
const NO_FILES: readonly Entry[] = [];

/** Whether the document references a file (a walk of its nodes, stopping at the first). */
function referencesFile(document: JSONDocument): boolean {
  const stack: unknown[] = [document];
  while (stack.length) {
    const node = stack.pop() as { data?: { ref?: { kind?: unknown } }; nodes?: unknown[]; fragments?: unknown[] } | null;
    if (!node || typeof node !== 'object') continue;
    if (node.data?.ref?.kind === 'file') return true;
    if (Array.isArray(node.nodes)) for (const child of node.nodes) stack.push(child);
    if (Array.isArray(node.fragments)) for (const child of node.fragments) stack.push(child);
  }
  return false;
}

async function layoutOf(loaders: Loaders, revisionId: string, withFiles: boolean): Promise<ContentLayout> {
  const [pages, files] = await Promise.all([loaders.revisionPages.load(revisionId), withFiles ? loaders.revisionFiles.load(revisionId) : NO_FILES]);
  let byFiles = layouts.get(pages);
  if (!byFiles) layouts.set(pages, (byFiles = new WeakMap()));
  let layout = byFiles.get(files);
  if (!layout) {
    layout = new ContentLayout(
      pages.map((p) => ({ id: p.entityId, parentId: p.parentId, slug: p.slug, type: p.type, position: p.position })),
      files.map((f) => ({ id: f.entityId, name: f.title })),
    );
    byFiles.set(files, layout);
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
  const layout = page.refs === 'relative' ? await layoutOf(loaders, revisionId, referencesFile(document)) : undefined;
  return documentToMarkdown(document, { title: page.title, description: page.description, ...markdownRefOptions(page.refs, layout, pageId) });
}
