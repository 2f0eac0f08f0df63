/**
 * Events through Redis without depending on it. Every event is delivered to this process's
 * subscribers directly, and also published to Redis for the other instances; what comes back
 * from Redis is delivered here only when another instance sent it (each message names the
 * instance it came from), so a local subscriber hears each event once whether Redis is up or
 * down. While Redis is down only the other instances' events are missed; the relay says so in
 * the log (rate-limited, outage-log.ts) and through `available()`, which /readyz reports.
 */
import { randomUUID } from 'node:crypto';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import type { Redis } from 'ioredis';
import { loadIoredis } from '../lib/ioredis.js';
import type { Logger } from '../observability/logger.js';
import { createOutageLog } from './outage-log.js';

/** An event as it crosses Redis: the instance that published it, and its payload. */
type Relayed = { origin: string; detail: unknown };

/** The EventTarget a yoga pubsub needs (topic → listeners). */
export type PubSubTarget = Pick<EventTarget, 'addEventListener' | 'removeEventListener' | 'dispatchEvent'>;

export type RedisRelay = { target: PubSubTarget; available(): boolean; close(): Promise<void> };

export function createRedisRelay(redisUrl: string, logger: Logger): RedisRelay {
  const origin = randomUUID();
  const outage = createOutageLog(logger, { name: 'Redis', impact: "events reach only this instance's subscribers (not other instances')" });
  // Two connections: one in subscriber mode cannot publish. A publish waits for at most two
  // reconnection attempts; a subscription made during an outage waits for Redis to come back
  // (then it is made; ioredis re-subscribes the earlier ones itself).
  const { Redis: RedisClient } = loadIoredis();
  const publisher = new RedisClient(redisUrl, { maxRetriesPerRequest: 2 });
  const subscriber = new RedisClient(redisUrl, { maxRetriesPerRequest: null });
  const clients = [publisher, subscriber];
  let closing = false;
  const available = () => clients.every((client) => client.status === 'ready');
  for (const client of clients) {
    client.on('error', (error: Error) => outage.failed('connection', error));
    client.on('close', () => !closing && outage.failed('connection', new Error('connection closed')));
    client.on('ready', () => available() && outage.recovered());
  }
  // The event target fires its Redis commands and forgets them: one that fails must not be an
  // unhandled rejection (which ends the process), so it gets these faces of the clients.
  const failed = (what: string) => (error: Error) => outage.failed(what, error);
  const remote = createRedisEventTarget({
    publishClient: { publish: (channel: string, message: string) => publisher.publish(channel, message).catch(failed('publish')) } as unknown as Redis,
    subscribeClient: {
      on: (event: string, listener: (...args: any[]) => void) => subscriber.on(event, listener),
      subscribe: (channel: string) => subscriber.subscribe(channel).catch(failed('subscribe')),
      unsubscribe: (channel: string) => subscriber.unsubscribe(channel).catch(failed('unsubscribe')),
    } as unknown as Redis,
  });

  const local = new EventTarget();
  const listeners = new Map<string, number>();
  const fromRedis = (event: Event) => {
    const relayed = (event as CustomEvent<Relayed | null>).detail;
    if (relayed && relayed.origin !== origin) local.dispatchEvent(new CustomEvent(event.type, { detail: relayed.detail }));
  };
  const target: PubSubTarget = {
    addEventListener(topic, listener) {
      local.addEventListener(topic, listener);
      const count = listeners.get(topic) ?? 0;
      listeners.set(topic, count + 1);
      if (count === 0) remote.addEventListener(topic, fromRedis);
    },
    removeEventListener(topic, listener) {
      local.removeEventListener(topic, listener);
      const count = (listeners.get(topic) ?? 0) - 1;
      if (count > 0) return void listeners.set(topic, count);
      listeners.delete(topic);
      remote.removeEventListener(topic, fromRedis);
    },
    dispatchEvent(event) {
      const detail = (event as CustomEvent).detail;
      local.dispatchEvent(new CustomEvent(event.type, { detail }));
      remote.dispatchEvent(new CustomEvent<Relayed>(event.type, { detail: { origin, detail } }));
      return true;
    },
  };
  return {
    target,
    available,
    async close() {
      closing = true;
      await Promise.all(clients.map((c) => (c.status === 'ready' ? c.quit().catch(() => c.disconnect()) : c.disconnect())));
    },
  };
}
