/**
 * Updating a comment: resolving or reopening it and reacting need `comment`; a new body needs to
 * be its author, still with `comment` (and sets `editedAt`). The comment is locked for the update,
 * so two updates of it apply one after the other. An update that changes something records
 * `commentUpdated` with the fields it changed (`body`, `status`, `reactions`).
 */
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { forbidden, notFound } from '../../lib/errors.js';
import type { JSONDocument } from '../../lib/documents/types.js';
import { lazySchema, parseInput } from '../../lib/validation.js';
import type { Access } from '../access/access.js';
import { guardedWrite } from '../access/guarded-write.js';
import { commentBody } from './body.js';
import { linkResolver } from './links.js';
import type { Queryable } from '../kernel/pagination/keyset.js';
import { recordCommentEvent } from './events.js';
import { recordMentions } from './mentions.js';
import { applyReactions, reactionListSchema } from './reactions.js';
import { findComment, type CommentRow } from './rows.js';
import { requireCommentScope, type CommentScope } from './scope.js';
import type { CommentTarget } from './post.js';

const { sql } = Prisma;

export const postUpdateInput = {
  body: z.unknown().optional(),
  addedReactions: reactionListSchema.nullish(),
  removedReactions: reactionListSchema.nullish(),
};

const updateInput = lazySchema(() => z.object({ ...postUpdateInput, resolved: z.boolean().nullish() }).strict());

/**
 * A body given in an update or a reply, converted before the transaction (markdown runs in the
 * pool), its links resolved from the page of comment `commentId` (read here; the transaction
 * checks again that the comment exists).
 */
export async function bodyInThread(db: Queryable, access: Access, scope: CommentScope, commentId: string, body: unknown): Promise<JSONDocument | null> {
  if (body === undefined || body === null) return null;
  const comment = await findComment(db, scope.place, commentId);
  return commentBody(body, linkResolver(access.loaders, scope.space.id, scope.revisionId, comment?.pageId ?? null));
}

/** The comment `id` of the scope's place, locked until the transaction ends; 404 when there is none. */
export async function lockComment(tx: Prisma.TransactionClient, scope: CommentScope, id: string): Promise<CommentRow> {
  await tx.$executeRaw(sql`SELECT 1 FROM "Comment" WHERE "id" = ${id} FOR UPDATE`);
  const comment = await findComment(tx, scope.place, id);
  if (!comment) throw notFound('Comment');
  return comment;
}

export async function updateComment(db: Db, access: Access, target: CommentTarget, id: string, raw: unknown): Promise<void> {
  const input = parseInput(updateInput, raw ?? {});
  const check = (a: Access) => requireCommentScope(a, target.spaceId, target.changeRequestId, 'comment');
  const body = await bodyInThread(db, access, await check(access), id, input.body);
  await guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, scope) => {
    const comment = await lockComment(tx, scope, id);
    const fields: string[] = [];
    let mentions: string[] | undefined;
    const of = { organizationId: scope.space.organizationId, spaceId: scope.space.id, changeRequestId: comment.changeRequestId, pageId: comment.pageId };
    if (body) {
      if (comment.authorId !== access.userId) throw forbidden('Only its author may edit a comment');
      await tx.comment.update({ where: { id }, data: { body: body as unknown as Prisma.InputJsonObject, editedAt: new Date() } });
      mentions = await recordMentions(tx, { ...of, commentId: id, postId: id, authorId: comment.authorId, body });
      fields.push('body');
    }
    if (input.resolved != null && input.resolved !== (comment.status === 'resolved')) {
      await tx.comment.update({
        where: { id },
        data: input.resolved ? { status: 'resolved', resolvedAt: new Date(), resolvedById: access.userId } : { status: 'open', resolvedAt: null, resolvedById: null },
      });
      fields.push('status');
    }
    if (await applyReactions(tx, id, null, access.userId, { added: input.addedReactions, removed: input.removedReactions })) fields.push('reactions');
    if (fields.length) await recordCommentEvent(tx, 'commentUpdated', { ...of, actorId: access.userId }, id, { fields, ...(mentions ? { mentions } : {}) });
  });
}
