/**
 * The outbox events of comments and replies (kernel/outbox.ts), recorded in the write's own
 * transaction: `subjectId` the comment (or the reply), `spaceId` its space (only its readers are
 * told), and in `data` the change request and page it is on, the comment of a reply, the fields an
 * update changed and the users a new post mentions.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { OrganizationEventKind } from '../kernel/event-kinds.js';
import { recordEvents } from '../kernel/outbox.js';

export type CommentEventOf = {
  organizationId: string;
  spaceId: string;
  changeRequestId: string | null;
  pageId: string | null;
  actorId: string;
};

export type CommentEventData = { commentId?: string; fields?: string[]; mentions?: string[] };

export function recordCommentEvent(tx: Prisma.TransactionClient, kind: OrganizationEventKind, of: CommentEventOf, subjectId: string, extra: CommentEventData = {}): Promise<string[]> {
  const data: Prisma.InputJsonObject = {
    ...(of.changeRequestId ? { changeRequestId: of.changeRequestId } : {}),
    ...(of.pageId ? { pageId: of.pageId } : {}),
    ...(extra.commentId ? { commentId: extra.commentId } : {}),
    ...(extra.fields ? { fields: extra.fields } : {}),
    ...(extra.mentions ? { mentions: extra.mentions } : {}),
  };
  return recordEvents(tx, { kind, organizationId: of.organizationId, subjectId, spaceId: of.spaceId, actorId: of.actorId, data });
}
