/** The organization must keep at least one active admin. */
import type { Prisma } from '../../generated/prisma/client.js';
import { conflict, notFound } from '../errors.js';

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
