/**
 * Reads of a space's content beyond its current revision (API 4.7, `/spaces/{id}/revisions/…`,
 * `/spaces/{id}/documents/{id}`, `/spaces/{id}/search`, `…/change-requests/{id}/contributors`): a
 * search of its current content, a revision of the space by ID, a document its content names, what a revision changed against its parent, the change
 * request a merge revision merged, and who contributed to a change request. Access is the
 * space's `view`, as for its other reads (`space(id)` checked it); resolvers call domain reads.
 */
import { changeRequestContributors } from '../../domain/versions/change-requests/contributors.js';
import { revisionChanges } from '../../domain/versions/revisions/revision-changes.js';
import { spaceHasDocument } from '../../domain/versions/revisions/space-documents.js';
import { searchSpace } from '../../domain/versions/search/space-query.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { ChangeRequestRef } from './change-request.js';
import { RevisionRef } from './revision.js';
import { downloadUrl } from './revision-content.js';
import { SearchPageResultRef } from './search.js';
import { UserRef } from './user.js';

const RevisionChangesRef = builder.simpleObject('RevisionChanges', {
  description: 'What a revision changed compared with its parent.',
  fields: (t) => ({
    changes: t.field({ type: ['JSON'], description: 'RevisionSemanticChange objects of the public API (page_created, page_edited, page_moved, file_deleted, …).' }),
    more: t.int({ nullable: true, description: 'Changes left out past `limit`.' }),
  }),
});

const ContributorActionEnum = builder.enumType('ContributorAction', { description: 'What a contributor did in a change request: edited its content or commented on it.', values: { edit: { description: 'Edited the change request\'s content.' }, comment: { description: 'Commented on the change request.' } } as const });

const ChangeRequestContributorRef = builder.simpleObject('ChangeRequestContributor', {
  description: 'A user who wrote revisions of a change request (`edit`) or commented on it (`comment`).',
  fields: (t) => ({
    actionType: t.field({ description: 'What they did: wrote revisions (`edit`) or commented (`comment`).', type: ContributorActionEnum }),
    count: t.int({ description: 'Revisions written, or comments made.' }),
    updatedAt: t.field({ type: 'DateTime', description: 'The last of them.' }),
    user: t.field({ description: 'The user who contributed.', type: UserRef }),
  }),
});

builder.prismaObjectFields('Space', (t) => ({
  search: t.connection({
    type: SearchPageResultRef,
    description:
      "Full-text search of the space's current content: its matching pages, best first, each with its best sections " +
      '(the query reads as in `Organization.search`; at most 512 characters).',
    args: { query: t.arg.string({ description: 'The words to search for (at most 512 characters).', required: true }) },
    resolve: async (space, args, ctx) => {
      const page = await searchSpace(ctx.db, space.id, args.query, args);
      return pageConnection(page, page.totalCount);
    },
  }),
  revisionById: t.field({
    type: RevisionRef,
    description: "A revision of the space by ID: one of its own, or of one of its change requests (NOT_FOUND for another space's).",
    args: { id: t.arg.id({ description: "The revision's ID.", required: true }) },
    resolve: async (space, { id }, ctx) => {
      const revision = String(id).length <= 128 ? await ctx.loaders.revision.load(String(id)) : null;
      if (!revision || revision.spaceId !== space.id) throw notFound('Revision');
      return revision;
    },
  }),
  document: t.field({
    type: 'JSON',
    description: 'A document (a page or reusable content body) that some revision of the space holds, by ID (NOT_FOUND otherwise).',
    args: { id: t.arg.id({ description: "The document's ID (a page's or reusable content's `documentId`).", required: true }) },
    resolve: async (space, { id }, ctx) => {
      const documentId = String(id);
      const document = documentId.length <= 128 && (await spaceHasDocument(ctx.db, space.id, documentId)) ? await ctx.loaders.document.load(documentId) : null;
      if (!document) throw notFound('Document');
      return document;
    },
  }),
}));

builder.objectFields(RevisionRef, (t) => ({
  changes: t.field({
    type: RevisionChangesRef,
    description: 'What the revision changed against its first parent (a merge: what the merged request brought in; a first revision: everything in it).',
    args: { limit: t.arg.int({ required: false, description: 'At most this many changes (default 10, at most 1000); `more` counts the rest.' }) },
    resolve: (r, { limit }, ctx) => {
      const max = limit ?? 10;
      if (!Number.isInteger(max) || max < 0 || max > 1000) throw badRequest('Invalid value for "limit": must be an integer between 0 and 1000', 'limit');
      return revisionChanges(ctx.db, r, max, (file) => downloadUrl(ctx, file));
    },
  }),
  mergedFrom: t.field({
    type: ChangeRequestRef,
    nullable: true,
    description: 'Merge revisions: the change request merged.',
    resolve: async (r, _a, ctx) => (r.mergedFromId ? (await ctx.access.requireChangeRequest(r.spaceId, r.mergedFromId)).changeRequest : null),
  }),
}));

builder.prismaObjectFields('ChangeRequest', (t) => ({
  contributors: t.field({
    type: [ChangeRequestContributorRef],
    description: 'Who wrote revisions of the request and who commented on it, most recent first.',
    resolve: async (r, _a, ctx) => {
      const rows = await changeRequestContributors(ctx.db, r.id);
      const users = await Promise.all(rows.map((c) => ctx.loaders.user.load(c.userId)));
      return rows.flatMap((c, i) => (users[i] ? [{ actionType: c.actionType, count: c.count, updatedAt: c.updatedAt, user: users[i]! }] : []));
    },
  }),
}));
