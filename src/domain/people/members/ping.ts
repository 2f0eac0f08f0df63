import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { signVisitorClaims } from '../identity/visitor-claims.js';

/** Records that the caller (any active member, guests included) is active now; returns their visitor claims. */
export async function pingOrganization(
  db: Db,
  access: Access,
  organizationId: string,
  signer: { secret: Uint8Array; issuer: string },
): Promise<string> {
  await access.requireOrganization(organizationId, 'ping');
  const member = await db.member.update({
    where: { organizationId_userId: { organizationId, userId: access.userId } },
    data: { lastSeenAt: new Date() },
  });
  return signVisitorClaims({ userId: member.userId, organizationId, role: member.role }, signer);
}
