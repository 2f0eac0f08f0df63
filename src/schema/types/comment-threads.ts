/**
 * Where comments are listed: the threads of a space's own content, of a change request and of a
 * page (in the content the page was read from), one comment by ID, and who took part.
 */
import { commentersPage, countCommenters } from '../../domain/comments/commenters.js';
import { commentsPage, countComments, type CommentFilter } from '../../domain/comments/lists.js';
import { findComment, type CommentPlace } from '../../domain/comments/rows.js';
import { requireMemberRead } from '../../domain/people/members/access.js';
import { notFound } from '../../lib/errors.js';
import { builder } from '../builder.js';
import { pageConnection, type PageArgs } from '../connection.js';
import type { Context } from '../context.js';
import { CommentRef, CommentStatusFilterEnum } from './comment.js';
import { SortOrderEnum } from './enums.js';
import { MemberRef } from './member.js';
import { PageRef } from './page.js';

type ThreadArgs = { status?: 'all' | 'open' | 'resolved' | null; pageId?: string | number | null; authors?: readonly (string | number)[] | null; order?: 'asc' | 'desc' | null };

const filterOf = (args: ThreadArgs, pageId?: string): CommentFilter => ({
  status: args.status ?? 'all',
  pageId: pageId ?? (args.pageId == null ? null : String(args.pageId)),
  authors: args.authors?.map(String) ?? null,
  order: args.order ?? 'desc',
});

async function threads(ctx: Context, place: CommentPlace, filter: CommentFilter, args: PageArgs) {
  return pageConnection(await commentsPage(ctx.db, place, filter, args), () => countComments(ctx.db, place, filter));
}

async function comment(ctx: Context, place: CommentPlace, id: string | number) {
  const found = await findComment(ctx.db, place, String(id));
  if (!found) throw notFound('Comment');
  return found;
}

async function commenters(ctx: Context, organizationId: string, place: CommentPlace, args: PageArgs) {
  await requireMemberRead(ctx.access, organizationId);
  return pageConnection(await commentersPage(ctx.db, organizationId, place, args), () => countCommenters(ctx.db, organizationId, place));
}

const THREADS_DESCRIPTION = 'Comments, newest first unless `order: asc`; `status` (default all), `pageId` and `authors` filter them.';

builder.prismaObjectFields('Space', (t) => ({
  commentThreads: t.connection({
    type: CommentRef,
    description: `The comments on the space's own content (not those of its change requests). ${THREADS_DESCRIPTION}`,
    args: {
      status: t.arg({ description: 'Which threads: all (the default), only open or only resolved ones.', type: CommentStatusFilterEnum }),
      pageId: t.arg.id({ description: 'Only the comments on this page (its ID).' }),
      authors: t.arg.idList({ description: 'Only the comments posted by these users (their IDs, at most 100).' }),
      order: t.arg({ description: 'By posting time: `desc` (the default, newest first) or `asc`.', type: SortOrderEnum }),
    },
    resolve: (s, args, ctx) => threads(ctx, { spaceId: s.id, changeRequestId: null }, filterOf(args), args),
  }),
  comment: t.field({
    type: CommentRef,
    description: "A comment on the space's own content.",
    args: { id: t.arg.id({ description: "The comment's ID.", required: true }) },
    resolve: (s, { id }, ctx) => comment(ctx, { spaceId: s.id, changeRequestId: null }, id),
  }),
  commenters: t.connection({
    type: MemberRef,
    description: "Members who posted a comment or a reply on the space's own content, by name (for members with an organization role).",
    resolve: (s, args, ctx) => commenters(ctx, s.organizationId, { spaceId: s.id, changeRequestId: null }, args),
  }),
}));

builder.prismaObjectFields('ChangeRequest', (t) => ({
  commentThreads: t.connection({
    type: CommentRef,
    description: `The comments made in the change request. ${THREADS_DESCRIPTION}`,
    args: {
      status: t.arg({ description: 'Which threads: all (the default), only open or only resolved ones.', type: CommentStatusFilterEnum }),
      pageId: t.arg.id({ description: 'Only the comments on this page (its ID).' }),
      authors: t.arg.idList({ description: 'Only the comments posted by these users (their IDs, at most 100).' }),
      order: t.arg({ description: 'By posting time: `desc` (the default, newest first) or `asc`.', type: SortOrderEnum }),
    },
    resolve: (r, args, ctx) => threads(ctx, { spaceId: r.spaceId, changeRequestId: r.id }, filterOf(args), args),
  }),
  comment: t.field({
    type: CommentRef,
    description: 'A comment made in the change request.',
    args: { id: t.arg.id({ description: "The comment's ID.", required: true }) },
    resolve: (r, { id }, ctx) => comment(ctx, { spaceId: r.spaceId, changeRequestId: r.id }, id),
  }),
  commenters: t.connection({
    type: MemberRef,
    description: 'Members who posted a comment or a reply in the change request, by name (for members with an organization role).',
    resolve: async (r, args, ctx) => {
      const space = await ctx.loaders.space.load(r.spaceId);
      if (!space) throw notFound('Space');
      return commenters(ctx, space.organizationId, { spaceId: r.spaceId, changeRequestId: r.id }, args);
    },
  }),
}));

builder.objectFields(PageRef, (t) => ({
  commentThreads: t.connection({
    type: CommentRef,
    description: 'The comments on this page, in the content it was read from (the space\'s own, or a change request\'s); newest first unless `order: asc`.',
    args: { status: t.arg({ description: 'Which threads: all (the default), only open or only resolved ones.', type: CommentStatusFilterEnum }), order: t.arg({ description: 'By posting time: `desc` (the default, newest first) or `asc`.', type: SortOrderEnum }) },
    resolve: (p, args, ctx) => {
      const { spaceId, lineId } = p.scope;
      const place = { spaceId, changeRequestId: lineId !== spaceId ? lineId : null };
      return threads(ctx, place, filterOf(args, p.node.entry.entityId), args);
    },
  }),
}));
