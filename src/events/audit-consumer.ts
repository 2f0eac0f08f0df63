/**
 * The audit log's consumer of the outbox: each claimed batch's security-relevant events become
 * audit rows (domain/audit/record.ts), written in the claim's own transaction — so a row exists
 * exactly when its event is marked dispatched, and a write that committed is never missing from
 * the log (a failed claim leaves the events undispatched, to come again). The write itself pays
 * nothing for its audit row beyond its outbox row.
 */
import { recordAuditEvents } from '../domain/audit/record.js';
import type { OutboxConsumer } from './outbox-consumer.js';

export function auditConsumer(): OutboxConsumer {
  return {
    name: 'audit log',
    async consume(events, tx) {
      await recordAuditEvents(tx, events);
    },
  };
}
