/**
 * Webhook endpoints and their delivery logs (quire's own paths, tag `quire` of /v1/openapi.json):
 * `/orgs/{organizationId}/webhooks…`. Organization admins only.
 */
import { DELIVERY_FRAGMENT, ENDPOINT_FRAGMENT, presentDelivery, presentEndpoint, presentEndpointWithSecret } from '../present-webhooks.js';
import { CONNECTION_FIELDS, enumParam, listOf, pageArgs, pick, route, type RestInput } from '../route.js';

const BASE = '/orgs/{organizationId}/webhooks';
const ONE = `${BASE}/{webhookId}`;
const FIELDS = ['url', 'events', 'description', 'active'];

const ids = ({ params }: RestInput) => ({ org: params.organizationId, id: params.webhookId });

export const webhookRoutes = [
  route({
    method: 'GET',
    path: BASE,
    operation: `query RestListWebhooks($org: ID!, $first: Int, $after: String) {
      organization(id: $org) { webhookEndpoints(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestWebhookEndpoint } } } }
    } ${ENDPOINT_FRAGMENT}`,
    variables: ({ params, query }) => ({ org: params.organizationId, ...pageArgs(query) }),
    result: (data, { params }) => listOf(data.organization.webhookEndpoints, (w: Record<string, any>) => presentEndpoint(w, params.organizationId)),
  }),
  route({
    method: 'POST',
    path: BASE,
    operation: `mutation RestCreateWebhook($org: ID!, $input: WebhookEndpointInput!) {
      created: createWebhookEndpoint(organizationId: $org, input: $input) { secret endpoint { ...RestWebhookEndpoint } }
    } ${ENDPOINT_FRAGMENT}`,
    variables: ({ params, body }) => ({ org: params.organizationId, input: pick(body, FIELDS, ['events']) }),
    status: 201,
    result: (data, { params }) => presentEndpointWithSecret(data.created, params.organizationId),
  }),
  route({
    method: 'GET',
    path: ONE,
    operation: `query RestGetWebhook($org: ID!, $id: ID!) { organization(id: $org) { webhookEndpoint(id: $id) { ...RestWebhookEndpoint } } } ${ENDPOINT_FRAGMENT}`,
    variables: ids,
    result: (data, { params }) => presentEndpoint(data.organization.webhookEndpoint, params.organizationId),
  }),
  route({
    method: 'PATCH',
    path: ONE,
    operation: `mutation RestUpdateWebhook($org: ID!, $id: ID!, $input: WebhookEndpointInput!) {
      updated: updateWebhookEndpoint(organizationId: $org, id: $id, input: $input) { ...RestWebhookEndpoint }
    } ${ENDPOINT_FRAGMENT}`,
    variables: (input) => ({ ...ids(input), input: pick(input.body, FIELDS, ['events']) }),
    result: (data, { params }) => presentEndpoint(data.updated, params.organizationId),
  }),
  route({
    method: 'DELETE',
    path: ONE,
    operation: `mutation RestDeleteWebhook($org: ID!, $id: ID!) { deleteWebhookEndpoint(organizationId: $org, id: $id) }`,
    variables: ids,
    status: 204,
  }),
  route({
    method: 'POST',
    path: `${ONE}/secret`,
    operation: `mutation RestRotateWebhookSecret($org: ID!, $id: ID!) {
      rotated: rotateWebhookEndpointSecret(organizationId: $org, id: $id) { secret endpoint { ...RestWebhookEndpoint } }
    } ${ENDPOINT_FRAGMENT}`,
    variables: ids,
    result: (data, { params }) => presentEndpointWithSecret(data.rotated, params.organizationId),
  }),
  route({
    method: 'GET',
    path: `${ONE}/deliveries`,
    operation: `query RestListWebhookDeliveries($org: ID!, $id: ID!, $first: Int, $after: String, $status: WebhookDeliveryStatus) {
      organization(id: $org) { webhookEndpoint(id: $id) { deliveries(first: $first, after: $after, status: $status) { ${CONNECTION_FIELDS} edges { node { ...RestWebhookDelivery } } } } }
    } ${DELIVERY_FRAGMENT}`,
    variables: (input) => ({ ...ids(input), ...pageArgs(input.query), status: enumParam(input.query, 'status', ['pending', 'delivered', 'failed'] as const) }),
    result: (data, { params }) => listOf(data.organization.webhookEndpoint.deliveries, (d: Record<string, any>) => presentDelivery(d, params.webhookId)),
  }),
  route({
    method: 'GET',
    path: `${ONE}/deliveries/{deliveryId}`,
    operation: `query RestGetWebhookDelivery($org: ID!, $id: ID!, $deliveryId: ID!) {
      organization(id: $org) { webhookEndpoint(id: $id) { delivery(id: $deliveryId) { ...RestWebhookDelivery } } }
    } ${DELIVERY_FRAGMENT}`,
    variables: (input) => ({ ...ids(input), deliveryId: input.params.deliveryId }),
    result: (data, { params }) => presentDelivery(data.organization.webhookEndpoint.delivery, params.webhookId),
  }),
  route({
    method: 'POST',
    path: `${ONE}/deliveries/{deliveryId}/redeliver`,
    operation: `mutation RestRedeliverWebhook($org: ID!, $id: ID!, $deliveryId: ID!) {
      delivery: redeliverWebhookDelivery(organizationId: $org, endpointId: $id, id: $deliveryId) { ...RestWebhookDelivery }
    } ${DELIVERY_FRAGMENT}`,
    variables: (input) => ({ ...ids(input), deliveryId: input.params.deliveryId }),
    status: 202,
    result: (data, { params }) => presentDelivery(data.delivery, params.webhookId),
  }),
];
