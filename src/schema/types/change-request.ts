/** Change requests of a space: their fields, the space's list of them, and `changeRequest`. */
import type { ChangeRequestStatus } from '../../generated/prisma/client.js';
import { CHANGE_REQUEST_ORDERS, type ChangeRequestRow } from '../../domain/versions/change-requests/rows.js';
import { pageVariant } from '../../domain/loaders/index.js';
import { changeRequestConflicts } from '../../domain/versions/change-requests/conflicts.js';
import { changeRequestChanges } from '../../domain/versions/change-requests/changes.js';
import { baseOf } from '../../domain/versions/change-requests/merge.js';
import { badRequest } from '../../lib/errors.js';
import { revisionScope } from '../../domain/versions/revisions/load.js';
import { downloadUrl } from './revision-content.js';
import type { BlockConflict, EntityConflict } from '../../lib/merge/index.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { optionalId } from '../optional-id.js';
import { apiUrl, appUrl } from '../urls.js';
import { RevisionRef } from './revision.js';
import { SpaceRef } from './space.js';
import { OrganizationRef } from './organization.js';
import { organizationChangeRequests } from '../../domain/versions/change-requests/organization-list.js';
import { UserRef } from './user.js';

export const ChangeRequestStatusEnum = builder.enumType('ChangeRequestStatus', { description: 'Where a change request stands: a draft, open for review, archived, or merged.', values: { draft: { description: 'Being written, not yet submitted for review.' }, open: { description: 'Submitted for review.' }, archived: { description: 'Closed without merging.' }, merged: { description: 'Merged into the space\'s content.' } } as const });
export const ChangeRequestOrderByEnum = builder.enumType('ChangeRequestOrderBy', { values: { createdAt: { description: 'By creation (by number), newest first.' }, updatedAt: { description: 'By last update, most recently updated first.' } } as const satisfies Record<(typeof CHANGE_REQUEST_ORDERS)[number], { description: string }>, description: 'What a list of change requests is sorted by, newest first.' });

const load = <T>(value: Promise<T | null>, what: string) => value.then((v) => {
  if (v === null) throw new Error(`${what} of a change request is missing`);
  return v;
});

const BlockConflictRef = builder.objectRef<BlockConflict>('BlockConflict').implement({
  description: 'A block changed differently on both sides (null: absent on that side).',
  fields: (t) => ({
    path: t.stringList({ description: 'Block keys from the top of the document; the last is the block in conflict.', resolve: (c) => c.path }),
    base: t.field({ description: 'The block in the revision both sides started from.', type: 'JSON', nullable: true, resolve: (c) => c.base }),
    ours: t.field({ type: 'JSON', nullable: true, description: "The change request's version.", resolve: (c) => c.ours }),
    theirs: t.field({ type: 'JSON', nullable: true, description: "The space's version.", resolve: (c) => c.theirs }),
  }),
});

const ChangeRequestConflictRef = builder.objectRef<EntityConflict>('ChangeRequestConflict').implement({
  description: 'A page (or file, or reusable content) the request and the space changed in ways that do not merge.',
  fields: (t) => ({
    entityId: t.id({ description: 'The page, file or reusable content.', resolve: (c) => c.entityId }),
    kind: t.string({ description: 'page, file or reusable-content.', resolve: (c) => c.kind }),
    reason: t.string({ description: 'field, delete-edit, move-move, cycle, orphan, path, group-nesting, document or edit-edit.', resolve: (c) => c.reason }),
    field: t.string({ description: 'For `field` conflicts: the attribute both sides changed (e.g. `title`, `slug`); null otherwise.', nullable: true, resolve: (c) => c.field ?? null }),
    blocks: t.field({ description: 'For `document` conflicts: the blocks in conflict; empty otherwise (or when one side has no body).', type: [BlockConflictRef], resolve: (c) => c.blocks ?? [] }),
    base: t.field({ description: 'The page, file or reusable content as it was in the revision both sides started from; null: absent there.', type: 'JSON', nullable: true, resolve: (c) => c.base }),
    ours: t.field({ description: "The change request's version; null: absent (deleted, or never created) there.", type: 'JSON', nullable: true, resolve: (c) => c.ours }),
    theirs: t.field({ description: "The space's current version; null: absent (deleted, or never created) there.", type: 'JSON', nullable: true, resolve: (c) => c.theirs }),
  }),
});

const ChangeRequestChangesRef = builder.simpleObject('ChangeRequestChanges', {
  description: 'What a change request changes compared with the content it started from.',
  fields: (t) => ({
    changes: t.field({ type: ['JSON'], description: 'RevisionSemanticChange objects of the public API (page_created, page_edited, page_moved, file_deleted, …).' }),
    more: t.int({ nullable: true, description: 'Changes left out past `limit`.' }),
  }),
});

export const ChangeRequestRef = builder.prismaNode('ChangeRequest', {
  description: 'A proposed set of edits to a space, made on its own revision and merged into the space\'s primary content when accepted.',
  id: { field: 'id' },
  fields: (t) => ({
    number: t.exposeInt('number', { description: 'Incremental identifier within the space.' }),
    status: t.field({ description: 'Where it stands: draft, open, archived or merged.', type: ChangeRequestStatusEnum, resolve: (r) => r.status }),
    subject: t.exposeString('subject', { description: 'Its subject (at most 100 characters); empty when it has none.' }),
    description: t.field({ description: 'Its description as a JSON document; null when it has none.', type: 'JSON', nullable: true, resolve: (r) => r.description }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    mergedAt: t.expose('mergedAt', { description: 'When it was merged; null unless merged.', type: 'DateTime', nullable: true }),
    createdBy: t.field({ description: 'The user who opened it.', type: UserRef, resolve: (r, _a, ctx) => load(ctx.loaders.user.load(r.createdById), 'The author') }),
    mergedBy: t.field({ description: 'The user who merged it; null unless merged.', type: UserRef, nullable: true, resolve: (r, _a, ctx) => (r.mergedById ? ctx.loaders.user.load(r.mergedById) : null) }),
    spaceId: t.exposeString('spaceId', { description: 'The ID of its space.' }),
    space: t.field({ description: 'Its space.', type: SpaceRef, resolve: (r, _a, ctx) => load(ctx.loaders.space.load(r.spaceId), 'The space') }),
    revisionId: t.exposeString('revisionId', { description: 'ID of the active revision.' }),
    revision: t.field({ description: 'Its current revision (the content as the request has it).', type: RevisionRef, resolve: (r, _a, ctx) => load(ctx.loaders.revision.load(r.revisionId), 'The revision') }),
    revisionInitialId: t.exposeString('revisionInitialId', { description: 'The space revision it was created from.' }),
    revisionMergedAncestorId: t.exposeString('revisionMergedAncestor', { nullable: true, description: 'The space revision it was last updated from.' }),
    revisionMergedId: t.exposeString('revisionMerged', { nullable: true, description: 'Once merged: the space revision the merge made.' }),
    comments: t.exposeInt('openCommentCount', { description: 'Open comments (a counter kept by triggers).' }),
    outdated: t.boolean({
      description: "Whether the space's content has changed since the request was created or last updated.",
      resolve: async (r, _a, ctx) => {
        if (r.status === 'merged') return false;
        const [space, revision] = await Promise.all([ctx.loaders.space.load(r.spaceId), ctx.loaders.revision.load(r.revisionId)]);
        return !!space && !!revision && revision.baseRevisionId !== space.revisionId;
      },
    }),
    changes: t.field({
      type: ChangeRequestChangesRef,
      description: 'What the request changes, against the space revision it is based on (pages, files, reusable contents).',
      args: { limit: t.arg.int({ required: false, description: 'At most this many changes (default 10, at most 1000); `more` counts the rest.' }) },
      resolve: async (r, { limit }, ctx) => {
        const max = limit ?? 10;
        if (!Number.isInteger(max) || max < 0 || max > 1000) throw badRequest('Invalid value for "limit": must be an integer between 0 and 1000', 'limit');
        const head = await revisionScope(ctx.db, r.revisionId);
        return changeRequestChanges(ctx.db, head, await baseOf(ctx.db, head), max, (file) => downloadUrl(ctx, file));
      },
    }),
    conflicts: t.field({
      type: [ChangeRequestConflictRef],
      description: 'What merging the request now would conflict on: resolve them by editing the request (or updating it) and merge again.',
      resolve: async (r, _a, ctx) => {
        const space = await load(ctx.loaders.space.load(r.spaceId), 'The space');
        return changeRequestConflicts(ctx.db, r, space.revisionId);
      },
    }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: builder.simpleObject('ChangeRequestUrls', { description: 'Where a change request is: in this API and in the app.', fields: (u) => ({ app: u.string({ description: 'Its URL in the app (under QUIRE_APP_URL).' }), location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }) }) }),
      resolve: (r, _a, ctx) => ({ app: appUrl(ctx, `/s/${r.spaceId}/~/changes/${r.number}`), location: apiUrl(ctx, `/spaces/${r.spaceId}/change-requests/${r.id}`) }),
    }),
  }),
});

builder.prismaObjectFields('Space', (t) => ({
  revision: t.field({
    type: RevisionRef,
    description: "The space's current revision.",
    resolve: async (space, _a, ctx) => load(ctx.loaders.revision.load(space.revisionId), 'The revision'),
  }),
  changeRequests: t.connection({
    type: ChangeRequestRef,
    description:
      'Change requests of one status (default: open), newest first by creation (`orderBy: createdAt`, the default) or by last update (`updatedAt`); `contributor`: only those a user wrote revisions of; `creator`: only those a user opened; `requestedReviewer`: only those a user was asked to review.',
    args: {
      status: t.arg({ description: 'Only change requests of this status; default open.', type: ChangeRequestStatusEnum, required: false }),
      contributor: t.arg.id({ description: 'Only those this user (their ID) wrote revisions of.', required: false }),
      creator: t.arg.id({ description: 'Only those this user (their ID) opened.', required: false }),
      requestedReviewer: t.arg.id({ description: 'Only those this user (their ID) was asked to review.', required: false }),
      orderBy: t.arg({ description: 'Sort by creation (`createdAt`, the default) or last update (`updatedAt`), newest first.', type: ChangeRequestOrderByEnum, required: false }),
    },
    resolve: async (space, args, ctx) => {
      await ctx.access.requireSpace(space.id, 'view', { allowDeleted: true });
      const status: ChangeRequestStatus = args.status ?? 'open';
      const filter = { status, contributor: optionalId(args.contributor), creator: optionalId(args.creator), requestedReviewer: optionalId(args.requestedReviewer) };
      const page = await ctx.loaders.changeRequests(pageVariant(args, args.orderBy ?? 'createdAt', JSON.stringify(filter))).load(space.id);
      return pageConnection<ChangeRequestRow>(page, () => ctx.loaders.changeRequestCount(JSON.stringify(filter)).load(space.id));
    },
  }),
  changeRequest: t.field({
    type: ChangeRequestRef,
    description: 'A change request by ID or number.',
    args: { id: t.arg.id({ description: "The change request's ID or its number in the space.", required: true }) },
    resolve: async (space, { id }, ctx) => (await ctx.access.requireChangeRequest(space.id, String(id))).changeRequest,
  }),
}));

builder.objectFields(OrganizationRef, (t) => ({
  changeRequests: t.connection({
    type: ChangeRequestRef,
    description:
      "Change requests of every space of the organization the caller can view (spaces in the trash left out), newest first by last update (`orderBy: updatedAt`, the default) or by creation; filtered by statuses (default: open), creator, contributor, requested reviewer, space or site.",
    args: {
      status: t.arg({ type: [ChangeRequestStatusEnum], required: false, description: 'Only these statuses (default: open).' }),
      creator: t.arg.id({ required: false, description: 'Only those this user opened.' }),
      contributor: t.arg.id({ required: false, description: 'Only those this user wrote revisions of.' }),
      requestedReviewer: t.arg.id({ required: false, description: 'Only those this user was asked to review.' }),
      space: t.arg.id({ required: false, description: 'Only those of this space.' }),
      site: t.arg.id({ required: false, description: 'Only those of the spaces of this site.' }),
      orderBy: t.arg({ type: ChangeRequestOrderByEnum, required: false, description: 'Sorted by last update (the default) or by creation, newest first.' }),
    },
    resolve: async (org, args, ctx) => {
      const id = optionalId;
      const filter = { statuses: args.status, creator: id(args.creator), contributor: id(args.contributor), requestedReviewer: id(args.requestedReviewer), space: id(args.space), site: id(args.site) };
      return pageConnection(await organizationChangeRequests(ctx.db, ctx.access, org.id, filter, args, args.orderBy ?? 'updatedAt'));
    },
  }),
}));
