/**
 * Domain events, published by the outbox dispatcher (outbox-dispatcher.ts) after the write that
 * recorded them has committed, to the subscribers of the organization — in this process through
 * yoga's pubsub, and, with REDIS_URL, through Redis as well so that a subscriber connected to any
 * instance receives what any instance (or worker) dispatched.
 * Events carry IDs, never content: a subscriber reads what changed with a query, through the
 * same access checks as always.
 */
import { createPubSub } from 'graphql-yoga';
import type { OrganizationEventKind } from '../domain/kernel/event-kinds.js';
import { silentLogger, type Logger } from '../observability/logger.js';
import { createRedisRelay } from './redis-relay.js';
import type { JobEvent } from '../domain/work/jobs/rows.js';

export type { JobEvent };

/**
 * What changed, in which organization, by whom (null: the server itself). `id` is the outbox
 * row's: stable across redeliveries (delivery is at least once), so a consumer drops a duplicate.
 * `spaceId`/`siteId`: the space or site it belongs to; `data`: small facts beside the IDs, never
 * content. `at` is when the write committed its event, as an ISO timestamp (events cross
 * processes as JSON). `xid`: the writing transaction's ID, as text (a subscription's start
 * fence, from-now.ts); null for events recorded before the outbox kept it.
 */
export type OrganizationEvent = {
  id: string;
  kind: OrganizationEventKind;
  organizationId: string;
  subjectId: string;
  spaceId: string | null;
  siteId: string | null;
  actorId: string | null;
  data: Record<string, unknown> | null;
  at: string;
  xid: string | null;
};


type Topics = { organization: [organizationId: string, event: OrganizationEvent]; job: [jobId: string, event: JobEvent] };

export type EventBus = {
  /** Tells the organization's subscribers, on every instance (the outbox dispatcher calls it). */
  publish(event: OrganizationEvent): void;
  /** The organization's events from now on, until the iterator is returned. */
  subscribe(organizationId: string): AsyncIterable<OrganizationEvent>;
  publishJob(event: JobEvent): void;
  /** The job's events from now on, until the iterator is returned. */
  subscribeJob(jobId: string): AsyncIterable<JobEvent>;
  /** Redis for events across instances: not configured, up, or unavailable (events then reach this instance's subscribers only). */
  redisState(): 'none' | 'up' | 'unavailable';
  close(): Promise<void>;
};

export function createEventBus(opts: { redisUrl?: string; logger?: Logger } = {}): EventBus {
  const logger = opts.logger ?? silentLogger();
  const open = new Set<{ return?(): Promise<unknown> }>();
  /** A subscription that close() ends (and that forgets itself when its reader returns it). */
  function tracked<T>(source: AsyncIterableIterator<T> & { return?(): Promise<unknown> }): AsyncIterable<T> {
    open.add(source);
    return {
      [Symbol.asyncIterator]: () => {
        const iterator = source[Symbol.asyncIterator]();
        return {
          next: () => iterator.next(),
          return: async (value?: unknown) => {
            open.delete(source);
            return ((await iterator.return?.(value)) ?? { done: true as const, value: undefined }) as IteratorResult<T>;
          },
        };
      },
    };
  }
  // Without Redis, events stay in this process; with it, they also cross instances — and still
  // reach this process's subscribers when Redis is down (redis-relay.ts).
  const relay = opts.redisUrl ? createRedisRelay(opts.redisUrl, logger) : undefined;
  const pubsub = createPubSub<Topics>(relay ? { eventTarget: relay.target as never } : undefined);
  return {
    publish(event) {
      pubsub.publish('organization', event.organizationId, event);
    },
    subscribe(organizationId) {
      return tracked(pubsub.subscribe('organization', organizationId));
    },
    publishJob(event) {
      pubsub.publish('job', event.id, event);
    },
    subscribeJob(jobId) {
      return tracked(pubsub.subscribe('job', jobId));
    },
    redisState: () => (!relay ? 'none' : relay.available() ? 'up' : 'unavailable'),
    async close() {
      // Subscriptions end first: each one unsubscribes from Redis, which needs the connection.
      await Promise.all([...open].map((source) => source.return?.()));
      open.clear();
      await relay?.close();
    },
  };
}
