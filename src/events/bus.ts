/**
 * Domain events, published after the write that caused them has committed, to the subscribers of
 * the organization — in this process through yoga's pubsub, or, with REDIS_URL, through Redis so
 * that a subscriber connected to any instance receives what any instance (or worker) published.
 * Events carry IDs, never content: a subscriber reads what changed with a query, through the
 * same access checks as always.
 */
import { createPubSub, type PubSub } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import { silentLogger, type Logger } from '../observability/logger.js';

export const ORGANIZATION_EVENT_KINDS = [
  'organizationUpdated',
  'spaceCreated',
  'spaceUpdated',
  'spaceMoved',
  'spaceDeleted',
  'spaceRestored',
  'spaceTransferred',
  'collectionCreated',
  'collectionUpdated',
  'collectionMoved',
  'collectionDeleted',
  'collectionTransferred',
  'permissionsUpdated',
  'memberUpdated',
  'memberRemoved',
  'teamCreated',
  'teamUpdated',
  'teamDeleted',
] as const;

export type OrganizationEventKind = (typeof ORGANIZATION_EVENT_KINDS)[number];

/** What changed, in which organization, by whom; `at` is an ISO timestamp (events cross processes as JSON). */
export type OrganizationEvent = { kind: OrganizationEventKind; organizationId: string; subjectId: string; actorId: string; at: string };

/**
 * A job's state as it changed (jobs/runner.ts publishes one after each committed update). Job
 * progress is not content: the event carries it, and `version` orders events (a subscriber drops
 * one older than what it has sent).
 */
export type JobEvent = {
  id: string;
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  done: number;
  total: number | null;
  message: string | null;
  version: number;
};

type Topics = { organization: [organizationId: string, event: OrganizationEvent]; job: [jobId: string, event: JobEvent] };

export type EventBus = {
  publish(event: Omit<OrganizationEvent, 'at'>): void;
  /** The organization's events from now on, until the iterator is returned. */
  subscribe(organizationId: string): AsyncIterable<OrganizationEvent>;
  publishJob(event: JobEvent): void;
  /** The job's events from now on, until the iterator is returned. */
  subscribeJob(jobId: string): AsyncIterable<JobEvent>;
  close(): Promise<void>;
};

export function createEventBus(opts: { redisUrl?: string; logger?: Logger } = {}): EventBus {
  const logger = opts.logger ?? silentLogger();
  let clients: Redis[] = [];
  let pubsub: PubSub<Topics>;
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
  if (opts.redisUrl) {
    // Two connections: one in subscriber mode cannot publish. Errors are logged, not thrown:
    // ioredis reconnects by itself, and a lost event must not fail the write that published it.
    clients = [new Redis(opts.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }), new Redis(opts.redisUrl, { lazyConnect: false })];
    for (const client of clients) client.on('error', (error: Error) => logger.warn({ err: { message: error.message } }, 'Redis connection error'));
    // The event target fires its Redis commands and forgets them: a command that fails (Redis
    // down longer than the retries) would be an unhandled rejection, which ends the process.
    // It gets these two faces of the clients instead, whose failures are logged.
    const [publisher, subscriber] = clients;
    const failed = (what: string) => (error: Error) => void logger.warn({ err: { message: error.message } }, `Redis ${what} failed`);
    const publishClient = { publish: (channel: string, message: string) => publisher.publish(channel, message).catch(failed('publish')) };
    const subscribeClient = {
      on: (event: string, listener: (...args: any[]) => void) => subscriber.on(event, listener),
      subscribe: (channel: string) => subscriber.subscribe(channel).catch(failed('subscribe')),
      unsubscribe: (channel: string) => subscriber.unsubscribe(channel).catch(failed('unsubscribe')),
    };
    pubsub = createPubSub<Topics>({ eventTarget: createRedisEventTarget({ publishClient: publishClient as unknown as Redis, subscribeClient: subscribeClient as unknown as Redis }) });
  } else {
    pubsub = createPubSub<Topics>();
  }
  return {
    publish(event) {
      pubsub.publish('organization', event.organizationId, { ...event, at: new Date().toISOString() });
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
    async close() {
      // Subscriptions end first: each one unsubscribes from Redis, which needs the connection.
      await Promise.all([...open].map((source) => source.return?.()));
      open.clear();
      await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
