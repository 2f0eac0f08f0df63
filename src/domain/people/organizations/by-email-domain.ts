/**
 * Finding organizations by e-mail domain: a user may only look up their own address's domain, and
 * sees only the organizations whose claim on it is proven — an active admin of the organization
 * has an address at that domain. Anyone can type a domain into `emailDomains`; listing it to
 * every user of that domain (think gmail.com) takes an administrator who is one of them. Joining
 * through a domain (join.ts) takes the same proof.
 */
import type { Organization, Prisma } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Reach } from '../../access/reach.js';

/** The domain of an address, lower-cased ('' when it has none). */
export const domainOf = (email: string): string => email.split('@')[1]?.toLowerCase() ?? '';

/** Organizations that list `domain` and have an active admin with an address at it. */
export const provenDomain = (domain: string): Prisma.OrganizationWhereInput => ({
  emailDomains: { has: domain },
  members: { some: { role: 'admin', disabled: false, user: { email: { endsWith: `@${domain}`, mode: 'insensitive' } } } },
});

export async function organizationsByEmailDomain(db: Db, caller: Reach & { userId: string }, emailDomain: string): Promise<Organization[]> {
  const domain = emailDomain.trim().toLowerCase();
  const viewer = await db.user.findUnique({ where: { id: caller.userId }, select: { email: true } });
  if (!viewer || domainOf(viewer.email) !== domain) return [];
  return db.organization.findMany({
    where: {
      ...provenDomain(domain),
      // A credential one organization vouched for finds that organization at most (access/reach.ts).
      ...(caller.confinedTo ? { id: caller.confinedTo } : {}),
    },
    orderBy: { createdAt: 'asc' },
  });
}
