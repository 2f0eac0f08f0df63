/**
 * The body of a webhook message: the exact bytes signed and sent, kept in the delivery's `payload`.
 *
 *   {
 *     "type": "spaceCreated",                    the event's kind (kernel/event-kinds.ts)
 *     "timestamp": "2026-01-02T03:04:05.678Z",   when the write recorded it
 *     "data": {
 *       "id": "evt_…",                           the event's ID: stable, also sent as `webhook-id`,
 *                                                 the same on every retry and redelivery
 *       "organizationId", "subjectId",           the organization, and what changed
 *       "spaceId", "siteId",                     where it happened (null when nowhere in particular)
 *       "actorId",                               who made the change (null: the server itself)
 *       …                                        the event's own small facts (`number`, `status`, `fields`…)
 *     }
 *   }
 *
 * Like subscriptions, it carries IDs and small facts, never content: a receiver reads what it
 * needs through the API.
 */
import type { OrganizationEventKind } from '../kernel/event-kinds.js';

/** An event of the outbox as queued for webhooks. */
export type WebhookEvent = {
  id: string;
  kind: OrganizationEventKind | string;
  organizationId: string;
  subjectId: string;
  spaceId: string | null;
  siteId: string | null;
  actorId: string | null;
  data: unknown;
  createdAt: Date;
};

export function webhookPayload(event: WebhookEvent): string {
  const facts = event.data && typeof event.data === 'object' && !Array.isArray(event.data) ? (event.data as Record<string, unknown>) : {};
  const { id, organizationId, subjectId, spaceId, siteId, actorId } = event;
  // The event's own facts never override its identity.
  return JSON.stringify({ type: event.kind, timestamp: event.createdAt.toISOString(), data: { ...facts, id, organizationId, subjectId, spaceId, siteId, actorId } });
}
