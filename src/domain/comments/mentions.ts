/**
 * Mentions of a comment or a reply (a "post"): who the post's body mentions is recorded, in the
 * post's own transaction, as CommentMention rows, and each new row queues one mail
 * (jobs/handlers/mention-mail.ts). A row is keyed by post and user, so a post notifies a user at
 * most once however often it is edited: an edit that adds a mention queues a mail for the new user
 * only. Whether the user may read the comment is checked when the mail is sent, not here: access
 * can change between the two.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import { mentionedUsers } from '../../lib/documents/mentions.js';
import type { JSONDocument } from '../../lib/documents/types.js';

/** The graphile-worker task that sends one mention's mail. */
export const MENTION_MAIL_TASK = 'send_mention_mail';

/** The task's own retry bound (graphile-worker's `max_attempts`); the last failure marks the row. */
export const MENTION_MAIL_MAX_ATTEMPTS = 5;

export type MentionedPost = {
  organizationId: string;
  spaceId: string;
  changeRequestId: string | null;
  pageId: string | null;
  commentId: string;
  /** The comment's ID for the comment itself, the reply's for a reply. */
  postId: string;
  authorId: string;
  body: JSONDocument;
};

/**
 * In the post's transaction: records who `body` mentions (not the author, only members of the
 * organization), queues one mail per new mention; answers the mentioned user IDs (members, new or
 * already recorded). More than MAX_MENTIONS distinct users is a 400 naming `body`.
 */
export async function recordMentions(tx: Prisma.TransactionClient, post: MentionedPost): Promise<string[]> {
  const users = mentionedUsers(post.body, 'body').filter((id) => id !== post.authorId);
  if (!users.length) return [];
  // One statement: the members among them, their rows inserted (an existing row is left as it
  // is), and a queue entry for each row actually inserted (RETURNING runs per inserted row). The
  // job key makes a second queue entry for the same post and user replace, not add to, the first.
  // (A data-modifying WITH runs to completion even though the answer does not read it.)
  const rows = await tx.$queryRaw<{ userId: string }[]>`
    WITH members AS (
      SELECT "userId" FROM "Member" WHERE "organizationId" = ${post.organizationId} AND "userId" = ANY(${users}::text[])
    ), inserted AS (
      INSERT INTO "CommentMention" ("postId", "userId", "commentId")
      SELECT ${post.postId}, "userId", ${post.commentId} FROM members
      ON CONFLICT DO NOTHING
      RETURNING "userId", (graphile_worker.add_job(
        ${MENTION_MAIL_TASK}::text,
        json_build_object('postId', "postId", 'userId', "userId"),
        job_key := 'mention:' || "postId" || ':' || "userId",
        max_attempts := ${MENTION_MAIL_MAX_ATTEMPTS}::int
      )).id AS "jobId"
    )
    SELECT "userId" FROM members`;
  const recorded = new Set(rows.map((row) => row.userId));
  return users.filter((id) => recorded.has(id));
}
