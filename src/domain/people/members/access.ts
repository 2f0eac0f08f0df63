/**
 * Who may read members. The description is silent, so: non-guest members read every member of
 * their organization; guests read only themselves. A member's space list (which reveals their
 * effective roles) is for organization admins and the member themself.
 */
import { notFound } from '../../../lib/errors.js';
import { memberKey } from '../../loaders/keys.js';
import type { Access } from '../../access/access.js';
import type { OrganizationRow } from '../organizations/rows.js';

export async function requireMemberRead(access: Access, organizationId: string, userId?: string): Promise<void> {
  await access.requireOrganization(organizationId, userId === access.userId ? 'view' : 'readMembers');
}

export function requireMemberSpacesRead(access: Access, organizationId: string, userId: string): Promise<OrganizationRow> {
  return access.requireOrganization(organizationId, userId === access.userId ? 'view' : 'readMemberSpaces');
}

/** A member of an organization the caller may read, or 404. */
export async function findMember(access: Access, organizationId: string, userId: string) {
  await requireMemberRead(access, organizationId, userId);
  const member = await access.loaders.member.load(memberKey(organizationId, userId));
  if (!member) throw notFound('Member');
  return member;
}
