/**
 * Links of a page and backlinks (API 4.7 `…/page/{pageId}/links`, `…/page/{pageId}/backlinks`,
 * `…/files/{fileId}/backlinks`): `Page.links`, `Page.backlinks`, `RevisionFile.backlinks`.
 * Links come from the "DocumentLink" rows of the page's document (content-links/page-links.ts);
 * backlinks are pages read in SQL by page ID (content-links/backlinks.ts).
 */
import { backlinksPage, countBacklinks, type BacklinkTarget } from '../../domain/versions/content-links/backlinks.js';
import { pageLinks } from '../../domain/versions/content-links/page-links.js';
import { notFound } from '../../lib/errors.js';
import type { PageArgs } from '../../domain/kernel/pagination/keyset.js';
import type { RevisionScope } from '../../domain/versions/revisions/scope.js';
import { builder } from '../builder.js';
import { arrayConnection, pageConnection } from '../connection.js';
import type { Context } from '../context.js';
import { ContentLinkStatusEnum } from './content-link.js';
import { PageRef, type PageShape } from './page.js';
import { RevisionFileRef } from './revision-content.js';

const PageLinkRef = builder.simpleObject('PageLink', {
  description: 'A link of a page (an inline link of its document, or a link page\'s target) and its status.',
  fields: (t) => ({
    status: t.field({ description: 'Whether it reaches its target: ok, broken, or pointing into the app.', type: ContentLinkStatusEnum }),
    target: t.field({ type: 'JSON', description: 'The content reference (ContentRef: `{kind, …}`) as written in the page.' }),
  }),
});

const PageLinkBrokenStats = builder.simpleObject('PageLinkBrokenStats', {
  description: 'How many of a page\'s links are broken: in its current revision and in open change requests.',
  fields: (t) => ({
    total: t.int({ description: "Broken links of the page." }),
    changeRequest: t.int({
      nullable: true,
      description: "Pages of a change request's revision: broken links the change request broke (not broken links of the page in the revision it is based on). Null elsewhere.",
    }),
  }),
});

const PageLinkStats = builder.simpleObject('PageLinkStats', {
  description: 'How many links a page holds, broken ones counted apart.',
  fields: (t) => ({
    total: t.int({ description: 'Links of the page, whatever the filter.' }),
    broken: t.field({ description: 'The broken ones among them.', type: PageLinkBrokenStats }),
  }),
});

const BacklinkConnection = builder.connectionObject({ type: PageRef, name: 'BacklinkConnection' }, { name: 'BacklinkEdge' });

async function backlinks(ctx: Context, scope: RevisionScope, target: BacklinkTarget, args: PageArgs) {
  const page = await backlinksPage(ctx.db, scope, target, args);
  const rows: PageShape[] = page.rows.map((node) => ({ node, scope }));
  return pageConnection({ ...page, rows, cursorOf: (p) => page.cursorOf(p.node) }, () => countBacklinks(ctx.db, scope, target));
}

builder.objectFields(PageRef, (t) => ({
  links: t.connection(
    {
      type: PageLinkRef,
      description: 'Links of the page in its revision, in document order, optionally only those of one status.',
      args: { status: t.arg({ description: 'Only the links of this status; left out, all of them.', type: ContentLinkStatusEnum, required: false }) },
      resolve: async (page, args, ctx) => {
        const space = await ctx.loaders.space.load(page.scope.spaceId);
        if (!space) throw notFound('Space');
        const { links, stats } = await pageLinks(ctx.db, ctx.loaders, ctx.config, space, page.scope, page.node);
        const listed = args.status ? links.filter((l) => l.status === args.status) : links;
        // Stats cover every link of the page, whatever the filter.
        return Object.assign(arrayConnection(args, listed), { stats });
      },
    },
    {
      fields: (c) => ({
        stats: c.field({ description: 'How many links the whole list holds, broken ones counted apart.', type: PageLinkStats, resolve: (connection) => connection.stats }),
      }),
    },
  ),
  backlinks: t.connection(
    {
      type: PageRef,
      description: 'Pages of the revision that link to this one (inline links to it or to its anchors, link pages), by page ID.',
      resolve: (page, args, ctx) => backlinks(ctx, page.scope, { kind: 'page', id: page.node.entry.entityId }, args),
    },
    BacklinkConnection,
  ),
}));

builder.objectFields(RevisionFileRef, (t) => ({
  backlinks: t.connection(
    {
      type: PageRef,
      description: 'Pages of the revision that link to this file (inline links, link pages), by page ID.',
      resolve: (file, args, ctx) => backlinks(ctx, file.scope, { kind: 'file', id: file.entry.entityId }, args),
    },
    BacklinkConnection,
  ),
}));
