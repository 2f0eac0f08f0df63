/**
 * Webhook endpoints over REST (quire's own `/orgs/{organizationId}/webhooks` paths) and GraphQL:
 * registering, reading, changing, deleting, rotating the secret; organization admins only (403 for
 * other members, 404 for another organization); validation 400s naming the field; the secret
 * shown only by create and rotate, and stored sealed. Deliveries: webhook-delivery.test.ts.
 */
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../src/domain/kernel/ids.js';
import { MAX_ENDPOINTS_PER_ORGANIZATION } from '../src/domain/webhooks/settings.js';
import { gql, gqlOk, http } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

// The test database is shared: endpoints made here are removed, so no file's worker keeps trying them.
const organizations: string[] = [];
afterAll(async () => {
  await server.db.webhookEndpoint.deleteMany({ where: { organizationId: { in: organizations } } });
});

/** Nothing listens there: nothing of this file is ever delivered anywhere. */
const URL_A = 'http://127.0.0.1:9/hooks/a';

async function setup() {
  const { org, owner } = await createOrg(server.db);
  organizations.push(org.id);
  const editor = await createActor(server.db, { org: org.id, role: 'create' });
  const guest = await createActor(server.db, { org: org.id, role: 'guest' });
  const base = `/orgs/${org.id}/webhooks`;
  return { org, owner, editor, guest, base };
}

describe('webhook endpoints over REST', () => {
  it('registers an endpoint (201) with its secret shown once, then reads, lists, changes and deletes it', async () => {
    const { org, owner, base } = await setup();
    const created = await http(server.url, owner.token, 'POST', base, { url: URL_A, events: ['spaceCreated', 'commentCreated', 'spaceCreated'], description: 'CI' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      object: 'webhook',
      id: expect.stringMatching(/^whep_/),
      organization: org.id,
      url: URL_A,
      description: 'CI',
      events: ['commentCreated', 'spaceCreated'],
      active: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const id = created.body.id;
    const { secret, ...shown } = created.body;
    // Stored sealed: the row does not hold the secret, nor does any read answer it.
    const row = await server.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    expect(row.secret).not.toContain(secret.slice(6));
    const read = await http(server.url, owner.token, 'GET', `${base}/${id}`);
    expect(read).toEqual({ status: 200, body: shown });
    const list = await http(server.url, owner.token, 'GET', base);
    expect(list).toEqual({ status: 200, body: { items: [shown], count: 1 } });
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6));

    const changed = await http(server.url, owner.token, 'PATCH', `${base}/${id}`, { events: [], active: false, description: '' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, url: URL_A, events: [], active: false, description: '' });
    expect(changed.body.secret).toBeUndefined();

    expect((await http(server.url, owner.token, 'DELETE', `${base}/${id}`)).status).toBe(204);
    expect((await http(server.url, owner.token, 'GET', `${base}/${id}`)).status).toBe(404);
    expect((await http(server.url, owner.token, 'DELETE', `${base}/${id}`)).status).toBe(404);
  });

  it('records an event for each change, in the write', async () => {
    const { org, owner, base } = await setup();
    const { body } = await http(server.url, owner.token, 'POST', base, { url: URL_A });
    await http(server.url, owner.token, 'PATCH', `${base}/${body.id}`, { description: 'x' });
    await http(server.url, owner.token, 'POST', `${base}/${body.id}/secret`);
    await http(server.url, owner.token, 'DELETE', `${base}/${body.id}`);
    const events = await server.db.outboxEvent.findMany({ where: { organizationId: org.id, subjectId: body.id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => [e.kind, e.actorId, e.data])).toEqual([
      ['webhookEndpointCreated', owner.id, null],
      ['webhookEndpointUpdated', owner.id, { fields: ['description'] }],
      ['webhookEndpointUpdated', owner.id, { fields: ['secret'] }],
      ['webhookEndpointDeleted', owner.id, null],
    ]);
  });

  it('rotates the secret: a new one, answered once; the previous one honoured until the grace period ends', async () => {
    const { owner, base } = await setup();
    const { body: created } = await http(server.url, owner.token, 'POST', base, { url: URL_A });
    const rotated = await http(server.url, owner.token, 'POST', `${base}/${created.id}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    const hours = (Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect((await http(server.url, owner.token, 'GET', `${base}/${created.id}`)).body.secret).toBeUndefined();
  });

  it('validates with a 400 naming the field, creating nothing', async () => {
    const { org, owner, base } = await setup();
    for (const [body, field] of [
      [{}, 'url'],
      [{ url: '' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'ftp://example.com/hook' }, 'url'],
      [{ url: 'https://user:pass@example.com/hook' }, 'url'],
      [{ url: `https://example.com/${'x'.repeat(2100)}` }, 'url'],
      [{ url: URL_A, events: ['spaceCreated', 'noSuchKind'] }, 'events'],
      [{ url: URL_A, events: 'spaceCreated' }, 'events'],
      [{ url: URL_A, description: 'x'.repeat(501) }, 'description'],
      [{ url: URL_A, active: 'yes' }, 'active'],
    ] as const) {
      const response = await http(server.url, owner.token, 'POST', base, body);
      expect(response.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(response.body.error.message).toContain(field);
    }
    expect(await server.db.webhookEndpoint.count({ where: { organizationId: org.id } })).toBe(0);
    const { body: created } = await http(server.url, owner.token, 'POST', base, { url: URL_A });
    const refused = await http(server.url, owner.token, 'PATCH', `${base}/${created.id}`, { url: 'javascript:alert(1)' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('url');
    expect((await http(server.url, owner.token, 'GET', `${base}/${created.id}`)).body.url).toBe(URL_A);
  });

  it('is for organization admins: 403 for other members, 404 for another organization', async () => {
    const { owner, editor, guest, base } = await setup();
    const { body: created } = await http(server.url, owner.token, 'POST', base, { url: URL_A });
    const one = `${base}/${created.id}`;
    const calls = [
      ['GET', base],
      ['POST', base, { url: URL_A }],
      ['GET', one],
      ['PATCH', one, { description: 'x' }],
      ['DELETE', one],
      ['POST', `${one}/secret`],
      ['GET', `${one}/deliveries`],
    ] as const;
    const stranger = (await createOrg(server.db, 'Elsewhere')).owner;
    for (const [method, path, body] of calls) {
      expect((await http(server.url, editor.token, method, path, body)).status, `${method} ${path}`).toBe(403);
      expect((await http(server.url, guest.token, method, path, body)).status, `${method} ${path}`).toBe(403);
      expect((await http(server.url, stranger.token, method, path, body)).status, `${method} ${path}`).toBe(404);
      expect((await http(server.url, undefined, method, path, body)).status, `${method} ${path}`).toBe(401);
    }
    // Another organization's admin cannot reach this endpoint through their own organization either.
    const other = await createOrg(server.db, 'Other');
    organizations.push(other.org.id);
    expect((await http(server.url, other.owner.token, 'GET', `/orgs/${other.org.id}/webhooks/${created.id}`)).status).toBe(404);
    expect((await http(server.url, other.owner.token, 'DELETE', `/orgs/${other.org.id}/webhooks/${created.id}`)).status).toBe(404);
    expect((await http(server.url, owner.token, 'GET', `${base}/${newId('WebhookEndpoint')}`)).status).toBe(404);
    expect(await server.db.webhookEndpoint.count({ where: { id: created.id } })).toBe(1);
  });

  it(`caps an organization at ${MAX_ENDPOINTS_PER_ORGANIZATION} endpoints (409)`, async () => {
    const { org, owner, base } = await setup();
    await server.db.webhookEndpoint.createMany({
      data: Array.from({ length: MAX_ENDPOINTS_PER_ORGANIZATION }, () => ({ id: newId('WebhookEndpoint'), organizationId: org.id, url: URL_A, secret: 'sealed', active: false })),
    });
    const refused = await http(server.url, owner.token, 'POST', base, { url: URL_A });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`at most ${MAX_ENDPOINTS_PER_ORGANIZATION}`);
    const page = await http(server.url, owner.token, 'GET', `${base}?limit=20`);
    expect(page.body.items).toHaveLength(20);
    expect(page.body.count).toBe(MAX_ENDPOINTS_PER_ORGANIZATION);
    const next = await http(server.url, owner.token, 'GET', `${base}?limit=40&page=${page.body.next.page}`);
    expect(next.body.items).toHaveLength(30);
    expect(next.body.next).toBeUndefined();
    expect(new Set([...page.body.items, ...next.body.items].map((w: { id: string }) => w.id)).size).toBe(MAX_ENDPOINTS_PER_ORGANIZATION);
  });
});

describe('webhook answers as /v1/openapi.json describes them (src/rest/quire-openapi.json)', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(createRequire(import.meta.url)('../src/rest/quire-openapi.json'), 'quire');
  const conforms = (schema: string, value: unknown) => {
    const validate = ajv.compile({ $ref: `quire#/components/schemas/${schema}` });
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  };

  it('answers endpoints, lists and deliveries in their documented shapes', async () => {
    const { owner, base } = await setup();
    const created = await http(server.url, owner.token, 'POST', base, { url: URL_A, events: ['spaceCreated'], active: false });
    conforms('QuireWebhookEndpointWithSecret', created.body);
    conforms('QuireWebhookEndpoint', (await http(server.url, owner.token, 'GET', `${base}/${created.body.id}`)).body);
    conforms('QuireWebhookEndpoints', (await http(server.url, owner.token, 'GET', base)).body);
    conforms('QuireWebhookEndpointWithSecret', (await http(server.url, owner.token, 'POST', `${base}/${created.body.id}/secret`)).body);
    // A delivery with one failed attempt, as a drain leaves it.
    const delivery = await server.db.webhookDelivery.create({
      data: { id: newId('WebhookDelivery'), endpointId: created.body.id, eventId: newId('OutboxEvent'), kind: 'spaceCreated', payload: '{"type":"spaceCreated","timestamp":"2026-01-01T00:00:00.000Z","data":{"id":"evt_x"}}', attempts: 1, lastStatusCode: 500, lastLatencyMs: 12, lastError: 'HTTP 500' },
    });
    await server.db.webhookAttempt.create({ data: { id: newId('WebhookAttempt'), deliveryId: delivery.id, attempt: 1, statusCode: 500, latencyMs: 12, error: 'HTTP 500' } });
    const list = await http(server.url, owner.token, 'GET', `${base}/${created.body.id}/deliveries`);
    conforms('QuireWebhookDeliveries', list.body);
    expect(list.body.items[0]).toMatchObject({ id: delivery.id, status: 'pending', attempts: 1, attemptLog: [{ attempt: 1, statusCode: 500, latencyMs: 12, error: 'HTTP 500' }] });
    conforms('QuireWebhookDelivery', (await http(server.url, owner.token, 'GET', `${base}/${created.body.id}/deliveries/${delivery.id}`)).body);
    const again = await http(server.url, owner.token, 'POST', `${base}/${created.body.id}/deliveries/${delivery.id}/redeliver`);
    expect(again.status).toBe(202);
    conforms('QuireWebhookDelivery', again.body);
    expect((await http(server.url, owner.token, 'GET', `${base}/${created.body.id}/deliveries?status=sent`)).status).toBe(400);
    expect((await http(server.url, owner.token, 'GET', `${base}/${created.body.id}/deliveries/${newId('WebhookDelivery')}`)).status).toBe(404);
  });
});

describe('webhook endpoints over GraphQL', () => {
  const FIELDS = 'id url description events active failingSince disabledAt disabledReason createdAt updatedAt';

  it('creates, reads, updates, rotates and deletes, answering the secret only when it is made', async () => {
    const { org, owner } = await setup();
    const { createWebhookEndpoint: created } = await gqlOk(
      server.url,
      owner.token,
      `mutation($org: ID!) { createWebhookEndpoint(organizationId: $org, input: { url: "${URL_A}", events: ["spaceCreated"] }) { secret endpoint { ${FIELDS} } } }`,
      { org: org.id },
    );
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.endpoint).toMatchObject({ url: URL_A, events: ['spaceCreated'], active: true, failingSince: null });
    const id = created.endpoint.id;
    const read = await gqlOk(server.url, owner.token, `query($org: ID!, $id: ID!) { organization(id: $org) { webhookEndpoint(id: $id) { ${FIELDS} } webhookEndpoints { totalCount edges { node { id } } } } }`, { org: org.id, id });
    expect(read.organization.webhookEndpoint).toEqual(created.endpoint);
    expect(read.organization.webhookEndpoints).toEqual({ totalCount: 1, edges: [{ node: { id } }] });

    const updated = await gqlOk(server.url, owner.token, `mutation($org: ID!, $id: ID!) { updateWebhookEndpoint(organizationId: $org, id: $id, input: { description: "chat" }) { description events } }`, { org: org.id, id });
    expect(updated.updateWebhookEndpoint).toEqual({ description: 'chat', events: ['spaceCreated'] });
    const rotated = await gqlOk(server.url, owner.token, `mutation($org: ID!, $id: ID!) { rotateWebhookEndpointSecret(organizationId: $org, id: $id) { secret endpoint { id } } }`, { org: org.id, id });
    expect(rotated.rotateWebhookEndpointSecret.secret).not.toBe(created.secret);
    const deleted = await gqlOk(server.url, owner.token, `mutation($org: ID!, $id: ID!) { deleteWebhookEndpoint(organizationId: $org, id: $id) }`, { org: org.id, id });
    expect(deleted.deleteWebhookEndpoint).toBe(true);
  });

  it('reads the delivery log newest first, filtered by status, with attempts and payload; redelivers', async () => {
    const { org, owner } = await setup();
    const endpoint = await server.db.webhookEndpoint.create({ data: { id: newId('WebhookEndpoint'), organizationId: org.id, url: URL_A, secret: 'sealed', active: false } });
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    const delivery = (n: number, status: 'pending' | 'delivered' | 'failed') => ({
      id: newId('WebhookDelivery'),
      endpointId: endpoint.id,
      eventId: newId('OutboxEvent'),
      kind: 'spaceCreated',
      payload: JSON.stringify({ type: 'spaceCreated', timestamp: at(n).toISOString(), data: { n } }),
      status,
      createdAt: at(n),
      attempts: status === 'pending' ? 0 : 1,
    });
    const rows = [delivery(1, 'delivered'), delivery(2, 'failed'), delivery(3, 'pending')];
    await server.db.webhookDelivery.createMany({ data: rows });
    await server.db.webhookAttempt.create({ data: { id: newId('WebhookAttempt'), deliveryId: rows[1].id, attempt: 1, statusCode: 502, latencyMs: 40, error: 'HTTP 502' } });
    const LOG = `query($org: ID!, $id: ID!, $status: WebhookDeliveryStatus, $after: String) { organization(id: $org) { webhookEndpoint(id: $id) {
      deliveries(first: 2, after: $after, status: $status) { totalCount pageInfo { hasNextPage endCursor } edges { node { id status kind eventId payload attempts attemptLog { attempt statusCode latencyMs error } } } } } } }`;
    const first = (await gqlOk(server.url, owner.token, LOG, { org: org.id, id: endpoint.id })).organization.webhookEndpoint.deliveries;
    expect(first.totalCount).toBe(3);
    expect(first.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([rows[2].id, rows[1].id]);
    expect(first.edges[1].node).toMatchObject({ status: 'failed', payload: { type: 'spaceCreated', data: { n: 2 } }, attemptLog: [{ attempt: 1, statusCode: 502, latencyMs: 40, error: 'HTTP 502' }] });
    const rest = (await gqlOk(server.url, owner.token, LOG, { org: org.id, id: endpoint.id, after: first.pageInfo.endCursor })).organization.webhookEndpoint.deliveries;
    expect(rest.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([rows[0].id]);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    const failed = (await gqlOk(server.url, owner.token, LOG, { org: org.id, id: endpoint.id, status: 'failed' })).organization.webhookEndpoint.deliveries;
    expect(failed.totalCount).toBe(1);
    expect(failed.edges[0].node.id).toBe(rows[1].id);
    const again = await gqlOk(server.url, owner.token, `mutation($org: ID!, $endpoint: ID!, $id: ID!) { redeliverWebhookDelivery(organizationId: $org, endpointId: $endpoint, id: $id) { status redeliveryOf eventId attempts } }`, { org: org.id, endpoint: endpoint.id, id: rows[1].id });
    expect(again.redeliverWebhookDelivery).toEqual({ status: 'pending', redeliveryOf: rows[1].id, eventId: rows[1].eventId, attempts: 0 });
  });

  it('answers FORBIDDEN to members who are not admins and NOT_FOUND to strangers, with the field in validation errors', async () => {
    const { org, owner, editor } = await setup();
    const stranger = (await createOrg(server.db, 'Elsewhere')).owner;
    const create = `mutation($org: ID!, $url: String) { createWebhookEndpoint(organizationId: $org, input: { url: $url }) { secret } }`;
    expect((await gql(server.url, editor.token, create, { org: org.id, url: URL_A })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await gql(server.url, stranger.token, create, { org: org.id, url: URL_A })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const invalid = await gql(server.url, owner.token, create, { org: org.id, url: 'mailto:a@b.c' });
    expect(invalid.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(invalid.errors?.[0].message).toContain('"url"');
    const list = await gql(server.url, editor.token, `query($org: ID!) { organization(id: $org) { webhookEndpoints { totalCount } } }`, { org: org.id });
    expect(list.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});
