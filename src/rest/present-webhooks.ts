/** Webhook endpoints and deliveries as quire's REST paths answer them (`object`, camelCase, absent rather than null). */
type Obj = Record<string, any>;

/** The fields read for an endpoint. */
export const ENDPOINT_FRAGMENT = /* GraphQL */ `
  fragment RestWebhookEndpoint on WebhookEndpoint {
    id url description events active failingSince disabledAt disabledReason previousSecretExpiresAt createdAt updatedAt
  }
`;

export const DELIVERY_FRAGMENT = /* GraphQL */ `
  fragment RestWebhookDelivery on WebhookDelivery {
    id eventId kind status attempts createdAt nextAttemptAt deliveredAt lastStatusCode lastLatencyMs lastError redeliveryOf payload
    attemptLog { attempt at statusCode latencyMs error }
  }
`;

const present = (entries: Obj): Obj => Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== null && v !== undefined));

export const presentEndpoint = (w: Obj, organizationId: string): Obj =>
  present({
    object: 'webhook',
    id: w.id,
    organization: organizationId,
    url: w.url,
    description: w.description,
    events: w.events,
    active: w.active,
    failingSince: w.failingSince,
    disabledAt: w.disabledAt,
    disabledReason: w.disabledReason,
    previousSecretExpiresAt: w.previousSecretExpiresAt,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  });

/** Create and rotate: the endpoint and its secret, shown this once. */
export const presentEndpointWithSecret = (r: Obj, organizationId: string): Obj => ({ ...presentEndpoint(r.endpoint, organizationId), secret: r.secret });

export const presentDelivery = (d: Obj, webhookId: string): Obj =>
  present({
    object: 'webhook-delivery',
    id: d.id,
    webhook: webhookId,
    eventId: d.eventId,
    kind: d.kind,
    status: d.status,
    attempts: d.attempts,
    createdAt: d.createdAt,
    nextAttemptAt: d.nextAttemptAt,
    deliveredAt: d.deliveredAt,
    lastStatusCode: d.lastStatusCode,
    lastLatencyMs: d.lastLatencyMs,
    lastError: d.lastError,
    redeliveryOf: d.redeliveryOf,
    payload: d.payload,
    attemptLog: d.attemptLog.map(present),
  });
