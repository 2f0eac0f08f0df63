/**
 * GraphQL fragments and presenters of comments and replies (tags `space-comments`, `space-comment`,
 * `change-request-comments` of the public document). `$document` picks the body's format: the JSON
 * document (`{document}`) or markdown (`{markdown}`), as `format` says. Beyond the document, a
 * comment says whether it is `outdated` (its page or block is gone from the current content).
 */
import { presentUser, USER_FRAGMENT } from './present.js';

type Obj = Record<string, any>;

export const COMMENT_FRAGMENT = /* GraphQL */ `
  fragment RestComment on Comment {
    id spaceId changeRequestId pageId nodeKey tableCell revisionId status resolvedAt resolvedBy { ...RestUser } outdated
    body @include(if: $document) markdown @skip(if: $document)
    postedBy { ...RestUser } postedAt editedAt replyCount
    repliers { user { ...RestUser } count updatedAt }
    reactions { emoji count users { user { ...RestUser } reactedAt } }
    permissions { view edit reply delete } urls { location }
  }
  ${USER_FRAGMENT}
`;

export const REPLY_FRAGMENT = /* GraphQL */ `
  fragment RestCommentReply on CommentReply {
    id body @include(if: $document) markdown @skip(if: $document) postedBy { ...RestUser } postedAt editedAt
    reactions { emoji count users { user { ...RestUser } reactedAt } }
    permissions { view edit reply delete } urls { location }
  }
  ${USER_FRAGMENT}
`;

/** The documented Document: `{document}` or `{markdown}`, whichever the fragment read. */
const bodyOf = (post: Obj) => (post.body !== undefined ? { document: post.body } : { markdown: post.markdown });

const reactionsOf = (reactions: Obj[]) =>
  reactions.map((r) => ({ emoji: r.emoji, count: r.count, users: r.users.map((u: Obj) => ({ user: presentUser(u.user), reactedAt: u.reactedAt })) }));

const edited = (post: Obj) => (post.editedAt ? { editedAt: post.editedAt } : {});

export const presentComment = (c: Obj): Obj => ({
  object: 'comment',
  id: c.id,
  postedBy: presentUser(c.postedBy),
  postedAt: c.postedAt,
  ...edited(c),
  reactions: reactionsOf(c.reactions),
  replies: c.replyCount,
  repliers: c.repliers.map((r: Obj) => ({ user: presentUser(r.user), count: r.count, updatedAt: r.updatedAt })),
  body: bodyOf(c),
  target: {
    space: c.spaceId,
    revision: c.revisionId,
    ...(c.changeRequestId ? { changeRequest: c.changeRequestId } : {}),
    ...(c.pageId ? { page: { id: c.pageId } } : {}),
    ...(c.nodeKey ? { node: { id: c.nodeKey } } : {}),
    ...(c.tableCell ? { tableCell: c.tableCell } : {}),
  },
  urls: c.urls,
  permissions: c.permissions,
  status: c.status,
  ...(c.status === 'resolved' ? { resolvedAt: c.resolvedAt, resolvedBy: presentUser(c.resolvedBy) } : {}),
  outdated: c.outdated,
});

export const presentCommentReply = (r: Obj): Obj => ({
  object: 'comment-reply',
  id: r.id,
  postedBy: presentUser(r.postedBy),
  postedAt: r.postedAt,
  ...edited(r),
  reactions: reactionsOf(r.reactions),
  body: bodyOf(r),
  urls: r.urls,
  permissions: r.permissions,
});
