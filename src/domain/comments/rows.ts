/**
 * Rows of comments and replies as every read gives them (enum values as text), and where a comment
 * lives: a space's own content (`changeRequestId` null) or a change request. No access here:
 * callers check it (scope.ts).
 */
import { Prisma, type Comment, type CommentReply } from '../../generated/prisma/client.js';
import type { Queryable } from '../kernel/pagination/keyset.js';

const { sql } = Prisma;

export type CommentStatus = 'open' | 'resolved';
export type CommentRow = Omit<Comment, 'status'> & { status: CommentStatus };
/** A reply, with the space and change request of its comment (for its URL and access). */
export type ReplyRow = CommentReply & { spaceId: string; changeRequestId: string | null };

/** Where comments are listed: a space's own content, or one of its change requests. */
export type CommentPlace = { spaceId: string; changeRequestId: string | null };

export const SELECT_COMMENTS = sql`SELECT c."id", c."spaceId", c."changeRequestId", c."pageId", c."nodeKey", c."tableCell", c."revisionId",
    c."authorId", c."body", c."status"::text AS "status", c."resolvedAt", c."resolvedById", c."replyCount", c."createdAt", c."editedAt", c."updatedAt"
  FROM "Comment" c`;

export const SELECT_REPLIES = sql`SELECT r.*, c."spaceId", c."changeRequestId" FROM "CommentReply" r JOIN "Comment" c ON c."id" = r."commentId"`;

/** The comments `c` of a place. */
export const inPlace = (place: CommentPlace): Prisma.Sql =>
  place.changeRequestId === null ? sql`c."spaceId" = ${place.spaceId} AND c."changeRequestId" IS NULL` : sql`c."spaceId" = ${place.spaceId} AND c."changeRequestId" = ${place.changeRequestId}`;

/** One comment of the place (null: none with that ID there). */
export async function findComment(db: Queryable, place: CommentPlace, id: string): Promise<CommentRow | null> {
  const [row] = await db.$queryRaw<CommentRow[]>(sql`${SELECT_COMMENTS} WHERE ${inPlace(place)} AND c."id" = ${id}`);
  return row ?? null;
}

/** One reply of a comment of the place (null: none with that ID there). */
export async function findReply(db: Queryable, place: CommentPlace, commentId: string, id: string): Promise<ReplyRow | null> {
  const [row] = await db.$queryRaw<ReplyRow[]>(sql`${SELECT_REPLIES} WHERE ${inPlace(place)} AND r."commentId" = ${commentId} AND r."id" = ${id}`);
  return row ?? null;
}

/** Comments by ID, whatever their place (each row names it; the caller checks access). */
export function commentsByIds(db: Queryable, ids: readonly string[]): Promise<CommentRow[]> {
  return db.$queryRaw<CommentRow[]>(sql`${SELECT_COMMENTS} WHERE c."id" = ANY(${[...ids]}::text[])`);
}

export function repliesByIds(db: Queryable, ids: readonly string[]): Promise<ReplyRow[]> {
  return db.$queryRaw<ReplyRow[]>(sql`${SELECT_REPLIES} WHERE r."id" = ANY(${[...ids]}::text[])`);
}
