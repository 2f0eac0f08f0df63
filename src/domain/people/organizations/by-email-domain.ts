/**
 * Finding organizations by e-mail domain: a user may only look up their own address's domain, and
 * sees only the organizations whose claim on it is proven — an active admin of the organization
 * has an address at that domain. Anyone can type a domain into `emailDomains`; listing it to
 * every user of that domain (think gmail.com) takes an administrator who is one of them.
 */
import type { Organization } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Reach } from '../../access/reach.js';

export async function organizationsByEmailDomain(db: Db, caller: Reach & { userId: string }, emailDomain: string): Promise<Organization[]> {
  const domain = emailDomain.trim().toLowerCase();
  const viewer = await db.user.findUnique({ where: { id: caller.userId }, select: { email: true } });
  if (!viewer || viewer.email.split('@')[1]?.toLowerCase() !== domain) return [];
  return db.organization.findMany({
    where: {
      emailDomains: { has: domain },
      // A credential one organization vouched for finds that organization at most (access/reach.ts).
      ...(caller.confinedTo ? { id: caller.confinedTo } : {}),
      members: { some: { role: 'admin', disabled: false, user: { email: { endsWith: `@${domain}`, mode: 'insensitive' } } } },
    },
    orderBy: { createdAt: 'asc' },
  });
}
