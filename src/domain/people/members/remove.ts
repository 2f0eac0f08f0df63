import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { assertNotLastAdmin, memberWrite } from './admins.js';
import { recordEvents } from '../../kernel/outbox.js';
import { memberEvent } from '../events.js';

/**
 * Removes a member with their team memberships and content grants in the organization, in one
 * transaction. Organization admins only. Returns false when the user was not a member (the
 * OpenAPI answers that case with 204 rather than an error).
 */
export async function removeMember(db: Db, access: Access, organizationId: string, userId: string): Promise<boolean> {
  return memberWrite(db, access, organizationId, userId, async (tx, member) => {
    if (!member) return false;
    await assertNotLastAdmin(tx, member);
    await tx.teamMember.deleteMany({ where: { userId, team: { organizationId } } });
    await tx.contentPermission.deleteMany({ where: { organizationId, userId } });
    await tx.sitePermission.deleteMany({ where: { organizationId, userId } });
    await tx.member.delete({ where: { organizationId_userId: { organizationId, userId } } });
    await recordEvents(tx, memberEvent('memberRemoved', organizationId, userId, access));
    return true;
  });
}
