import type { Prisma } from '../../../generated/prisma/client.js';
import { badRequest } from '../../../lib/errors.js';

/**
 * Resolves user IDs or e-mail addresses to the user IDs of members of the organization, in the
 * given order; anything that does not name a member is a 400 naming `field`.
 */
export async function resolveMembers(tx: Prisma.TransactionClient, organizationId: string, identifiers: readonly string[], field: string): Promise<string[]> {
  if (!identifiers.length) return [];
  const emails = identifiers.filter((i) => i.includes('@')).map((i) => i.toLowerCase());
  const members = await tx.member.findMany({
    where: { organizationId, user: { OR: [{ id: { in: [...identifiers] } }, { email: { in: emails } }] } },
    select: { userId: true, user: { select: { email: true } } },
  });
  const byKey = new Map(members.flatMap((m) => [[m.userId, m.userId] as const, [m.user.email.toLowerCase(), m.userId] as const]));
  return identifiers.map((identifier) => {
    const userId = byKey.get(identifier.includes('@') ? identifier.toLowerCase() : identifier);
    if (!userId) throw badRequest(`Invalid value for "${field}": "${identifier}" is not a member of the organization`, field);
    return userId;
  });
}
