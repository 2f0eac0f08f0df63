/**
 * Loaders of what each comment or reply of a page of results shows beside its row: its reactions
 * and its repliers (per reply author: how many replies, the latest when). One statement for all
 * the posts of the page, bounded by the page.
 */
import type { Db } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { groupReactions, reactionsOf, type EmojiReaction } from '../comments/reactions.js';
import type { LoaderRegistry } from './registry.js';

/** Key of `commentReactions`: a comment (`replyId` empty) or one of its replies. */
export const postKey = (commentId: string, replyId: string | null) => `${commentId}|${replyId ?? ''}`;

export type Replier = { userId: string; count: number; updatedAt: Date };

export function commentLoaders(db: Db, registry: LoaderRegistry) {
  return {
    commentReactions: registry.track<string, EmojiReaction[]>(async (keys) => {
      const posts = keys.map((key) => {
        const [commentId, replyId] = key.split('|') as [string, string];
        return { commentId, replyId: replyId || null };
      });
      const rows = await reactionsOf(db, posts);
      const byPost = new Map<string, typeof rows>();
      for (const row of rows) byPost.set(row.postId, [...(byPost.get(row.postId) ?? []), row]);
      return posts.map((p) => groupReactions(byPost.get(p.replyId ?? p.commentId) ?? []));
    }),
    /** Per comment: each reply author, their count of replies and latest reply, latest first. */
    commentRepliers: registry.track<string, Replier[]>(async (commentIds) => {
      const rows = await db.$queryRaw<(Replier & { commentId: string })[]>(Prisma.sql`SELECT "commentId", "authorId" AS "userId", count(*)::int AS "count", max("createdAt") AS "updatedAt"
        FROM "CommentReply" WHERE "commentId" = ANY(${[...commentIds]}::text[]) GROUP BY "commentId", "authorId" ORDER BY max("createdAt") DESC, "authorId"`);
      const byComment = new Map<string, Replier[]>(commentIds.map((id) => [id, []]));
      for (const { commentId, ...replier } of rows) byComment.get(commentId)?.push(replier);
      return commentIds.map((id) => byComment.get(id) ?? []);
    }),
  };
}
