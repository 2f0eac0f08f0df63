/**
 * Deleting a comment (its replies, reactions and mentions go with it): its author, still with
 * `comment`, or whoever has `moderateComments`. Answers false when the readable place has no such
 * comment (REST: 204); an unreadable place stays 404.
 */
import type { Db } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { forbidden } from '../../lib/errors.js';
import type { Access } from '../access/access.js';
import { guardedWrite } from '../access/guarded-write.js';
import { recordCommentEvent } from './events.js';
import { mayDeletePost } from './permissions.js';
import { findComment } from './rows.js';
import { requireCommentScope } from './scope.js';
import type { CommentTarget } from './post.js';

const { sql } = Prisma;

export async function deleteComment(db: Db, access: Access, target: CommentTarget, id: string): Promise<boolean> {
  const check = (a: Access) => requireCommentScope(a, target.spaceId, target.changeRequestId, 'view');
  return guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, scope) => {
    await tx.$executeRaw(sql`SELECT 1 FROM "Comment" WHERE "id" = ${id} FOR UPDATE`);
    const comment = await findComment(tx, scope.place, id);
    if (!comment) return false;
    if (!mayDeletePost(scope.space, scope.space.viewerRole, comment.authorId === access.userId)) throw forbidden('Only its author or a space admin may delete a comment');
    await tx.comment.delete({ where: { id } });
    const of = { organizationId: scope.space.organizationId, spaceId: scope.space.id, changeRequestId: comment.changeRequestId, pageId: comment.pageId, actorId: access.userId };
    await recordCommentEvent(tx, 'commentDeleted', of, id);
    return true;
  });
}
