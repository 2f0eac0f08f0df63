/** Member administration: the target member, and the organization's last admin. */
import type { Prisma } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { conflict, notFound } from '../../../lib/errors.js';

type Tx = Prisma.TransactionClient;
type MemberRow = NonNullable<Awaited<ReturnType<Tx['member']['findUnique']>>>;

/**
 * A change of a member (role, removal) by an organization admin. It holds the organization's
 * access lock exclusively, so changes of members in one organization run one after the other,
 * and checks the caller's role again under it: twenty admins demoting each other at once cannot
 * all pass, and the organization keeps an admin. `work` gets the target member (null if none).
 */
export async function memberWrite<T>(db: Db, access: Access, organizationId: string, userId: string, work: (tx: Tx, member: MemberRow | null) => Promise<T>): Promise<T> {
  const check = (a: Access) => a.requireOrganization(organizationId, 'manageMembers');
  return guardedWrite(db, { access, organizations: [organizationId], mode: 'change', check }, async (tx) =>
    work(tx, await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } })),
  );
}

export function existing(member: MemberRow | null): MemberRow {
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
