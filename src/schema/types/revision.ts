/** Revisions: immutable states of a space's content (its own, or a change request's). */
import type { Revision } from '../../generated/prisma/client.js';
import { pageById, pageByPath } from '../../domain/versions/revisions/pages.js';
import { badRequest } from '../../lib/errors.js';
import { builder } from '../builder.js';
import { apiUrl, appUrl } from '../urls.js';
import { asPages, PageRef } from './page.js';
import { buildTree, walk } from '../../domain/versions/revisions/tree.js';

export const RevisionTypeEnum = builder.enumType('RevisionType', { description: 'How a revision came to be: edits, a merged change request, an update of a change request from its space, or a rollback.', values: { edits: { description: 'Edits to the content.' }, merge: { description: 'A change request merged into the space.' }, update: { description: 'A change request updated with its space\'s content.' }, rollback: { description: 'The content put back as it was in an earlier revision.' } } as const });

const PAGE_PATH_MAX = 2048;

export const RevisionRef = builder.objectRef<Revision>('Revision').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: "An immutable state of a space's content: the space's own revisions, or a change request's.",
  fields: (t) => ({
    id: t.id({ description: 'Its ID (the same as in the REST API).', resolve: (r) => r.id }),
    type: t.field({ description: 'How it came to be: edits, a merge, an update or a rollback.', type: RevisionTypeEnum, resolve: (r) => r.type as 'edits' }),
    parents: t.stringList({ description: "The IDs of the revisions it was made from: one, or two for a merge or an update; none for a space's first.", resolve: (r) => r.parents }),
    createdAt: t.field({ description: 'When it was made.', type: 'DateTime', resolve: (r) => r.createdAt }),
    spaceId: t.id({ description: 'The ID of its space.', resolve: (r) => r.spaceId }),
    changeRequestId: t.id({ nullable: true, description: 'The change request the revision belongs to (null: the space\'s own).', resolve: (r) => (r.lineId === r.spaceId ? null : r.lineId) }),
    mergedFromId: t.id({ nullable: true, description: 'Merge revisions: the change request merged.', resolve: (r) => r.mergedFromId }),
    pages: t.field({
      type: [PageRef],
      description: 'Every page of the revision, as a tree (top-level pages, each with its `pages`).',
      resolve: async (r, _a, ctx) => asPages(r, buildTree(await ctx.loaders.revisionPages.load(r.id))),
    }),
    allPages: t.field({
      type: [PageRef],
      description: 'Every page of the revision in one flat list, in tree order (depth-first, siblings in order).',
      resolve: async (r, _a, ctx) => [...walk(buildTree(await ctx.loaders.revisionPages.load(r.id)))].map((node) => ({ node, scope: r })),
    }),
    page: t.field({ description: 'A page of the revision by ID; null if it has none of that ID.',
      type: PageRef,
      nullable: true,
      args: { id: t.arg.id({ description: "The page's ID.", required: true }) },
      resolve: async (r, { id }, ctx) => {
        const node = await pageById(ctx.db, r, String(id));
        return node && { node, scope: r };
      },
    }),
    pageByPath: t.field({
      type: PageRef,
      nullable: true,
      description: 'The page at a path of the revision (slugs joined by "/").',
      args: { path: t.arg.string({ description: 'The path: slugs from the top level, joined by `/` (at most 2048 characters).', required: true }) },
      resolve: async (r, { path }, ctx) => {
        if (path.length > PAGE_PATH_MAX) throw badRequest(`Invalid value for "path": at most ${PAGE_PATH_MAX} characters`, 'path');
        const node = await pageByPath(ctx.db, r, path);
        return node && { node, scope: r };
      },
    }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: builder.simpleObject('RevisionUrls', { description: 'Where a revision is: in this API and in the app.', fields: (u) => ({ app: u.string({ description: 'Its URL in the app (under QUIRE_APP_URL).' }), location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }) }) }),
      resolve: (r, _a, ctx) =>
        r.lineId === r.spaceId
          ? { app: appUrl(ctx, `/s/${r.spaceId}/~/revisions/${r.id}`), location: apiUrl(ctx, `/spaces/${r.spaceId}/revisions/${r.id}`) }
          : { app: appUrl(ctx, `/s/${r.spaceId}/~/changes/${r.lineId}`), location: apiUrl(ctx, `/spaces/${r.spaceId}/change-requests/${r.lineId}/content`) },
    }),
  }),
});
