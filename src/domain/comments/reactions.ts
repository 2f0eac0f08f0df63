/**
 * Emoji reactions to a comment or to one of its replies: one row per post, user and emoji (a unique
 * index), so adding one twice keeps one and removing one never reacted is nothing. A request adds
 * or removes at most MAX_REACTIONS emojis of at most MAX_EMOJI characters each.
 */
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import { newId } from '../kernel/ids.js';
import { lazySchema } from '../../lib/validation.js';

const { sql } = Prisma;

export const MAX_REACTIONS = 20;
export const MAX_EMOJI = 32;

export const reactionListSchema = lazySchema(() => z.array(z.string().trim().min(1).max(MAX_EMOJI)).max(MAX_REACTIONS));

export type ReactionChange = { added?: readonly string[] | null; removed?: readonly string[] | null };

/** Applies `userId`'s reactions to the post (`replyId` null: the comment); answers whether any row changed. */
export async function applyReactions(tx: Prisma.TransactionClient, commentId: string, replyId: string | null, userId: string, change: ReactionChange): Promise<boolean> {
  const added = [...new Set(change.added ?? [])];
  const removed = [...new Set(change.removed ?? [])];
  let changed = 0;
  if (added.length) {
    // A millisecond apart (the column keeps milliseconds), in the order given: the reactions of one request keep their order.
    changed += await tx.$executeRaw(sql`INSERT INTO "CommentReaction" ("id", "commentId", "replyId", "userId", "emoji", "createdAt")
      SELECT r.id, ${commentId}, ${replyId}, ${userId}, r.emoji, now() + r.n * interval '1 millisecond'
      FROM unnest(${added.map(() => newId('CommentReaction'))}::text[], ${added}::text[]) WITH ORDINALITY AS r(id, emoji, n)
      ON CONFLICT ("commentId", COALESCE("replyId", ''), "userId", "emoji") DO NOTHING`);
  }
  if (removed.length) {
    changed += await tx.$executeRaw(sql`DELETE FROM "CommentReaction" WHERE "commentId" = ${commentId} AND COALESCE("replyId", '') = ${replyId ?? ''}
      AND "userId" = ${userId} AND "emoji" = ANY(${removed}::text[])`);
  }
  return changed > 0;
}

/** A reaction as reads give it: of the post `postId` (the comment's or the reply's ID). */
export type ReactionRow = { postId: string; emoji: string; userId: string; createdAt: Date };

/** The reactions to some posts, oldest first (`posts`: each post's comment and reply, null for the comment itself). */
export function reactionsOf(db: { $queryRaw<T>(q: Prisma.Sql): Promise<T> }, posts: readonly { commentId: string; replyId: string | null }[]): Promise<ReactionRow[]> {
  const commentIds = [...new Set(posts.map((p) => p.commentId))];
  const replyIds = [...new Set(posts.map((p) => p.replyId ?? ''))];
  return db.$queryRaw<ReactionRow[]>(sql`SELECT COALESCE("replyId", "commentId") AS "postId", "emoji", "userId", "createdAt" FROM "CommentReaction"
    WHERE "commentId" = ANY(${commentIds}::text[]) AND COALESCE("replyId", '') = ANY(${replyIds}::text[]) ORDER BY "createdAt", "id"`);
}

export type EmojiReaction = { emoji: string; count: number; users: { userId: string; reactedAt: Date }[] };

/** A post's reactions grouped by emoji, in the order each emoji was first used. */
export function groupReactions(rows: readonly ReactionRow[]): EmojiReaction[] {
  const byEmoji = new Map<string, EmojiReaction>();
  for (const row of rows) {
    const group = byEmoji.get(row.emoji) ?? { emoji: row.emoji, count: 0, users: [] };
    group.count++;
    group.users.push({ userId: row.userId, reactedAt: row.createdAt });
    byEmoji.set(row.emoji, group);
  }
  return [...byEmoji.values()];
}
