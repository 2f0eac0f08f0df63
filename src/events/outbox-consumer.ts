/**
 * What the outbox dispatcher hands its events to. A consumer is registered once, at start-up
 * (outbox-dispatcher.ts `consumers`): the audit log (audit-consumer.ts), the webhooks
 * (webhook-consumer.ts) and the event bus (subscriptions, below). A write never knows its consumers.
 *
 * `consume` runs inside the transaction that claimed the events and marks them dispatched: what
 * it writes through `tx` (say, deliveries to make) commits with the claim, and if it throws, or
 * the commit fails, the events stay undispatched and come again — at least once, each time with
 * the same `id`, which a consumer uses to drop a duplicate.
 */
import type { EventBus, OrganizationEvent } from './bus.js';
import type { RawSql } from '../domain/kernel/sql.js';

/** An outbox row as a dispatcher claimed it: the event, its place in the outbox and its time. */
export type OutboxEventRow = Omit<OrganizationEvent, 'at'> & {
  seq: bigint;
  createdAt: Date;
  /** Where its write came from (kernel/request-origin.ts): for the audit log, never told to subscribers. */
  clientAddress?: string | null;
  userAgent?: string | null;
  source?: string | null;
};

export interface OutboxConsumer {
  /** For the logs. */
  readonly name: string;
  /** Takes a batch of committed events, oldest first, inside the claiming transaction (raw SQL only: raw-sql.ts). */
  consume(events: readonly OutboxEventRow[], tx: RawSql): Promise<void> | void;
}

/** The event as subscribers receive it. */
export function organizationEvent(row: OutboxEventRow): OrganizationEvent {
  const { id, kind, organizationId, subjectId, spaceId, siteId, actorId, data, xid } = row;
  return { id, kind, organizationId, subjectId, spaceId, siteId, actorId, data, at: row.createdAt.toISOString(), xid };
}

/** The first consumer: each event to the organization's subscribers, on every instance (bus.ts). */
export function busConsumer(bus: EventBus): OutboxConsumer {
  return {
    name: 'subscriptions',
    consume(events) {
      for (const row of events) bus.publish(organizationEvent(row));
    },
  };
}
