/**
 * The outbox events of change requests (kernel/outbox.ts): recorded in the write's own
 * transaction, about the change request (`subjectId`), in its space (`spaceId`: only readers of
 * the space are told), by the caller. Data holds IDs and small facts only: the pages a revision
 * wrote are named up to a bound, with their count.
 */
import type { Prisma } from '../../../generated/prisma/client.js';
import type { OrganizationEventKind } from '../../kernel/event-kinds.js';
import { recordEvents } from '../../kernel/outbox.js';
import type { EntityWrite } from '../revisions/commit.js';
import type { EntityKind } from '../revisions/entries.js';

/** How many IDs an event names at most; `…Count` says how many there were. */
export const EVENT_ID_LIMIT = 100;

export type ChangeRequestOf = { organizationId: string; spaceId: string; changeRequestId: string; actorId: string | null };

/** The change request `changeRequestId` of `space`, written by `actorId`. */
export const changeRequestOf = (space: { id: string; organizationId: string }, changeRequestId: string, actorId: string | null): ChangeRequestOf => ({
  organizationId: space.organizationId,
  spaceId: space.id,
  changeRequestId,
  actorId,
});

export function recordChangeRequestEvent(tx: Prisma.TransactionClient, kind: OrganizationEventKind, of: ChangeRequestOf, data?: Prisma.InputJsonObject): Promise<string[]> {
  return recordEvents(tx, { kind, organizationId: of.organizationId, subjectId: of.changeRequestId, spaceId: of.spaceId, actorId: of.actorId, data });
}

/**
 * What a revision wrote, bounded: `{pageIds, pageCount, fileIds, fileCount}`, and
 * `{reusableContentIds, reusableContentCount}` when it wrote reusable contents.
 */
export function writtenEntities(writes: readonly Pick<EntityWrite, 'kind' | 'entityId'>[]): Prisma.InputJsonObject {
  const ids = (kind: EntityKind) => [...new Set(writes.filter((w) => w.kind === kind).map((w) => w.entityId))];
  const [pages, files, reusable] = [ids('page'), ids('file'), ids('reusable-content')];
  return {
    pageIds: pages.slice(0, EVENT_ID_LIMIT),
    pageCount: pages.length,
    fileIds: files.slice(0, EVENT_ID_LIMIT),
    fileCount: files.length,
    ...(reusable.length ? { reusableContentIds: reusable.slice(0, EVENT_ID_LIMIT), reusableContentCount: reusable.length } : {}),
  };
}
