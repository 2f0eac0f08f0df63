/**
 * The outbox events of a site and its parts (kernel/outbox.ts): recorded in the site write's own
 * transaction, with `siteId` (only who may see the organization's sites is told), by the caller.
 * `subjectId` is the part written (the site, a site space, a section, a group, a share link).
 */
import type { Prisma } from '../../../generated/prisma/client.js';
import type { Access } from '../../access/access.js';
import type { OrganizationEventKind } from '../../kernel/event-kinds.js';
import { recordEvents } from '../../kernel/outbox.js';

export function recordSiteEvent(
  tx: Prisma.TransactionClient,
  access: { userId: string | null },
  site: { id: string; organizationId: string },
  kind: OrganizationEventKind,
  subjectId: string,
  data?: Prisma.InputJsonObject,
): Promise<string[]> {
  return recordEvents(tx, { kind, organizationId: site.organizationId, subjectId, siteId: site.id, actorId: access.userId, data });
}

/** The fields an update's input named (`data.fields` of `…Updated` events). */
export const namedFields = (input: object): string[] => Object.entries(input).filter(([, v]) => v !== undefined).map(([k]) => k);
