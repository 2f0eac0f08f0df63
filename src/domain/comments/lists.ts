/**
 * Lists of comments and replies, as keyset pages in SQL. Comments of a place (the index on
 * spaceId, changeRequestId, createdAt, id), newest first unless told otherwise, filtered by status,
 * page and authors; a thread's replies oldest first (the index on commentId, createdAt, id).
 */
import { Prisma } from '../../generated/prisma/client.js';
import { badRequest } from '../../lib/errors.js';
import { countRows } from '../kernel/pagination/count.js';
import { byTimeThenId, readPage, type Page, type PageArgs, type Queryable } from '../kernel/pagination/keyset.js';
import { inPlace, SELECT_COMMENTS, SELECT_REPLIES, type CommentPlace, type CommentRow, type ReplyRow } from './rows.js';

const { sql, raw, join } = Prisma;

/** The most authors one list may be filtered on. */
export const MAX_AUTHORS = 100;

export type CommentFilter = {
  status?: 'all' | 'open' | 'resolved' | null;
  pageId?: string | null;
  authors?: readonly string[] | null;
  order?: 'asc' | 'desc' | null;
};

function conditions(place: CommentPlace, filter: CommentFilter): Prisma.Sql[] {
  if ((filter.authors?.length ?? 0) > MAX_AUTHORS) throw badRequest(`Invalid value for "authors": at most ${MAX_AUTHORS} users`, 'authors');
  return [
    inPlace(place),
    ...(filter.status && filter.status !== 'all' ? [sql`c."status" = ${filter.status}::"CommentStatus"`] : []),
    ...(filter.pageId ? [sql`c."pageId" = ${filter.pageId}`] : []),
    ...(filter.authors?.length ? [sql`c."authorId" = ANY(${[...filter.authors]}::text[])`] : []),
  ];
}

const commentOrder = (place: CommentPlace, filter: CommentFilter) =>
  byTimeThenId<CommentRow>(
    `comments:${place.spaceId}:${place.changeRequestId ?? ''}:${JSON.stringify([filter.status ?? 'all', filter.pageId ?? null, filter.authors ?? null, filter.order ?? 'desc'])}`,
    'c."createdAt"',
    'c."id"',
    (r) => [r.createdAt, r.id],
    { descending: (filter.order ?? 'desc') === 'desc', leading: [raw('c."spaceId"'), raw('c."changeRequestId"')] },
  );

export function commentsPage(db: Queryable, place: CommentPlace, filter: CommentFilter, args: PageArgs): Promise<Page<CommentRow>> {
  return readPage(db, SELECT_COMMENTS, conditions(place, filter), commentOrder(place, filter), args);
}

export function countComments(db: Queryable, place: CommentPlace, filter: CommentFilter): Promise<number> {
  return countRows(db, sql`"Comment" c WHERE ${join(conditions(place, filter), ' AND ')}`);
}

const replyOrder = (commentId: string) =>
  byTimeThenId<ReplyRow>(`replies:${commentId}`, 'r."createdAt"', 'r."id"', (r) => [r.createdAt, r.id], { leading: [raw('r."commentId"')] });

/** A thread's replies, oldest first. */
export function repliesPage(db: Queryable, commentId: string, args: PageArgs): Promise<Page<ReplyRow>> {
  return readPage(db, SELECT_REPLIES, [sql`r."commentId" = ${commentId}`], replyOrder(commentId), args);
}
