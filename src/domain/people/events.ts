/**
 * The outbox events of organizations, members and teams (kernel/outbox.ts), recorded by each
 * write in its own transaction. Member events name the user (`subjectId`) and are told to who
 * reads the organization's members; team events to who reads its teams (access/event-audience.ts).
 */
import type { EventRecord } from '../kernel/outbox.js';

/** Who made the write: the caller (an Access), or null for the server itself (the CLI). */
type Actor = { userId: string } | null;

const actorOf = (actor: Actor) => actor?.userId ?? null;

export const organizationUpdated = (organizationId: string, actor: Actor): EventRecord => ({ kind: 'organizationUpdated', organizationId, subjectId: organizationId, actorId: actorOf(actor) });

/** `data`: what changed, when it is known (`{ role, previousRole }`, `{ sso: true }`). */
export const memberEvent = (kind: 'memberUpdated' | 'memberRemoved', organizationId: string, userId: string, actor: Actor, data?: EventRecord['data']): EventRecord => ({
  kind,
  organizationId,
  subjectId: userId,
  actorId: actorOf(actor),
  ...(data ? { data } : {}),
});

export const teamEvent = (kind: 'teamCreated' | 'teamUpdated' | 'teamDeleted', organizationId: string, teamId: string, actor: Actor): EventRecord => ({ kind, organizationId, subjectId: teamId, actorId: actorOf(actor) });
