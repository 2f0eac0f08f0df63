/** The spaces a member can access, with their effective role: computed for that member, not the caller. */
import type { Space } from '../../generated/prisma/client.js';
import type { Loaders } from '../loaders.js';
import { spaceRole } from '../permissions/effective-role.js';
import type { Role } from '../permissions/roles.js';

export type MemberSpaceAccess = { permission: Role; space: Space };

/** Live spaces of the organization the member has any role on, by creation date (default newest first). */
export async function memberSpaceAccess(
  loaders: Loaders,
  member: { organizationId: string; userId: string },
  order: 'asc' | 'desc' = 'desc',
): Promise<MemberSpaceAccess[]> {
  const [everyone, spaces] = await Promise.all([
    loaders.membersAccess.load(member.organizationId),
    loaders.spacesInOrganization.load(member.organizationId),
  ]);
  const data = everyone.find((m) => m.userId === member.userId)?.data;
  if (!data) return [];
  const items = spaces.flatMap((space) => {
    const permission = spaceRole(data, space);
    return permission ? [{ permission, space }] : [];
  });
  return order === 'asc' ? items : items.reverse();
}
