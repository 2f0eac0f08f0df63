/** Finding organizations by e-mail domain: a user may only look up their own address's domain. */
import type { Organization } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';

export async function organizationsByEmailDomain(db: Db, viewerId: string, emailDomain: string): Promise<Organization[]> {
  const domain = emailDomain.trim().toLowerCase();
  const viewer = await db.user.findUnique({ where: { id: viewerId }, select: { email: true } });
  if (!viewer || viewer.email.split('@')[1]?.toLowerCase() !== domain) return [];
  return db.organization.findMany({ where: { emailDomains: { has: domain } }, orderBy: { createdAt: 'asc' } });
}
