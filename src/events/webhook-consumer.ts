/**
 * The webhooks' consumer of the outbox: each claimed batch becomes deliveries to the endpoints
 * that want its events, written in the claim's own transaction (domain/webhooks/queue.ts) — so
 * deliveries exist exactly once per dispatched event, and the write that recorded the events
 * never waits for a receiver.
 */
import { queueWebhookDeliveries } from '../domain/webhooks/queue.js';
import type { OutboxConsumer } from './outbox-consumer.js';

export function webhookConsumer(): OutboxConsumer {
  return {
    name: 'webhooks',
    async consume(events, tx) {
      await queueWebhookDeliveries(tx, events);
    },
  };
}
