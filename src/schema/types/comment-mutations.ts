/**
 * The writes of comments and replies: post, update (body, resolve or reopen, reactions), delete.
 * `changeRequestId` (an ID or a number) names a change request's comments; null, the space's own.
 * Each answers the object as read after the write; deletes answer false when there was none.
 */
import { deleteComment } from '../../domain/comments/delete.js';
import { postComment } from '../../domain/comments/post.js';
import { deleteReply, postReply, updateReply } from '../../domain/comments/replies.js';
import { findComment, findReply } from '../../domain/comments/rows.js';
import { requireCommentScope } from '../../domain/comments/scope.js';
import { updateComment } from '../../domain/comments/update.js';
import { notFound } from '../../lib/errors.js';
import { builder } from '../builder.js';
import { forgetLoaded, type Context } from '../context.js';
import { CommentRef, CommentReplyRef } from './comment.js';

type Target = { spaceId: string | number; changeRequestId?: string | number | null };

const targetOf = (args: Target) => ({ spaceId: String(args.spaceId), changeRequestId: args.changeRequestId == null ? null : String(args.changeRequestId) });

/** The place of a write, read afresh after it. */
async function placeAfter(ctx: Context, args: Target) {
  forgetLoaded(ctx);
  const target = targetOf(args);
  return (await requireCommentScope(ctx.access, target.spaceId, target.changeRequestId, 'view')).place;
}

async function commentAfter(ctx: Context, args: Target, id: string) {
  const found = await findComment(ctx.db, await placeAfter(ctx, args), id);
  if (!found) throw notFound('Comment');
  return found;
}

async function replyAfter(ctx: Context, args: Target, commentId: string, id: string) {
  const found = await findReply(ctx.db, await placeAfter(ctx, args), commentId, id);
  if (!found) throw notFound('Comment reply');
  return found;
}

/** Defined entries only: an argument left out stays out of the domain's input. */
const given = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));

builder.mutationFields((t) => ({
  postComment: t.field({
    type: CommentRef,
    description: 'Posts a comment (`comment` on the space): on the content, a page of it, a block of the page (`node`: its key) or a table cell.',
    args: {
      spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }),
      changeRequestId: t.arg.id({ description: 'ID or number; null: the space\'s own content.' }),
      page: t.arg.id({ description: 'The ID of the page to comment on; left out, the comment is on the whole content.' }),
      node: t.arg.string({ description: 'The key of the block (or inline) of the page to comment on; needs `page`.' }),
      tableCell: t.arg({ type: 'JSON', description: '`{record, definition}`.' }),
      body: t.arg({ type: 'JSON', required: true, description: '`{markdown}`, `{document: JSONDocument}` or `{}`.' }),
    },
    resolve: async (_root, args, ctx) => {
      const target = targetOf(args);
      const input = given({ page: args.page == null ? args.page : String(args.page), node: args.node, tableCell: args.tableCell, body: args.body });
      const id = await postComment(ctx.db, ctx.access, target, input);
      return commentAfter(ctx, args, id);
    },
  }),
  updateComment: t.field({
    type: CommentRef,
    description: 'Edits the body (its author), resolves or reopens (`resolved`), adds or removes the caller\'s reactions.',
    args: {
      spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }),
      changeRequestId: t.arg.id({ description: "The ID or number of the change request the comment is in; null: the space's own content." }),
      id: t.arg.id({ description: "The comment's ID.", required: true }),
      body: t.arg({ description: 'The new body: `{markdown}` or `{document: JSONDocument}`; left out, unchanged.', type: 'JSON' }),
      resolved: t.arg.boolean({ description: 'True resolves the thread, false reopens it; left out, unchanged.' }),
      addedReactions: t.arg.stringList({ description: 'Emojis the caller reacts with (one reaction per emoji and user).' }),
      removedReactions: t.arg.stringList({ description: 'Emojis whose reaction by the caller is removed.' }),
    },
    resolve: async (_root, args, ctx) => {
      const input = given({ body: args.body ?? undefined, resolved: args.resolved, addedReactions: args.addedReactions, removedReactions: args.removedReactions });
      await updateComment(ctx.db, ctx.access, targetOf(args), String(args.id), input);
      return commentAfter(ctx, args, String(args.id));
    },
  }),
  deleteComment: t.boolean({
    description: 'Deletes a comment and its replies (its author, or `moderateComments`); false when there was none.',
    args: { spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), changeRequestId: t.arg.id({ description: "The ID or number of the change request the comment is in; null: the space's own content." }), id: t.arg.id({ description: "The comment's ID.", required: true }) },
    resolve: async (_root, args, ctx) => {
      const deleted = await deleteComment(ctx.db, ctx.access, targetOf(args), String(args.id));
      forgetLoaded(ctx);
      return deleted;
    },
  }),
  postCommentReply: t.field({
    type: CommentReplyRef,
    description: "Posts a reply in a comment's thread (`comment` on the space).",
    args: { spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), changeRequestId: t.arg.id({ description: "The ID or number of the change request the comment is in; null: the space's own content." }), commentId: t.arg.id({ required: true, description: 'The comment\'s ID.' }), body: t.arg({ description: 'The body: `{markdown}` or `{document: JSONDocument}`.', type: 'JSON', required: true }) },
    resolve: async (_root, args, ctx) => {
      const id = await postReply(ctx.db, ctx.access, targetOf(args), String(args.commentId), { body: args.body });
      return replyAfter(ctx, args, String(args.commentId), id);
    },
  }),
  updateCommentReply: t.field({
    type: CommentReplyRef,
    description: "Edits a reply's body (its author), adds or removes the caller's reactions.",
    args: {
      spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }),
      changeRequestId: t.arg.id({ description: "The ID or number of the change request the comment is in; null: the space's own content." }),
      commentId: t.arg.id({ required: true, description: 'The comment\'s ID.' }),
      id: t.arg.id({ description: "The reply's ID.", required: true }),
      body: t.arg({ description: 'The new body: `{markdown}` or `{document: JSONDocument}`; left out, unchanged.', type: 'JSON' }),
      addedReactions: t.arg.stringList({ description: 'Emojis the caller reacts with (one reaction per emoji and user).' }),
      removedReactions: t.arg.stringList({ description: 'Emojis whose reaction by the caller is removed.' }),
    },
    resolve: async (_root, args, ctx) => {
      const input = given({ body: args.body ?? undefined, addedReactions: args.addedReactions, removedReactions: args.removedReactions });
      await updateReply(ctx.db, ctx.access, targetOf(args), String(args.commentId), String(args.id), input);
      return replyAfter(ctx, args, String(args.commentId), String(args.id));
    },
  }),
  deleteCommentReply: t.boolean({
    description: 'Deletes a reply (its author, or `moderateComments`); false when there was none.',
    args: { spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), changeRequestId: t.arg.id({ description: "The ID or number of the change request the comment is in; null: the space's own content." }), commentId: t.arg.id({ required: true, description: 'The comment\'s ID.' }), id: t.arg.id({ description: "The reply's ID.", required: true }) },
    resolve: async (_root, args, ctx) => {
      const deleted = await deleteReply(ctx.db, ctx.access, targetOf(args), String(args.commentId), String(args.id));
      forgetLoaded(ctx);
      return deleted;
    },
  }),
}));
