/**
 * Link targets of a document, to and from the pages and files of a revision. Markdown links,
 * images, files, content-refs and includes read as `{kind: 'url', url}` even for `other-page.md`
 * or `/pages/<id>`: the caller knows the page tree, so it lists the relative targets of a
 * document, resolves them (`resolveLink`, or an import's own map), and rewrites them. On the way
 * out, `markdownRefOptions` writes references as relative paths or stable identifiers.
 */
import type { JSONDocument } from '../documents/types.js';
import { documentNodes } from '../documents/walk.js';
import { isRecord } from './nodes.js';
import { isRelativeUrl, type ContentRef, type WriteOptions } from './refs.js';
import { ASSETS_FOLDER, INCLUDES_FOLDER, joinRelative, relativePath, type ContentLayout } from './layout.js';

/** Calls `visit` on each `data.ref` of the document's nodes (blocks, inlines, fragments), in document order. */
function eachRef(document: unknown, visit: (holder: Record<string, unknown>, ref: Record<string, unknown>, type: string) => void): void {
  for (const node of documentNodes(document)) if (isRecord(node.data) && isRecord(node.data.ref)) visit(node.data, node.data.ref, String(node.type));
}

export type RelativeTarget = {
  /** The URL as written, e.g. `../guide/setup.md#install`. */
  url: string;
  /** The node types that point there: `link`, `image`, `inline-image`, `file`, `content-ref`, `reusable-content`. */
  usedBy: string[];
};

/** The distinct relative targets of a document (`{kind: 'url'}` refs that are not absolute URLs nor `#anchors`). */
export function relativeTargets(document: JSONDocument): RelativeTarget[] {
  const found = new Map<string, Set<string>>();
  eachRef(document, (_, ref, type) => {
    if (ref.kind !== 'url' || typeof ref.url !== 'string' || !isRelativeUrl(ref.url)) return;
    if (!found.has(ref.url)) found.set(ref.url, new Set());
    found.get(ref.url)!.add(type);
  });
  return [...found].map(([url, types]) => ({ url, usedBy: [...types] }));
}

/**
 * A copy of the document with `{kind: 'url'}` targets replaced by what `resolve` answers for them
 * (undefined: kept as they are). Used by imports, whose targets may be absolute URLs of other
 * imported pages. An include (`reusable-content` block) takes only a reusable content, and only an
 * include takes one: `{% include "../guide.md" %}` or `[x](.gitbook/includes/x.md)` stay URLs.
 */
export function rewriteUrlTargets(document: JSONDocument, resolve: (url: string) => ContentRef | undefined): JSONDocument {
  return rewriteOwnUrlTargets(structuredClone(document), resolve);
}

/**
 * rewriteUrlTargets without the copy: `document` itself rewritten, for a caller that owns it (one
 * just read from markdown). Cloning a page's document was ~8% of its conversion.
 */
export function rewriteOwnUrlTargets(document: JSONDocument, resolve: (url: string) => ContentRef | undefined): JSONDocument {
  eachRef(document, (data, ref, type) => {
    if (ref.kind !== 'url' || typeof ref.url !== 'string') return;
    const target = resolve(ref.url);
    if (target && (target.kind === 'reusable-content') === (type === 'reusable-content')) data.ref = { ...target };
  });
  return document;
}

/**
 * A copy of the document with relative targets replaced. `targets` maps a URL as written (or its
 * part before `#`) to a reference, typically `{kind: 'page', page}` or `{kind: 'file', file}`;
 * `page.md#section` with `page.md` mapped to a page becomes `{kind: 'anchor', page, anchor}`.
 * Targets missing from the map stay as they are.
 */
export function rewriteRelativeTargets(document: JSONDocument, targets: Map<string, ContentRef> | Record<string, ContentRef>): JSONDocument {
  const lookup = (url: string) => (targets instanceof Map ? targets.get(url) : Object.hasOwn(targets, url) ? targets[url] : undefined);
  return rewriteUrlTargets(document, (url) => {
    if (!isRelativeUrl(url)) return undefined;
    const whole = lookup(url);
    if (whole) return whole;
    const hash = url.indexOf('#');
    const page = hash < 0 ? undefined : lookup(url.slice(0, hash));
    if (page?.kind === 'page' && typeof page.page === 'string') {
      return { kind: 'anchor', anchor: url.slice(hash + 1), page: page.page, ...(typeof page.space === 'string' ? { space: page.space } : {}) };
    }
    return undefined;
  });
}

/** Batch-local names (`ref` of `insert_page` / `insert_files`) of pages and files not yet written. */
export type BatchRefs = { pages?: ReadonlyMap<string, string>; files?: ReadonlyMap<string, string> };

const decode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

const toPage = (page: string | undefined, anchor: string | undefined): ContentRef | undefined =>
  page === undefined ? undefined : anchor ? { kind: 'anchor', page, anchor } : { kind: 'page', page };

/**
 * What a link written in the markdown of page `from` points to in `layout` (undefined: nothing;
 * the link stays a URL). The forms of the public document's description of
 * `POST …/change-requests/{id}/content`:
 * - `/pages/<pageId>`, `/pages/<path>` (`guides/getting-started`), `/pages/<path>.md`,
 *   `/pages/<path>/README.md`, `/pages/README.md` (the first page), each with an optional `#anchor`;
 * - `/files/<fileId>` (a file of the revision);
 * - `/reusable-contents/<reusableContentId>` (a reusable content of the revision, for includes);
 * - relative to the page's own file (layout.ts): `./sibling.md`, `../other.md`, `../README.md`,
 *   `./section` (a folder's page), `../.gitbook/assets/<name>` (a file),
 *   `../.gitbook/includes/<slug>.md` (a reusable content); `from` may be a reusable content,
 *   whose links are relative to `.gitbook/includes/`;
 * - a batch's `ref`: `./<ref>` or `./<ref>.md` for a page, `./<ref>` for a file.
 * Absolute URLs and in-page `#anchors` are left alone.
 */
export function resolveLink(layout: ContentLayout, url: string, from: string | undefined, refs: BatchRefs = {}): ContentRef | undefined {
  if (!isRelativeUrl(url)) return undefined;
  const hash = url.indexOf('#');
  const path = decode(hash < 0 ? url : url.slice(0, hash));
  const anchor = hash < 0 ? undefined : decode(url.slice(hash + 1)) || undefined;
  if (path.startsWith('/pages/')) {
    const rest = path.slice('/pages/'.length);
    return toPage(layout.hasPage(rest) ? rest : layout.pageAt(rest), anchor);
  }
  if (path.startsWith('/files/')) {
    const id = path.slice('/files/'.length);
    return layout.hasFile(id) ? { kind: 'file', file: id } : undefined;
  }
  if (path.startsWith('/reusable-contents/')) {
    const id = path.slice('/reusable-contents/'.length);
    return layout.hasReusableContent(id) ? { kind: 'reusable-content', reusableContent: id } : undefined;
  }
  if (path.startsWith('/') || !path) return undefined;
  const local = path.replace(/^(\.\/)+/, '');
  const file = refs.files?.get(local);
  if (file) return { kind: 'file', file };
  const page = refs.pages?.get(local) ?? (/\.md$/i.test(local) ? refs.pages?.get(local.slice(0, -3)) : undefined);
  if (page) return toPage(page, anchor);
  const joined = joinRelative(from === undefined ? '' : layout.pageFolder(from), path);
  if (!joined) return undefined;
  if (joined.startsWith(ASSETS_FOLDER)) {
    const id = layout.fileAtAsset(joined);
    return id ? { kind: 'file', file: id } : undefined;
  }
  if (joined.startsWith(INCLUDES_FOLDER)) {
    const id = layout.reusableContentAt(joined);
    return id ? { kind: 'reusable-content', reusableContent: id } : undefined;
  }
  // A synced space's files may sit anywhere its repository keeps them (layout.ts given paths).
  const asset = layout.fileAtAsset(joined);
  if (asset) return { kind: 'file', file: asset };
  return toPage(layout.pageAt(joined), anchor);
}

/** How a page's references are written as markdown: `relative` paths, or `stable` identifiers. */
export type MarkdownRefs = 'relative' | 'stable';

/**
 * The write options that make `documentToMarkdown` write the references of page (or reusable
 * content) `from` as `stable` (`/pages/<pageId>`, `/pages/<pageId>#anchor`, `/files/<fileId>`,
 * `/reusable-contents/<id>`) or `relative` paths of the layout (`../install.md`,
 * `guide/README.md#steps`, `../.gitbook/assets/logo.png`, `../.gitbook/includes/terms.md`). A page,
 * file or reusable content not in the layout is written in the stable form. Both read back
 * (resolveLink) to the same references.
 */
export function markdownRefOptions(mode: MarkdownRefs, layout: ContentLayout | undefined, from: string | undefined): WriteOptions {
  const stablePage = (id: string) => `/pages/${id}`;
  const stableFile = (id: string) => `/files/${id}`;
  const stableInclude = (id: string) => `/reusable-contents/${id}`;
  if (mode === 'stable' || !layout) return { resolvePage: stablePage, resolveFile: stableFile, resolveReusableContent: stableInclude };
  const folder = from === undefined ? '' : layout.pageFolder(from);
  return {
    resolvePage: (id) => {
      const file = layout.pageFile(id);
      return file === undefined ? stablePage(id) : relativePath(folder, file.replace(/\/$/, ''));
    },
    resolveFile: (id) => {
      const asset = layout.fileAsset(id);
      return asset === undefined ? stableFile(id) : relativePath(folder, asset);
    },
    resolveReusableContent: (id) => {
      const file = layout.reusableContentFile(id);
      return file === undefined ? stableInclude(id) : relativePath(folder, file);
    },
  };
}
