/** Pages of a revision: documents, groups and links, each with its path and child pages. */
import type { PageData } from '../../domain/versions/revisions/entries.js';
import type { RevisionScope } from '../../domain/versions/revisions/scope.js';
import { walk, type PageNode } from '../../domain/versions/revisions/tree.js';
import { pageMarkdown } from '../../domain/versions/content-links/markdown-refs.js';
import type { JSONDocument } from '../../lib/documents/types.js';
import { builder } from '../builder.js';
import { revisionNodeId } from '../node-loaders.js';
import type { Context } from '../context.js';
import { apiUrl, appUrl } from '../urls.js';

/** A page as resolvers pass it: the page in its tree, and the revision it was read from. */
export type PageShape = { node: PageNode; scope: RevisionScope };

export const asPages = (scope: RevisionScope, nodes: PageNode[]): PageShape[] => nodes.map((node) => ({ node, scope }));

export const PageTypeEnum = builder.enumType('PageType', { description: 'What a page is: a document, a group of pages, or a link.', values: { document: { description: 'A page of content.' }, group: { description: 'A heading that groups pages, with no content of its own.' }, link: { description: 'An entry of the table of contents that points elsewhere.' } } as const });

export const MarkdownRefsEnum = builder.enumType('MarkdownRefs', {
  description: 'How markdown writes links to pages and files, and includes of reusable contents (the public `format.markdown.refs`).',
  values: {
    relative: {
      value: 'relative',
      description: 'Paths relative to the page, in the git layout: `../install.md`, `guide/README.md#steps`, `../.gitbook/assets/logo.png`, `{% include "../.gitbook/includes/terms.md" %}`.',
    },
    stable: { value: 'stable', description: 'Identifiers: `/pages/<pageId>`, `/pages/<pageId>#anchor`, `/files/<fileId>`, `{% include "/reusable-contents/<id>" %}`.' },
  } as const,
});

const data = (page: PageShape) => page.node.entry.data as PageData;

/** Every part of a published page shown, at the default width (the platform's defaults). */
const DEFAULT_LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
};

async function body(ctx: Context, page: PageShape): Promise<JSONDocument | null> {
  const id = page.node.entry.documentId;
  return id ? ctx.loaders.document.load(id) : null;
}

export const PageRef = builder.objectRef<PageShape>('Page');

PageRef.implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: 'A page of a revision. Groups exist only at the top level; documents and groups have child pages.',
  fields: (t) => ({
    id: t.id({ description: "The page's ID in its space: the same in every revision that has the page.", resolve: (p) => p.node.entry.entityId }),
    nodeId: t.id({ description: 'Its node ID, for `node(id)`: this page as it is in this revision.', resolve: (p) => revisionNodeId(p.scope.id, p.node.entry.entityId) }),
    type: t.field({ description: 'Whether it is a document, a group or a link.', type: PageTypeEnum, resolve: (p) => p.node.entry.type }),
    title: t.string({ description: 'Its title.', resolve: (p) => p.node.entry.title }),
    slug: t.string({ description: 'Its slug: the last part of its path, unique among its siblings.', resolve: (p) => p.node.entry.slug }),
    path: t.string({ description: 'Complete path of the page in the revision.', resolve: (p) => p.node.path }),
    parentId: t.id({ description: 'The ID of its parent page; null at the top level.', nullable: true, resolve: (p) => p.node.entry.parentId }),
    description: t.string({ description: 'Its description (a short summary); null when it has none.', nullable: true, resolve: (p) => data(p).description ?? null }),
    emoji: t.string({ description: 'Its emoji, if one has been set.', nullable: true, resolve: (p) => data(p).emoji ?? null }),
    icon: t.string({ description: 'Its icon, if one has been set.', nullable: true, resolve: (p) => data(p).icon ?? null }),
    hidden: t.boolean({ description: 'If true, the page is not displayed in the navigation, while still being accessible.', resolve: (p) => data(p).hidden ?? false }),
    layout: t.field({
      type: 'JSON',
      description: 'Documents: what the published page shows (RevisionPageLayoutOptions): the defaults, overridden by the page\'s own.',
      resolve: (p) => ({ ...DEFAULT_LAYOUT, ...(data(p).layout ?? {}) }),
    }),
    target: t.field({ type: 'JSON', nullable: true, description: 'Link pages: where they point (ContentRef).', resolve: (p) => data(p).target ?? null }),
    createdAt: t.field({ description: 'When the page was first created.', type: 'DateTime', resolve: (p) => p.node.entry.createdAt }),
    updatedAt: t.field({ description: 'When this version of the page was written (its last change as of this revision).', type: 'DateTime', resolve: (p) => p.node.entry.updatedAt }),
    documentId: t.string({ nullable: true, description: 'ID of the body (documents only); the same body has the same ID in every revision.', resolve: (p) => p.node.entry.documentId }),
    document: t.field({ type: 'JSON', nullable: true, description: 'The body as a JSON document (documents only).', resolve: (p, _a, ctx) => body(ctx, p) }),
    markdown: t.string({
      nullable: true,
      description:
        "The body as markdown in the platform's dialect (documents only), title first. Links to pages and files are written as `refs` says: relative paths of the revision's git layout (default) or stable `/pages/<id>` and `/files/<id>` references; both read back to the same document.",
      args: { refs: t.arg({ description: 'How links are written: `relative` (the default) or `stable`.', type: MarkdownRefsEnum, required: false, defaultValue: 'relative' }) },
      resolve: async (p, { refs }, ctx) => {
        const document = await body(ctx, p);
        return document && pageMarkdown(ctx.loaders, p.scope.id, p.node.entry.entityId, document, { title: p.node.entry.title, description: data(p).description, refs: refs ?? 'relative' });
      },
    }),
    pages: t.field({ type: [PageRef], description: 'Child pages, in order.', resolve: (p) => asPages(p.scope, p.node.children) }),
    descendants: t.field({ type: [PageRef], description: 'Every page below this one, flat, in tree order.', resolve: (p) => asPages(p.scope, [...walk(p.node.children)]) }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: builder.simpleObject('PageUrls', { description: 'Where a page is: in this API and in the app.', fields: (u) => ({ app: u.string({ description: 'Its URL in the app (under QUIRE_APP_URL).' }), location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }) }) }),
      resolve: (p, _a, ctx) => {
        const { spaceId, lineId } = p.scope;
        const inRequest = lineId !== spaceId ? `/change-requests/${lineId}` : '';
        return {
          app: appUrl(ctx, `/s/${spaceId}${inRequest ? `/~/changes/${lineId}` : ''}/${p.node.path}`),
          location: apiUrl(ctx, `/spaces/${spaceId}${inRequest}/content/page/${p.node.entry.entityId}`),
        };
      },
    }),
  }),
});
