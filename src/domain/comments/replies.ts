/**
 * Replies in a comment's thread: posting one and reacting need `comment`; editing one, being its
 * author with `comment`; deleting one, its author with `comment` or `moderateComments`. The
 * comment is locked (shared) while a reply is written, so a reply never lands in a comment being
 * deleted. Events name the reply (`subjectId`) and its comment (`data.commentId`).
 */
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import { lazySchema, parseInput } from '../../lib/validation.js';
import type { Access } from '../access/access.js';
import { guardedWrite } from '../access/guarded-write.js';
import { newId } from '../kernel/ids.js';
import { recordCommentEvent } from './events.js';
import { recordMentions } from './mentions.js';
import { mayDeletePost } from './permissions.js';
import { applyReactions } from './reactions.js';
import { findComment, findReply, type CommentRow } from './rows.js';
import { requireCommentScope, type CommentScope } from './scope.js';
import type { CommentTarget } from './post.js';
import { bodyInThread, postUpdateInput } from './update.js';

const { sql } = Prisma;

const postInput = lazySchema(() => z.object({ body: z.unknown() }).strict());
const updateInput = lazySchema(() => z.object(postUpdateInput).strict());

/** The comment of the scope's place, share-locked against its deletion; 404 when there is none. */
async function threadOf(tx: Prisma.TransactionClient, scope: CommentScope, commentId: string): Promise<CommentRow> {
  await tx.$executeRaw(sql`SELECT 1 FROM "Comment" WHERE "id" = ${commentId} FOR SHARE`);
  const comment = await findComment(tx, scope.place, commentId);
  if (!comment) throw notFound('Comment');
  return comment;
}

const eventOf = (scope: CommentScope, comment: CommentRow, actorId: string) => ({
  organizationId: scope.space.organizationId,
  spaceId: scope.space.id,
  changeRequestId: comment.changeRequestId,
  pageId: comment.pageId,
  actorId,
});

/** Posts a reply to comment `commentId`; answers its ID. */
export async function postReply(db: Db, access: Access, target: CommentTarget, commentId: string, raw: unknown): Promise<string> {
  const input = parseInput(postInput, raw ?? {});
  const check = (a: Access) => requireCommentScope(a, target.spaceId, target.changeRequestId, 'comment');
  const scope = await check(access);
  if (input.body == null) throw badRequest('Invalid value for "body": required', 'body');
  const body = (await bodyInThread(db, access, scope, commentId, input.body))!;
  const replyId = newId('CommentReply');
  await guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, scope) => {
    const comment = await threadOf(tx, scope, commentId);
    await tx.commentReply.create({ data: { id: replyId, commentId, authorId: access.userId, body: body as unknown as Prisma.InputJsonObject } });
    const of = eventOf(scope, comment, access.userId);
    const mentions = await recordMentions(tx, { ...of, commentId, postId: replyId, authorId: access.userId, body });
    await recordCommentEvent(tx, 'commentReplyCreated', of, replyId, { commentId, mentions });
  });
  return replyId;
}

export async function updateReply(db: Db, access: Access, target: CommentTarget, commentId: string, id: string, raw: unknown): Promise<void> {
  const input = parseInput(updateInput, raw ?? {});
  const check = (a: Access) => requireCommentScope(a, target.spaceId, target.changeRequestId, 'comment');
  const body = await bodyInThread(db, access, await check(access), commentId, input.body);
  await guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, scope) => {
    const comment = await threadOf(tx, scope, commentId);
    await tx.$executeRaw(sql`SELECT 1 FROM "CommentReply" WHERE "id" = ${id} FOR UPDATE`);
    const reply = await findReply(tx, scope.place, commentId, id);
    if (!reply) throw notFound('Comment reply');
    const of = eventOf(scope, comment, access.userId);
    const fields: string[] = [];
    let mentions: string[] | undefined;
    if (body) {
      if (reply.authorId !== access.userId) throw forbidden('Only its author may edit a reply');
      await tx.commentReply.update({ where: { id }, data: { body: body as unknown as Prisma.InputJsonObject, editedAt: new Date() } });
      mentions = await recordMentions(tx, { ...of, commentId, postId: id, authorId: reply.authorId, body });
      fields.push('body');
    }
    if (await applyReactions(tx, commentId, id, access.userId, { added: input.addedReactions, removed: input.removedReactions })) fields.push('reactions');
    if (fields.length) await recordCommentEvent(tx, 'commentReplyUpdated', of, id, { commentId, fields, ...(mentions ? { mentions } : {}) });
  });
}

/** Deletes a reply; false when the readable comment has no such reply (or there is no such comment). */
export async function deleteReply(db: Db, access: Access, target: CommentTarget, commentId: string, id: string): Promise<boolean> {
  const check = (a: Access) => requireCommentScope(a, target.spaceId, target.changeRequestId, 'view');
  return guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, scope) => {
    const comment = await findComment(tx, scope.place, commentId);
    if (!comment) return false;
    await tx.$executeRaw(sql`SELECT 1 FROM "CommentReply" WHERE "id" = ${id} FOR UPDATE`);
    const reply = await findReply(tx, scope.place, commentId, id);
    if (!reply) return false;
    if (!mayDeletePost(scope.space, scope.space.viewerRole, reply.authorId === access.userId)) throw forbidden('Only its author or a space admin may delete a reply');
    await tx.$executeRaw(sql`DELETE FROM "CommentReaction" WHERE "commentId" = ${commentId} AND "replyId" = ${id}`);
    await tx.$executeRaw(sql`DELETE FROM "CommentMention" WHERE "postId" = ${id}`);
    await tx.commentReply.delete({ where: { id } });
    await recordCommentEvent(tx, 'commentReplyDeleted', eventOf(scope, comment, access.userId), id, { commentId });
    return true;
  });
}
