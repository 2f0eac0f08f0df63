/**
 * Comments and replies (tags `space-comments`, `space-comment` and `change-request-comments` of the
 * public document): the same eleven rows on a space's own content and in a change request (its ID
 * or number), plus who commented. Lists take `page`, `limit`, `order` (by post time, newest first
 * by default), `status`, `targetPage` and `authors` (repeated or comma-separated); reads take
 * `format` (document or markdown). POST answers 200 with the object; DELETE 205 when it deleted,
 * 204 when there was no such comment or reply.
 */
import { badRequest } from '../../lib/errors.js';
import { COMMENT_FRAGMENT, presentComment, presentCommentReply, REPLY_FRAGMENT } from '../present-comments.js';
import { MEMBER_FRAGMENT, presentMember } from '../present-people.js';
import { CONNECTION_FIELDS, enumParam, listOf, pageArgs, pick, route, stringParam, type RestInput, type Route } from '../route.js';

type Obj = Record<string, any>;

/** Where the rows sit: a space's own content, or a change request of it. */
type Place = {
  /** The documented path up to `/comments`. */
  path: string;
  /** Part of each operation's name. */
  name: string;
  /** Variable declarations the place adds. */
  declare: string;
  /** The GraphQL selection reaching the place's parent object, around `inner`. */
  read: (inner: string) => string;
  /** Arguments naming the place in mutations. */
  args: string;
  /** The place's object in `data`. */
  of: (data: Obj) => Obj;
  variables: (input: RestInput) => Record<string, unknown>;
};

const SPACE: Place = {
  path: '/spaces/{spaceId}',
  name: 'Space',
  declare: '$spaceId: ID!',
  read: (inner) => `space(id: $spaceId) { ${inner} }`,
  args: 'spaceId: $spaceId',
  of: (data) => data.space,
  variables: ({ params }) => ({ spaceId: params.spaceId }),
};

const CHANGE_REQUEST: Place = {
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}',
  name: 'ChangeRequest',
  declare: '$spaceId: ID!, $changeRequestId: ID!',
  read: (inner) => `space(id: $spaceId) { changeRequest(id: $changeRequestId) { ${inner} } }`,
  args: 'spaceId: $spaceId, changeRequestId: $changeRequestId',
  of: (data) => data.space.changeRequest,
  variables: ({ params }) => ({ spaceId: params.spaceId, changeRequestId: params.changeRequestId }),
};

/** `format`: the body as a JSON document (the default) or as markdown. */
const wantsDocument = (query: URLSearchParams) => (enumParam(query, 'format', ['document', 'markdown'] as const) ?? 'document') === 'document';

/** `authors`: user IDs, as repeated parameters or comma-separated (or both). */
function authorsParam(query: URLSearchParams): string[] | undefined {
  const ids = query
    .getAll('authors')
    .flatMap((value) => value.split(','))
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.some((id) => id.length > 100)) throw badRequest('Invalid value for "authors": not user IDs', 'authors');
  return ids.length ? ids : undefined;
}

/** A body that must be given (`body` of a post). */
function requiredBody(body: Record<string, unknown>): Record<string, unknown> {
  if (body.body === undefined || body.body === null) throw badRequest('Invalid value for "body": required', 'body');
  return pick(body, ['body']);
}

function placeRoutes(place: Place): Route[] {
  const { path, name, declare, read, args, of } = place;
  const comment = (input: RestInput) => ({ ...place.variables(input), id: input.params.commentId });
  const reply = (input: RestInput) => ({ ...place.variables(input), commentId: input.params.commentId, id: input.params.commentReplyId });
  return [
    route({
      method: 'GET',
      path: `${path}/comments`,
      operation: `query RestList${name}Comments(${declare}, $first: Int, $after: String, $status: CommentStatusFilter, $pageId: ID, $authors: [ID!], $order: SortOrder, $document: Boolean!) {
        ${read(`commentThreads(first: $first, after: $after, status: $status, pageId: $pageId, authors: $authors, order: $order) { ${CONNECTION_FIELDS} edges { node { ...RestComment } } }`)}
      } ${COMMENT_FRAGMENT}`,
      variables: (input) => ({
        ...place.variables(input),
        ...pageArgs(input.query),
        status: enumParam(input.query, 'status', ['all', 'open', 'resolved'] as const),
        order: enumParam(input.query, 'order', ['asc', 'desc'] as const),
        pageId: stringParam(input.query, 'targetPage', 100) || undefined,
        authors: authorsParam(input.query),
        document: wantsDocument(input.query),
      }),
      result: (data) => listOf(of(data).commentThreads, presentComment),
    }),
    route({
      method: 'POST',
      path: `${path}/comments`,
      operation: `mutation RestPost${name}Comment(${declare}, $page: ID, $node: String, $tableCell: JSON, $body: JSON!, $document: Boolean!) {
        comment: postComment(${args}, page: $page, node: $node, tableCell: $tableCell, body: $body) { ...RestComment }
      } ${COMMENT_FRAGMENT}`,
      variables: (input) => ({ ...place.variables(input), ...pick(input.body, ['page', 'node', 'tableCell']), ...requiredBody(input.body), document: wantsDocument(input.query) }),
      result: (data) => presentComment(data.comment),
    }),
    route({
      method: 'GET',
      path: `${path}/comments/{commentId}`,
      operation: `query RestGet${name}Comment(${declare}, $id: ID!, $document: Boolean!) { ${read('comment(id: $id) { ...RestComment }')} } ${COMMENT_FRAGMENT}`,
      variables: (input) => ({ ...comment(input), document: wantsDocument(input.query) }),
      result: (data) => presentComment(of(data).comment),
    }),
    route({
      method: 'PUT',
      path: `${path}/comments/{commentId}`,
      operation: `mutation RestUpdate${name}Comment(${declare}, $id: ID!, $body: JSON, $resolved: Boolean, $addedReactions: [String!], $removedReactions: [String!], $document: Boolean!) {
        comment: updateComment(${args}, id: $id, body: $body, resolved: $resolved, addedReactions: $addedReactions, removedReactions: $removedReactions) { ...RestComment }
      } ${COMMENT_FRAGMENT}`,
      variables: (input) => ({
        ...comment(input),
        ...pick(input.body, ['body', 'resolved', 'addedReactions', 'removedReactions'], ['addedReactions', 'removedReactions']),
        document: wantsDocument(input.query),
      }),
      result: (data) => presentComment(data.comment),
    }),
    route({
      method: 'DELETE',
      path: `${path}/comments/{commentId}`,
      operation: `mutation RestDelete${name}Comment(${declare}, $id: ID!) { deleted: deleteComment(${args}, id: $id) }`,
      variables: comment,
      status: (data) => (data.deleted ? 205 : 204),
    }),
    route({
      method: 'GET',
      path: `${path}/comments/{commentId}/replies`,
      operation: `query RestList${name}CommentReplies(${declare}, $id: ID!, $first: Int, $after: String, $document: Boolean!) {
        ${read(`comment(id: $id) { replies(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestCommentReply } } } }`)}
      } ${REPLY_FRAGMENT}`,
      variables: (input) => ({ ...comment(input), ...pageArgs(input.query), document: wantsDocument(input.query) }),
      result: (data) => listOf(of(data).comment.replies, presentCommentReply),
    }),
    route({
      method: 'POST',
      path: `${path}/comments/{commentId}/replies`,
      operation: `mutation RestPost${name}CommentReply(${declare}, $commentId: ID!, $body: JSON!, $document: Boolean!) {
        reply: postCommentReply(${args}, commentId: $commentId, body: $body) { ...RestCommentReply }
      } ${REPLY_FRAGMENT}`,
      variables: (input) => ({ ...place.variables(input), commentId: input.params.commentId, ...requiredBody(input.body), document: wantsDocument(input.query) }),
      result: (data) => presentCommentReply(data.reply),
    }),
    route({
      method: 'GET',
      path: `${path}/comments/{commentId}/replies/{commentReplyId}`,
      operation: `query RestGet${name}CommentReply(${declare}, $commentId: ID!, $id: ID!, $document: Boolean!) {
        ${read('comment(id: $commentId) { reply(id: $id) { ...RestCommentReply } }')}
      } ${REPLY_FRAGMENT}`,
      variables: (input) => ({ ...reply(input), document: wantsDocument(input.query) }),
      result: (data) => presentCommentReply(of(data).comment.reply),
    }),
    route({
      method: 'PUT',
      path: `${path}/comments/{commentId}/replies/{commentReplyId}`,
      operation: `mutation RestUpdate${name}CommentReply(${declare}, $commentId: ID!, $id: ID!, $body: JSON, $addedReactions: [String!], $removedReactions: [String!], $document: Boolean!) {
        reply: updateCommentReply(${args}, commentId: $commentId, id: $id, body: $body, addedReactions: $addedReactions, removedReactions: $removedReactions) { ...RestCommentReply }
      } ${REPLY_FRAGMENT}`,
      variables: (input) => ({
        ...reply(input),
        ...pick(input.body, ['body', 'addedReactions', 'removedReactions'], ['addedReactions', 'removedReactions']),
        document: wantsDocument(input.query),
      }),
      result: (data) => presentCommentReply(data.reply),
    }),
    route({
      method: 'DELETE',
      path: `${path}/comments/{commentId}/replies/{commentReplyId}`,
      operation: `mutation RestDelete${name}CommentReply(${declare}, $commentId: ID!, $id: ID!) { deleted: deleteCommentReply(${args}, commentId: $commentId, id: $id) }`,
      variables: reply,
      status: (data) => (data.deleted ? 205 : 204),
    }),
    route({
      method: 'GET',
      path: `${path}/commenters`,
      operation: `query RestList${name}Commenters(${declare}, $first: Int, $after: String) {
        ${read(`commenters(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestMember } } }`)}
      } ${MEMBER_FRAGMENT}`,
      variables: (input) => ({ ...place.variables(input), ...pageArgs(input.query) }),
      result: (data) => listOf(of(data).commenters, presentMember),
    }),
  ];
}

export const commentRoutes = [...placeRoutes(SPACE), ...placeRoutes(CHANGE_REQUEST)];
