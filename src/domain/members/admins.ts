/** The organization must keep at least one active admin. */
import type { Prisma } from '../../generated/prisma/client.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { mayOrganization, type OrganizationAction } from '../access/capabilities.js';
import type { Role } from '../access/roles.js';

type Tx = Prisma.TransactionClient;

/**
 * Locks the organization row, so concurrent role changes and removals in one organization run
 * one after the other (two admins demoting each other cannot both pass the check), and returns
 * the target member.
 */
export async function lockMember(tx: Tx, organizationId: string, userId: string) {
  await tx.$queryRaw`SELECT 1 FROM "Organization" WHERE "id" = ${organizationId} FOR UPDATE`;
  return tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
}

/**
 * The caller's right to `action`, checked again once the organization is locked: a role checked
 * before the lock may have been taken away by a write that held it (twenty admins demoting each
 * other at once must not all succeed).
 */
export async function requireStill(tx: Tx, organizationId: string, callerId: string, action: OrganizationAction): Promise<void> {
  const caller = await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId: callerId } }, select: { role: true, disabled: true } });
  const membership = { member: !!caller && !caller.disabled, role: caller && !caller.disabled ? (caller.role as Role | null) : null };
  if (!mayOrganization(action, membership)) throw forbidden();
}

export async function lockExistingMember(tx: Tx, organizationId: string, userId: string) {
  const member = await lockMember(tx, organizationId, userId);
  if (!member) throw notFound('Member');
  return member;
}

/** Throws 409 when `member` is the last active admin. */
export async function assertNotLastAdmin(tx: Tx, member: { organizationId: string; userId: string; role: string | null; disabled: boolean }) {
  if (member.role !== 'admin' || member.disabled) return;
  const others = await tx.member.count({
    where: { organizationId: member.organizationId, role: 'admin', disabled: false, userId: { not: member.userId } },
  });
  if (!others) throw conflict('An organization must keep at least one admin');
}
