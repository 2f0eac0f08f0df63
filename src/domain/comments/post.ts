/**
 * Posting a comment: `comment` on the space (a locked space still takes comments), in the space's
 * own content or a change request's; optionally on a page of that content and a block of the
 * page (anchor.ts), or a table cell. The comment records the revision it was posted on. One
 * guarded transaction writes the comment, its mentions (mentions.ts) and its event.
 */
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { lazySchema, parseInput } from '../../lib/validation.js';
import type { Access } from '../access/access.js';
import { guardedWrite } from '../access/guarded-write.js';
import { newId } from '../kernel/ids.js';
import { checkAnchor } from './anchor.js';
import { commentBody } from './body.js';
import { linkResolver } from './links.js';
import { recordCommentEvent } from './events.js';
import { recordMentions } from './mentions.js';
import { requireCommentScope } from './scope.js';

const id = lazySchema(() => z.string().min(1).max(100));

const postInput = lazySchema(() => z
  .object({
    page: id.nullish(),
    node: id.nullish(),
    tableCell: z.object({ record: z.string().min(1).max(200), definition: z.string().min(1).max(200) }).strict().nullish(),
    body: z.unknown(),
  })
  .strict());

export type CommentTarget = { spaceId: string; changeRequestId?: string | null };

/** Posts a comment; answers its ID. */
export async function postComment(db: Db, access: Access, target: CommentTarget, raw: unknown): Promise<string> {
  const input = parseInput(postInput, raw ?? {});
  const check = (a: Access) => requireCommentScope(a, target.spaceId, target.changeRequestId, 'comment');
  const before = await check(access);
  const body = await commentBody(input.body, linkResolver(access.loaders, before.space.id, before.revisionId, input.page ?? null));
  const commentId = newId('Comment');
  await guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, scope) => {
    const anchor = await checkAnchor(tx, scope.revisionId, input.page, input.node);
    await tx.comment.create({
      data: {
        id: commentId,
        spaceId: scope.space.id,
        changeRequestId: scope.place.changeRequestId,
        pageId: anchor.pageId,
        nodeKey: anchor.nodeKey,
        ...(input.tableCell ? { tableCell: input.tableCell as Prisma.InputJsonObject } : {}),
        revisionId: scope.revisionId,
        authorId: access.userId,
        body: body as unknown as Prisma.InputJsonObject,
      },
    });
    const of = { organizationId: scope.space.organizationId, spaceId: scope.space.id, changeRequestId: scope.place.changeRequestId, pageId: anchor.pageId };
    const mentions = await recordMentions(tx, { ...of, commentId, postId: commentId, authorId: access.userId, body });
    await recordCommentEvent(tx, 'commentCreated', { ...of, actorId: access.userId }, commentId, { mentions });
  });
  return commentId;
}
