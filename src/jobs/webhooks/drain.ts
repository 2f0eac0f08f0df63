/**
 * The `deliver_webhooks` task: drains one endpoint's queue in order (domain/webhooks/delivery.ts).
 * The head — its oldest pending delivery — is sent; delivered, the next one follows; failed, the
 * task schedules itself for the retry and stops, so nothing overtakes it. One drain runs at a time
 * per endpoint (its job's named queue); a drain sends at most DRAIN_BATCH deliveries, then makes
 * way for other endpoints' drains and comes back.
 *
 * When an endpoint is turned off, its organization's admins are mailed after the commit (a mail
 * that fails is logged: the endpoint is off either way, and the event says so).
 */
import type { WebhookDelivery, WebhookEndpoint } from '../../generated/prisma/client.js';
import { signingSecret } from '../../domain/kernel/signing-secret.js';
import { webhookDisabledEmail } from '../../domain/people/mail/index.js';
import { endpointAdmins, queueHead, recordDelivered, recordFailure, scheduleRetry, type AttemptOutcome, type FailureResult } from '../../domain/webhooks/delivery.js';
import { scheduleDrainNow } from '../../domain/webhooks/queue.js';
import { signingSecrets } from '../../domain/webhooks/secrets.js';
import { signedHeaders } from '../../lib/webhooks/standard-webhooks.js';
import type { JobServices } from '../handler.js';
import { sendWebhook } from './send.js';

/** Deliveries one drain sends before it lets other endpoints' drains run. */
const DRAIN_BATCH = 500;
/** Pending deliveries read at once (the endpoint is read again with each page: a change of it is seen this soon). */
const PAGE = 50;
const USER_AGENT = 'quire-webhooks/1';

export async function drainEndpoint(services: JobServices, endpointId: string): Promise<void> {
  const { db, config, logger } = services;
  const settings = config.webhooks;
  const instanceSecret = await signingSecret(db, config.secret);
  for (let sent = 0; sent < DRAIN_BATCH; ) {
    const head = await queueHead(db, endpointId, PAGE);
    if (!head?.deliveries.length) return;
    const { endpoint } = head;
    for (const delivery of head.deliveries) {
      if (delivery.nextAttemptAt.getTime() > Date.now()) return scheduleRetry(db, endpointId, delivery.nextAttemptAt);
      const outcome = await attempt(endpoint, delivery, instanceSecret, services);
      sent++;
      if (outcome.ok) {
        if (await recordDelivered(db, delivery, outcome)) continue;
        return; // no longer pending: the endpoint was deleted meanwhile
      }
      const result = await recordFailure(db, { endpoint, delivery }, outcome, settings);
      if ('disabled' in result) await tellAdmins(services, endpoint, result);
      if (result.next === 'stop') return;
    }
  }
  // More to send: back in line behind the other endpoints' drains.
  await db.$transaction((tx) => scheduleDrainNow(tx, endpointId));
  logger.debug({ endpointId }, 'webhook drain yields after a batch');
}

/** One attempt: signed with the endpoint's current secrets, sent through the safe request. */
async function attempt(endpoint: WebhookEndpoint, delivery: WebhookDelivery, instanceSecret: Uint8Array, { config }: JobServices): Promise<AttemptOutcome> {
  const now = new Date();
  const secrets = signingSecrets(endpoint, instanceSecret, now);
  // Sealed under another instance secret (QUIRE_SECRET changed): nothing can sign until it is rotated.
  if (!secrets.length) return { ok: false, statusCode: null, latencyMs: 0, error: "The endpoint's secret cannot be read: rotate it" };
  return sendWebhook(endpoint.url, signedHeaders(secrets, delivery.eventId, now, delivery.payload), delivery.payload, {
    timeoutMs: config.webhooks.timeoutMs,
    allowPrivateNetworks: config.fetchAllowPrivateNetworks,
    userAgent: USER_AGENT,
  });
}

async function tellAdmins(services: JobServices, endpoint: WebhookEndpoint, result: Extract<FailureResult, { disabled: unknown }>): Promise<void> {
  const { mailer, logger, db } = services;
  const { organizationTitle, emails } = await endpointAdmins(db, endpoint.organizationId);
  const message = webhookDisabledEmail({ organizationTitle, url: endpoint.url, reason: result.disabled.reason, endpointId: endpoint.id });
  logger.warn({ endpointId: endpoint.id, organizationId: endpoint.organizationId }, 'webhook endpoint turned off after failing for too long');
  for (const to of emails) {
    await mailer?.send({ to, ...message }).catch((error: Error) => logger.warn({ endpointId: endpoint.id, err: { message: error.message } }, 'could not mail an admin about a webhook endpoint turned off'));
  }
}
