/**
 * Who may read members. The description is silent, so: non-guest members read every member of
 * their organization; guests read only themselves. A member's space list (which reveals their
 * effective roles) is for organization admins and the member themself.
 */
import { notFound } from '../../../lib/errors.js';
import { memberKey } from '../../loaders/keys.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { Access } from '../../access/access.js';
import { reachSql, type Reach } from '../../access/reach.js';
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

/**
 * Which of `userIds` the caller may see in full (with their e-mail): themself, members of an
 * organization where the caller has an organization role (they read its members), and teammates.
 * Others the caller meets (the author of a change request, a reviewer) show their name only.
 */
export async function visibleUsers(db: Queryable, viewerId: string, userIds: readonly string[], reach: Reach = {}): Promise<Set<string>> {
  const rows = await db.$queryRaw<{ id: string }[]>(Prisma.sql`SELECT u."id" FROM unnest(${[...userIds]}::text[]) AS u("id")
    WHERE u."id" = ${viewerId}
    OR EXISTS (SELECT 1 FROM "Member" them JOIN "Member" me ON me."organizationId" = them."organizationId"
      WHERE them."userId" = u."id" AND me."userId" = ${viewerId} AND NOT me."disabled" AND me."role" IS NOT NULL AND ${reachSql(reach, 'me."organizationId"')})
    OR EXISTS (SELECT 1 FROM "TeamMember" them JOIN "TeamMember" me ON me."teamId" = them."teamId"
      JOIN "Team" t ON t."id" = me."teamId" JOIN "Member" mine ON mine."organizationId" = t."organizationId" AND mine."userId" = me."userId"
      WHERE them."userId" = u."id" AND me."userId" = ${viewerId} AND NOT mine."disabled" AND ${reachSql(reach, 't."organizationId"')})`);
  return new Set(rows.map((row) => row.id));
}
