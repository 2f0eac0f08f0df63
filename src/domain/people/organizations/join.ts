/**
 * Joining an organization through its e-mail domain (`POST /orgs/{id}/join`): a user whose address
 * is at a domain the organization lists — and has proven, an active admin holding an address there
 * (by-email-domain.ts) — joins with the organization's default role (a guest when it has none),
 * as an e-mail invitation without a role would. The address counts as verified because the
 * credential reaches beyond any one organization (an operator made the account or its token): a
 * token one organization vouched for (access/reach.ts) reaches no other, so it joins none (404).
 * Joining again is a no-op; a disabled member stays disabled (403).
 */
import type { Db } from '../../../db/client.js';
import { badRequest, forbidden, notFound } from '../../../lib/errors.js';
import type { Access } from '../../access/access.js';
import { reaches } from '../../access/reach.js';
import { lockAccess } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { memberEvent } from '../events.js';
import { domainOf, provenDomain } from './by-email-domain.js';
import { transactionFrom } from '../../kernel/request-origin.js';

/** Answers whether the caller became a member (false: they already were). */
export async function joinByEmailDomain(db: Db, access: Access, organizationId: string): Promise<boolean> {
  if (!reaches(access.origin, organizationId)) throw notFound('Organization');
  return transactionFrom(db, access.from, async (tx) => {
    const organization = await tx.organization.findUnique({ where: { id: organizationId }, select: { id: true, defaultRole: true } });
    if (!organization) throw notFound('Organization');
    // A new member changes who may do what: under the organization's exclusive access lock (guarded-write.ts).
    await lockAccess(tx, [organizationId], 'change');
    const member = await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId: access.userId } }, select: { disabled: true } });
    if (member?.disabled) throw forbidden('Your membership of this organization is disabled');
    // A member already (a guest included): nothing changes — joining by domain never changes a role.
    if (member) return false;
    const user = await tx.user.findUniqueOrThrow({ where: { id: access.userId }, select: { email: true } });
    const domain = domainOf(user.email);
    const eligible = domain !== '' && (await tx.organization.count({ where: { id: organizationId, ...provenDomain(domain) } })) > 0;
    if (!eligible) throw badRequest(`Your e-mail domain (${domain || 'none'}) is not one this organization accepts members from`, 'emailDomain');
    await tx.member.create({ data: { organizationId, userId: access.userId, role: organization.defaultRole } });
    await recordEvents(tx, memberEvent('memberUpdated', organizationId, access.userId, access));
    return true;
  });
}
