/**
 * Comments and their replies: the `Comment` and `CommentReply` types. Where they are listed is
 * comment-threads.ts; the mutations are comment-mutations.ts. Reading needs what reading the parent needed (`view`
 * on the space); resolvers read through the domain (domain/comments) and the request's loaders.
 */
import { repliesPage } from '../../domain/comments/lists.js';
import { commentOutdated } from '../../domain/comments/outdated.js';
import { postPermissions } from '../../domain/comments/permissions.js';
import { findReply, type CommentRow, type ReplyRow } from '../../domain/comments/rows.js';
import { postKey } from '../../domain/loaders/comments.js';
import type { EmojiReaction } from '../../domain/comments/reactions.js';
import { pageMarkdown } from '../../domain/versions/content-links/markdown-refs.js';
import type { JSONDocument } from '../../lib/documents/types.js';
import { notFound } from '../../lib/errors.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import type { Context } from '../context.js';
import { apiUrl, appUrl } from '../urls.js';
import { UserRef } from './user.js';

const user = async (ctx: Context, id: string) => {
  const found = await ctx.loaders.user.load(id);
  if (!found) throw new Error(`User ${id} of a comment is missing`);
  return found;
};

export const CommentStatusEnum = builder.enumType('CommentStatus', { description: 'Whether a comment thread is open or resolved.', values: { open: { description: 'Open.' }, resolved: { description: 'Marked resolved.' } } as const });
export const CommentStatusFilterEnum = builder.enumType('CommentStatusFilter', { description: 'Which comment threads to list: all of them, only the open ones or only the resolved ones.', values: { all: { description: 'Open and resolved threads.' }, open: { description: 'Only open threads.' }, resolved: { description: 'Only resolved threads.' } } as const });

const CommentReactionUser = builder.objectRef<EmojiReaction['users'][number]>('CommentReactionUser').implement({
  description: 'A user who reacted to a comment or reply with an emoji.',
  fields: (t) => ({
    user: t.field({ description: 'The user who reacted.', type: UserRef, resolve: (u, _a, ctx) => user(ctx, u.userId) }),
    reactedAt: t.expose('reactedAt', { description: 'When they added this reaction.', type: 'DateTime' }),
  }),
});

const CommentReaction = builder.objectRef<EmojiReaction>('CommentReaction').implement({
  description: 'An emoji and who reacted with it, oldest first.',
  fields: (t) => ({
    emoji: t.exposeString('emoji', { description: 'The emoji, as given in `addedReactions`.' }),
    count: t.exposeInt('count', { description: 'How many users reacted with this emoji.' }),
    users: t.field({ description: 'The users who reacted with it, oldest reaction first.', type: [CommentReactionUser], resolve: (r) => r.users }),
  }),
});

type ReplierShape = { userId: string; count: number; updatedAt: Date };
const CommentReplier = builder.objectRef<ReplierShape>('CommentReplier').implement({
  description: 'A user who replied in a thread: how many replies, and when last.',
  fields: (t) => ({
    user: t.field({ description: 'The user who replied.', type: UserRef, resolve: (r, _a, ctx) => user(ctx, r.userId) }),
    count: t.exposeInt('count', { description: 'How many replies of the thread are theirs.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
  }),
});

const CommentPermissions = builder.simpleObject('CommentPermissions', {
  description: "What the caller may do: view, edit (its author), reply and react (`comment`), delete (its author, or `moderateComments`).",
  fields: (t) => ({
    view: t.boolean({ description: 'Whether the caller may read it (`view` on the space).' }),
    edit: t.boolean({ description: 'Whether the caller may edit its body: only its author may.' }),
    reply: t.boolean({ description: 'Whether the caller may reply and react (`comment` on the space).' }),
    delete: t.boolean({ description: 'Whether the caller may delete it: its author, or whoever may `moderateComments`.' }),
  }),
});

const CommentUrls = builder.simpleObject('CommentUrls', { description: 'Where a comment is: in this API and in the app.', fields: (t) => ({ location: t.string({ description: 'Its absolute URL in this API.' }), app: t.string({ description: 'Its absolute URL in the app (the space or change request, opened on the comment).' }) }) });

/** The path of a comment's place in the API (`/spaces/x` or `/spaces/x/change-requests/y`). */
const placePath = (p: { spaceId: string; changeRequestId: string | null }) => `/spaces/${p.spaceId}${p.changeRequestId ? `/change-requests/${p.changeRequestId}` : ''}`;

async function permissionsOf(ctx: Context, spaceId: string, authorId: string) {
  const space = await ctx.loaders.space.load(spaceId);
  if (!space) throw notFound('Space');
  return postPermissions(space, await ctx.access.spaceRole(space), authorId === ctx.viewer.userId);
}

/** A post's body as markdown, its links written relative to its page in its place's current content. */
async function markdownOf(ctx: Context, place: { spaceId: string; changeRequestId: string | null }, pageId: string | null, body: unknown): Promise<string> {
  const revisionId = place.changeRequestId ? (await ctx.loaders.changeRequest.load(place.changeRequestId))?.revisionId : (await ctx.loaders.space.load(place.spaceId))?.revisionId;
  if (!revisionId) throw notFound('Space');
  return pageMarkdown(ctx.loaders, revisionId, pageId ?? '', body as JSONDocument, { title: '', refs: 'relative' });
}

export const CommentReplyRef = builder.objectRef<ReplyRow>('CommentReply').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: "A reply in a comment's thread.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    commentId: t.exposeString('commentId', { description: 'The ID of the comment whose thread it is in.' }),
    spaceId: t.exposeString('spaceId', { description: 'The ID of the space the thread is in.' }),
    changeRequestId: t.exposeString('changeRequestId', { description: "The ID of the change request the thread is in; null when it is on the space's own content.", nullable: true }),
    body: t.field({ type: 'JSON', description: 'The body as a JSON document.', resolve: (r) => r.body }),
    markdown: t.string({
      description: "The body as markdown, links written relative to the comment's page.",
      resolve: async (r, _a, ctx) => markdownOf(ctx, r, (await ctx.loaders.comment.load(r.commentId))?.pageId ?? null, r.body),
    }),
    postedBy: t.field({ description: 'The user who wrote it.', type: UserRef, resolve: (r, _a, ctx) => user(ctx, r.authorId) }),
    postedAt: t.expose('createdAt', { description: 'When it was posted.', type: 'DateTime' }),
    editedAt: t.expose('editedAt', { description: 'When its body was last edited; null if never.', type: 'DateTime', nullable: true }),
    reactions: t.field({ description: 'Its emoji reactions, one entry per emoji.', type: [CommentReaction], resolve: (r, _a, ctx) => ctx.loaders.commentReactions.load(postKey(r.commentId, r.id)) }),
    permissions: t.field({ description: 'What the caller may do with it.', type: CommentPermissions, resolve: (r, _a, ctx) => permissionsOf(ctx, r.spaceId, r.authorId) }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: CommentUrls,
      resolve: (r, _a, ctx) => ({
        location: apiUrl(ctx, `${placePath(r)}/comments/${r.commentId}/replies/${r.id}`),
        app: appUrl(ctx, `/s/${r.spaceId}${r.changeRequestId ? `/~/changes/${r.changeRequestId}` : ''}?comment=${r.commentId}`),
      }),
    }),
  }),
});

export const CommentRef = builder.objectRef<CommentRow>('Comment').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: "A comment on a space's content or in a change request: on a page, a block of it (by key) or a table cell, or on the whole.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    spaceId: t.exposeString('spaceId', { description: 'The ID of the space it is in.' }),
    changeRequestId: t.exposeString('changeRequestId', { description: "The ID of the change request it is in; null when it is on the space's own content.", nullable: true }),
    pageId: t.exposeString('pageId', { description: 'The ID of the page it is on; null when it is on the whole content.', nullable: true }),
    nodeKey: t.exposeString('nodeKey', { nullable: true, description: "The key of the block (or inline) of the page's document it is on." }),
    tableCell: t.field({ type: 'JSON', nullable: true, description: '`{record, definition}` of the table cell it is on.', resolve: (c) => c.tableCell }),
    revisionId: t.exposeString('revisionId', { description: 'The revision of its place when it was posted.' }),
    status: t.field({ description: 'Whether its thread is open or resolved.', type: CommentStatusEnum, resolve: (c) => c.status }),
    resolvedAt: t.expose('resolvedAt', { description: 'When it was last resolved; null while it is open.', type: 'DateTime', nullable: true }),
    resolvedBy: t.field({ description: 'Who last resolved it; null while it is open.', type: UserRef, nullable: true, resolve: (c, _a, ctx) => (c.resolvedById ? ctx.loaders.user.load(c.resolvedById) : null) }),
    outdated: t.boolean({
      description: "Its page is gone from its place's current content, or its block from the page's current document.",
      resolve: (c, _a, ctx) => commentOutdated(ctx.loaders, c),
    }),
    body: t.field({ type: 'JSON', description: 'The body as a JSON document.', resolve: (c) => c.body }),
    markdown: t.string({ description: 'The body as markdown, links written relative to its page.', resolve: (c, _a, ctx) => markdownOf(ctx, c, c.pageId, c.body) }),
    postedBy: t.field({ description: 'The user who wrote it.', type: UserRef, resolve: (c, _a, ctx) => user(ctx, c.authorId) }),
    postedAt: t.expose('createdAt', { description: 'When it was posted.', type: 'DateTime' }),
    editedAt: t.expose('editedAt', { description: 'When its body was last edited; null if never.', type: 'DateTime', nullable: true }),
    reactions: t.field({ description: 'Its emoji reactions, one entry per emoji.', type: [CommentReaction], resolve: (c, _a, ctx) => ctx.loaders.commentReactions.load(postKey(c.id, null)) }),
    replyCount: t.exposeInt('replyCount', { description: 'How many replies its thread has.' }),
    repliers: t.field({ type: [CommentReplier], description: 'Who replied, latest first.', resolve: (c, _a, ctx) => ctx.loaders.commentRepliers.load(c.id) }),
    replies: t.connection({
      type: CommentReplyRef,
      description: 'Replies, oldest first.',
      resolve: async (c, args, ctx) => pageConnection(await repliesPage(ctx.db, c.id, args), c.replyCount),
    }),
    reply: t.field({ description: 'One reply of its thread, by ID; NOT_FOUND if the thread has none of that ID.',
      type: CommentReplyRef,
      args: { id: t.arg.id({ description: "The reply's ID.", required: true }) },
      resolve: async (c, { id }, ctx) => {
        const reply = await findReply(ctx.db, c, c.id, String(id));
        if (!reply) throw notFound('Comment reply');
        return reply;
      },
    }),
    permissions: t.field({ description: 'What the caller may do with it.', type: CommentPermissions, resolve: (c, _a, ctx) => permissionsOf(ctx, c.spaceId, c.authorId) }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: CommentUrls,
      resolve: (c, _a, ctx) => ({
        location: apiUrl(ctx, `${placePath(c)}/comments/${c.id}`),
        app: appUrl(ctx, `/s/${c.spaceId}${c.changeRequestId ? `/~/changes/${c.changeRequestId}` : ''}?comment=${c.id}`),
      }),
    }),
  }),
});
