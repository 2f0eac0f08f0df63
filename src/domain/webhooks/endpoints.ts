/**
 * Webhook endpoints of an organization (admins: `manageWebhooks`): list, read, register, change,
 * delete, rotate the secret. The secret (`whsec_…`) is answered only by create and rotate; the row
 * keeps it sealed. Rotating keeps the previous secret signing beside the new one for the grace
 * period, so receivers can switch without losing a message. Re-activating an endpoint the server
 * turned off clears why, and its queue (kept while it was off) is drained again.
 */
import { Prisma, type WebhookEndpoint } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';
import type { Access } from '../access/access.js';
import { organizationWrite } from '../access/guarded-write.js';
import { conflict, notFound } from '../../lib/errors.js';
import { newWebhookSecret } from '../../lib/webhooks/standard-webhooks.js';
import { newId } from '../kernel/ids.js';
import { recordEvents } from '../kernel/outbox.js';
import { counted, type CountedPage } from '../kernel/pagination/counted.js';
import { byTimeThenId, readPage, type PageArgs } from '../kernel/pagination/keyset.js';
import { parseCreate, parseUpdate } from './input.js';
import { scheduleDrainNow } from './queue.js';
import { sealSecret } from './secrets.js';
import { MAX_ENDPOINTS_PER_ORGANIZATION } from './settings.js';

const { sql } = Prisma;
type Tx = Prisma.TransactionClient;

/** An endpoint and its secret, as create and rotate answer them (the only time the secret is shown). */
export type EndpointWithSecret = { endpoint: WebhookEndpoint; secret: string };

export async function endpointsPage(db: Db, access: Access, organizationId: string, args: PageArgs): Promise<CountedPage<WebhookEndpoint>> {
  await access.requireOrganization(organizationId, 'manageWebhooks');
  const key = byTimeThenId<WebhookEndpoint>(`webhooks:${organizationId}`, 'w."createdAt"', 'w."id"', (w) => [w.createdAt, w.id]);
  const page = await readPage<WebhookEndpoint>(db, sql`SELECT w.* FROM "WebhookEndpoint" w`, [sql`w."organizationId" = ${organizationId}`], key, args);
  return counted(page, () => db.webhookEndpoint.count({ where: { organizationId } }));
}

export async function findEndpoint(db: Db | Tx, access: Access, organizationId: string, id: string): Promise<WebhookEndpoint> {
  await access.requireOrganization(organizationId, 'manageWebhooks');
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id, organizationId } });
  if (!endpoint) throw notFound('Webhook endpoint');
  return endpoint;
}

async function endpointIn(tx: Tx, organizationId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = await tx.webhookEndpoint.findFirst({ where: { id, organizationId } });
  if (!endpoint) throw notFound('Webhook endpoint');
  return endpoint;
}

export function createEndpoint(db: Db, access: Access, organizationId: string, raw: unknown, instanceSecret: Uint8Array): Promise<EndpointWithSecret> {
  const input = parseCreate(raw);
  return organizationWrite(db, access, organizationId, 'manageWebhooks', async (tx) => {
    // Creates of one organization queue here, so the cap holds under concurrent requests.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`webhooks:${organizationId}`}, 0))`;
    if ((await tx.webhookEndpoint.count({ where: { organizationId } })) >= MAX_ENDPOINTS_PER_ORGANIZATION) {
      throw conflict(`An organization has at most ${MAX_ENDPOINTS_PER_ORGANIZATION} webhook endpoints: delete one first`);
    }
    const secret = newWebhookSecret();
    const endpoint = await tx.webhookEndpoint.create({
      data: {
        id: newId('WebhookEndpoint'),
        organizationId,
        url: input.url,
        events: input.events ?? [],
        description: input.description ?? '',
        active: input.active ?? true,
        secret: sealSecret(secret, instanceSecret),
        createdById: access.userId,
      },
    });
    await recordEvents(tx, { kind: 'webhookEndpointCreated', organizationId, subjectId: endpoint.id, actorId: access.userId });
    return { endpoint, secret };
  });
}

export function updateEndpoint(db: Db, access: Access, organizationId: string, id: string, raw: unknown): Promise<WebhookEndpoint> {
  const input = parseUpdate(raw);
  return organizationWrite(db, access, organizationId, 'manageWebhooks', async (tx) => {
    const before = await endpointIn(tx, organizationId, id);
    const reactivated = input.active === true && !before.active;
    const endpoint = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        ...input,
        // Turned on again: what turned it off no longer stands, and its kept queue is drained.
        ...(reactivated ? { disabledAt: null, disabledReason: null, failingSince: null } : {}),
      },
    });
    if (reactivated) await scheduleDrainNow(tx, id);
    await recordEvents(tx, { kind: 'webhookEndpointUpdated', organizationId, subjectId: id, actorId: access.userId, data: { fields: Object.keys(input) } });
    return endpoint;
  });
}

export function deleteEndpoint(db: Db, access: Access, organizationId: string, id: string): Promise<void> {
  return organizationWrite(db, access, organizationId, 'manageWebhooks', async (tx) => {
    // Its deliveries and attempts go with it (ON DELETE CASCADE); a queued drain finds no endpoint and ends.
    const { count } = await tx.webhookEndpoint.deleteMany({ where: { id, organizationId } });
    if (!count) throw notFound('Webhook endpoint');
    await recordEvents(tx, { kind: 'webhookEndpointDeleted', organizationId, subjectId: id, actorId: access.userId });
  });
}

/** A new secret signs from now on; the one it replaces keeps signing beside it for `graceMs`. */
export function rotateEndpointSecret(db: Db, access: Access, organizationId: string, id: string, instanceSecret: Uint8Array, graceMs: number): Promise<EndpointWithSecret> {
  return organizationWrite(db, access, organizationId, 'manageWebhooks', async (tx) => {
    const before = await endpointIn(tx, organizationId, id);
    const secret = newWebhookSecret();
    const endpoint = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        secret: sealSecret(secret, instanceSecret),
        previousSecret: graceMs > 0 ? before.secret : null,
        previousSecretExpiresAt: graceMs > 0 ? new Date(Date.now() + graceMs) : null,
      },
    });
    await recordEvents(tx, { kind: 'webhookEndpointUpdated', organizationId, subjectId: id, actorId: access.userId, data: { fields: ['secret'] } });
    return { endpoint, secret };
  });
}
