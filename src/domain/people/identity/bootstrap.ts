/** Bootstrapping a self-hosted instance (used by the admin CLI): organizations, users, tokens. */
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { conflict, notFound } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';
import { memberEvent } from '../events.js';
import { organizationTitle } from '../organizations/update.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { roleSchema } from '../../access/roles.js';
import { issueToken } from './tokens.js';

const email = lazySchema(() => z.string().trim().toLowerCase().email());

const userInput = lazySchema(() => z.object({ email, name: z.string().trim().min(1).max(255).optional() }));

async function findOrCreateUser(tx: Pick<Db, 'user'>, data: z.output<typeof userInput>) {
  const existing = await tx.user.findUnique({ where: { email: data.email } });
  if (existing) return existing;
  return tx.user.create({ data: { id: newId('User'), email: data.email, displayName: data.name ?? data.email.split('@')[0] } });
}

export async function createOrganizationWithOwner(db: Db, raw: { title: string; ownerEmail: string; ownerName?: string }) {
  const data = parseInput(z.object({ title: organizationTitle, ownerEmail: email, ownerName: z.string().trim().min(1).max(255).optional() }), raw);
  return db.$transaction(async (tx) => {
    const user = await findOrCreateUser(tx, { email: data.ownerEmail, name: data.ownerName });
    const organization = await tx.organization.create({ data: { id: newId('Organization'), title: data.title } });
    await tx.member.create({ data: { organizationId: organization.id, userId: user.id, role: 'admin' } });
    const token = await issueToken(tx, user.id, { actorId: null, announced: false });
    return { organization, user, token };
  });
}

export async function createUser(db: Db, raw: { email: string; name?: string; org?: string; role?: string }) {
  const data = parseInput(userInput.extend({ org: z.string().optional(), role: roleSchema.or(z.literal('guest')).optional() }), raw);
  return db.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: data.email } })) throw conflict(`A user with email ${data.email} already exists`);
    const user = await findOrCreateUser(tx, data);
    if (data.org) {
      const org = await tx.organization.findUnique({ where: { id: data.org } });
      if (!org) throw notFound('Organization');
      const role = data.role === 'guest' ? null : (data.role ?? org.defaultRole);
      await tx.member.create({ data: { organizationId: org.id, userId: user.id, role } });
      // Made by the server's administrator, not by a user: no actor.
      await recordEvents(tx, memberEvent('memberUpdated', org.id, user.id, null));
    }
    const token = await issueToken(tx, user.id, { actorId: null, announced: false });
    return { user, token };
  });
}

/** The user with this e-mail address, or 404. */
export async function userByEmail(db: Db, address: string) {
  const data = parseInput(z.object({ email }), { email: address });
  const user = await db.user.findUnique({ where: { email: data.email } });
  if (!user) throw notFound('User');
  return user;
}
