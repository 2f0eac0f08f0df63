/**
 * Webhook endpoints in the graph (organization admins): `Organization.webhookEndpoints`,
 * `webhookEndpoint(id)`, each endpoint's delivery log, and the mutations. The secret is answered
 * only by `createWebhookEndpoint` and `rotateWebhookEndpointSecret`.
 */
import type { WebhookEndpoint } from '../../generated/prisma/client.js';
import { signingSecret } from '../../domain/kernel/signing-secret.js';
import { deliveriesPage, findDelivery, redeliver, type DeliveryRow, type WebhookAttemptEntry } from '../../domain/webhooks/deliveries.js';
import { createEndpoint, deleteEndpoint, endpointsPage, findEndpoint, rotateEndpointSecret, updateEndpoint, type EndpointWithSecret } from '../../domain/webhooks/endpoints.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { forgetLoaded, type Context } from '../context.js';
import { OrganizationRef } from './organization.js';

const StatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: '`pending`: to be sent (or retried); `delivered`: the receiver answered 2xx; `failed`: given up after the retry window.',
  values: {
    pending: { description: 'To be sent, or retried.' },
    delivered: { description: 'The receiver answered 2xx.' },
    failed: { description: 'Given up after the retry window.' },
  } as const,
});

const AttemptRef = builder.objectRef<WebhookAttemptEntry>('WebhookAttempt').implement({
  description: 'One attempt of a delivery.',
  fields: (t) => ({
    attempt: t.exposeInt('attempt', { description: '1 for the first.' }),
    at: t.field({ description: 'When it was made.', type: 'DateTime', resolve: (a) => new Date(a.at) }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: 'The HTTP status answered; null when none came (time-out, refused address, connection error).' }),
    latencyMs: t.exposeInt('latencyMs', { description: 'How long the receiver took to answer (or the attempt took to fail), in milliseconds.' }),
    error: t.exposeString('error', { nullable: true, description: 'Why it failed; null when it succeeded.' }),
  }),
});

const DeliveryRef = builder.objectRef<DeliveryRow>('WebhookDelivery').implement({
  description: 'One event sent to one endpoint, with its attempts.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    eventId: t.exposeID('eventId', { description: 'The event\'s ID, sent as `webhook-id` (the same on every retry and redelivery).' }),
    kind: t.exposeString('kind', { description: 'The event\'s kind (`type` in the body).' }),
    status: t.field({ description: 'Pending, delivered or failed.', type: StatusEnum, resolve: (d) => d.status }),
    attempts: t.exposeInt('attempts', { description: 'How many attempts were made so far.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    nextAttemptAt: t.field({ type: 'DateTime', nullable: true, description: 'When it is sent next (pending deliveries only).', resolve: (d) => (d.status === 'pending' ? d.nextAttemptAt : null) }),
    deliveredAt: t.expose('deliveredAt', { description: 'When the receiver answered 2xx; null unless delivered.', type: 'DateTime', nullable: true }),
    lastStatusCode: t.exposeInt('lastStatusCode', { description: 'The HTTP status of the last attempt; null before any, or when none came.', nullable: true }),
    lastLatencyMs: t.exposeInt('lastLatencyMs', { description: 'How long the last attempt took, in milliseconds; null before any.', nullable: true }),
    lastError: t.exposeString('lastError', { description: 'Why the last attempt failed; null before any, or when it succeeded.', nullable: true }),
    payload: t.field({ type: 'JSON', description: 'The body sent (signed as sent: `{type, timestamp, data}`).', resolve: (d) => JSON.parse(d.payload) }),
    redeliveryOf: t.exposeID('redeliveryOf', { nullable: true, description: 'The delivery this one re-sends, when made by `redeliverWebhookDelivery`.' }),
    attemptLog: t.field({ type: [AttemptRef], description: 'Its last 20 attempts, oldest first.', resolve: (d) => d.attemptLog }),
  }),
});

export const WebhookEndpointRef = builder.objectRef<WebhookEndpoint>('WebhookEndpoint').implement({
  description: 'Where an organization\'s events are sent, signed as the Standard Webhooks specification says.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    url: t.exposeString('url', { description: 'Where events are POSTed (http or https).' }),
    description: t.exposeString('description', { description: 'A note about it, for people; empty when none was given.' }),
    events: t.exposeStringList('events', { description: 'The event kinds sent (`OrganizationEventKind` values); empty: every kind.' }),
    active: t.exposeBoolean('active', { description: 'Sending; false when turned off, by an admin or by the server after failing for too long (`disabledReason`).' }),
    failingSince: t.expose('failingSince', { type: 'DateTime', nullable: true, description: 'Since when every attempt has failed; null when the last one succeeded.' }),
    disabledAt: t.expose('disabledAt', { description: 'When the server turned it off for failing too long; null otherwise.', type: 'DateTime', nullable: true }),
    disabledReason: t.exposeString('disabledReason', { description: 'Why the server turned it off (every delivery failing for too long); null otherwise.', nullable: true }),
    previousSecretExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Until when the secret replaced by the last rotation still signs beside the new one.',
      resolve: (w) => (w.previousSecretExpiresAt && w.previousSecretExpiresAt > new Date() ? w.previousSecretExpiresAt : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    deliveries: t.connection({
      type: DeliveryRef,
      description: 'Its delivery log, newest first.',
      args: { status: t.arg({ description: 'Only the deliveries of this status; left out, all.', type: StatusEnum }) },
      resolve: async (w, args, ctx) => pageConnection(await deliveriesPage(ctx.db, ctx.access, w.organizationId, w.id, args)),
    }),
    delivery: t.field({ description: 'One delivery of its log by ID; NOT_FOUND if it has none of that ID.',
      type: DeliveryRef,
      args: { id: t.arg.id({ description: "The delivery's ID.", required: true }) },
      resolve: (w, { id }, ctx) => findDelivery(ctx.db, ctx.access, w.organizationId, w.id, String(id)),
    }),
  }),
});

const WithSecretRef = builder.objectRef<EndpointWithSecret>('WebhookEndpointWithSecret').implement({
  description: 'An endpoint and its signing secret (`whsec_…`): shown this once, keep it.',
  fields: (t) => ({
    endpoint: t.field({ description: 'The endpoint.', type: WebhookEndpointRef, resolve: (r) => r.endpoint }),
    secret: t.exposeString('secret', { description: 'Its signing secret (`whsec_…`): shown this once.' }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  webhookEndpoints: t.connection({
    type: WebhookEndpointRef,
    description: 'Organization admins.',
    resolve: async (org, args, ctx) => pageConnection(await endpointsPage(ctx.db, ctx.access, org.id, args)),
  }),
  webhookEndpoint: t.field({ type: WebhookEndpointRef, description: 'One of its webhook endpoints by ID (organization admins).', args: { id: t.arg.id({ required: true, description: "The endpoint's ID." }) }, resolve: (org, { id }, ctx) => findEndpoint(ctx.db, ctx.access, org.id, String(id)) }),
}));

const WebhookEndpointInput = builder.inputType('WebhookEndpointInput', {
  description: 'A webhook endpoint\'s settings: its URL and the events it receives.',
  fields: (t) => ({
    url: t.string({ description: 'http or https, without credentials. Required to create.' }),
    events: t.stringList({ description: 'Event kinds to send (`OrganizationEventKind` values); empty or omitted: every kind.' }),
    description: t.string({ description: 'A note about it, for people (at most 500 characters).' }),
    active: t.boolean({ description: 'Turning a disabled endpoint on again clears why it was turned off, and sends what it kept pending.' }),
  }),
});

/** The input as the domain reads it: omitted (and null) fields dropped. */
const body = (input: Record<string, unknown>) => Object.fromEntries(Object.entries(input).filter(([, v]) => v != null));

const written = async <T>(ctx: Context, write: Promise<T>) => {
  const result = await write;
  forgetLoaded(ctx);
  return result;
};

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    description: 'Registers a URL to receive the organization\'s events as signed HTTP POSTs; answers the signing secret, once.',
    type: WithSecretRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), input: t.arg({ description: 'Its URL, events, note and whether it is active.', type: WebhookEndpointInput, required: true }) },
    resolve: async (_r, { organizationId, input }, ctx) => written(ctx, createEndpoint(ctx.db, ctx.access, String(organizationId), body({ ...input }), await signingSecret(ctx.db, ctx.config.secret))),
  }),
  updateWebhookEndpoint: t.field({
    description: 'Replaces a webhook endpoint\'s settings with the given ones.',
    type: WebhookEndpointRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ description: "The endpoint's ID.", required: true }), input: t.arg({ description: 'Its new settings.', type: WebhookEndpointInput, required: true }) },
    resolve: (_r, { organizationId, id, input }, ctx) => written(ctx, updateEndpoint(ctx.db, ctx.access, String(organizationId), String(id), body({ ...input }))),
  }),
  deleteWebhookEndpoint: t.boolean({
    description: 'Deletes a webhook endpoint: no event is delivered to it from then on.',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ description: "The endpoint's ID.", required: true }) },
    resolve: async (_r, { organizationId, id }, ctx) => (await written(ctx, deleteEndpoint(ctx.db, ctx.access, String(organizationId), String(id))), true),
  }),
  rotateWebhookEndpointSecret: t.field({
    type: WithSecretRef,
    description: 'A new secret signs from now on; the previous one keeps signing beside it for QUIRE_WEBHOOK_SECRET_GRACE_HOURS (both signatures are sent).',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), id: t.arg.id({ description: "The endpoint's ID.", required: true }) },
    resolve: async (_r, { organizationId, id }, ctx) =>
      written(ctx, rotateEndpointSecret(ctx.db, ctx.access, String(organizationId), String(id), await signingSecret(ctx.db, ctx.config.secret), ctx.config.webhooks.secretGraceMs)),
  }),
  redeliverWebhookDelivery: t.field({
    type: DeliveryRef,
    description: 'Sends a delivery\'s event again (same `webhook-id` and body), after what the endpoint has pending.',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), endpointId: t.arg.id({ required: true, description: 'The webhook endpoint\'s ID.' }), id: t.arg.id({ description: "The delivery's ID.", required: true }) },
    resolve: (_r, { organizationId, endpointId, id }, ctx) => written(ctx, redeliver(ctx.db, ctx.access, String(organizationId), String(endpointId), String(id))),
  }),
}));
