import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { roleSchema } from '../../access/roles.js';
import { assertNotLastAdmin, existing, memberWrite } from './admins.js';
import { recordEvents } from '../../kernel/outbox.js';
import { memberEvent } from '../events.js';

const input = lazySchema(() => z.object({ role: roleSchema.nullable().optional() }));

export type UpdateMemberInput = z.input<typeof input>;

/** Changes a member's organization role (null makes them a guest). Organization admins only. */
export async function updateMember(db: Db, access: Access, organizationId: string, userId: string, raw: UpdateMemberInput): Promise<void> {
  const data = parseInput(input, raw);
  await memberWrite(db, access, organizationId, userId, async (tx, target) => {
    const member = existing(target);
    const changed = data.role !== undefined && data.role !== member.role;
    await recordEvents(tx, memberEvent('memberUpdated', organizationId, userId, access, changed ? { role: data.role ?? null, previousRole: member.role } : undefined));
    if (!changed) return;
    if (data.role !== 'admin') await assertNotLastAdmin(tx, member);
    await tx.member.update({ where: { organizationId_userId: { organizationId, userId } }, data: { role: data.role } });
  });
}

/** Marks a member as signing in with the organization's SSO. Organization admins only. */
export async function setMemberSso(db: Db, access: Access, organizationId: string, userId: string): Promise<void> {
  await memberWrite(db, access, organizationId, userId, async (tx, member) => {
    existing(member);
    await tx.member.update({ where: { organizationId_userId: { organizationId, userId } }, data: { sso: true } });
    await recordEvents(tx, memberEvent('memberUpdated', organizationId, userId, access, { sso: true }));
  });
}
