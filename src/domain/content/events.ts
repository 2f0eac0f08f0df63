/**
 * The outbox events of spaces and collections (kernel/outbox.ts), recorded by each write in its
 * own transaction: about the space or collection, by the caller. A space's events carry its ID
 * as `spaceId` (only who can view it is told); a collection's are told to who can view it
 * (access/event-audience.ts).
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { OrganizationEventKind } from '../kernel/event-kinds.js';
import type { EventRecord } from '../kernel/outbox.js';

type Content = { id: string; organizationId: string };
type Caller = { userId: string };

export const spaceEvent = (kind: OrganizationEventKind, space: Content, caller: Caller, data?: Prisma.InputJsonObject): EventRecord => ({
  kind,
  organizationId: space.organizationId,
  subjectId: space.id,
  spaceId: space.id,
  actorId: caller.userId,
  data,
});

export const collectionEvent = (kind: OrganizationEventKind, collection: Content, caller: Caller, data?: Prisma.InputJsonObject): EventRecord => ({
  kind,
  organizationId: collection.organizationId,
  subjectId: collection.id,
  actorId: caller.userId,
  data,
});

/**
 * A transfer is told to both organizations: the one it joined (as the kind's other events are)
 * and the one it left, whose members can no longer see it (no `spaceId`; `data.toOrganizationId`).
 */
export function transferEvents(kind: 'spaceTransferred' | 'collectionTransferred', content: Content, from: string, caller: Caller): EventRecord[] {
  const joined = kind === 'spaceTransferred' ? spaceEvent(kind, content, caller, { fromOrganizationId: from }) : collectionEvent(kind, content, caller, { fromOrganizationId: from });
  if (from === content.organizationId) return [joined];
  return [joined, { kind, organizationId: from, subjectId: content.id, actorId: caller.userId, data: { toOrganizationId: content.organizationId } }];
}
