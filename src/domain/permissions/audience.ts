/**
 * Who has access to a piece of content: every member's OrgAccessData, built for a whole
 * organization in four queries, then fed to the same effective-role functions as the caller's.
 */
import type { Db } from '../../db/client.js';
import type { Collection, Space } from '../../generated/prisma/client.js';
import { buildOrgAccessData, collectionRole, spaceRole, type OrgAccessData } from './effective-role.js';
import type { Role } from './roles.js';

export type MemberAccess = { userId: string; data: OrgAccessData };

/** Access data of every member of each organization, in order of joining. */
export async function loadMembersAccess(db: Db, orgIds: readonly string[]): Promise<MemberAccess[][]> {
  const ids = [...orgIds];
  const [members, teamMembers, grants, collections] = await Promise.all([
    db.member.findMany({ where: { organizationId: { in: ids } }, orderBy: [{ joinedAt: 'asc' }, { userId: 'asc' }] }),
    db.teamMember.findMany({ where: { team: { organizationId: { in: ids } } }, select: { teamId: true, userId: true } }),
    db.contentPermission.findMany({
      where: { organizationId: { in: ids } },
      select: { organizationId: true, userId: true, teamId: true, spaceId: true, collectionId: true, role: true },
    }),
    db.collection.findMany({ where: { organizationId: { in: ids } }, select: { id: true, organizationId: true, parentId: true, defaultLevel: true } }),
  ]);
  const teamsOf = new Map<string, string[]>();
  for (const t of teamMembers) teamsOf.set(t.userId, [...(teamsOf.get(t.userId) ?? []), t.teamId]);
  const grantsOf = new Map<string, typeof grants>(); // by user ID or team ID
  for (const g of grants) {
    const holder = g.userId ?? g.teamId;
    if (holder) grantsOf.set(holder, [...(grantsOf.get(holder) ?? []), g]);
  }
  return ids.map((organizationId) => {
    const own = collections.filter((c) => c.organizationId === organizationId);
    return members
      .filter((m) => m.organizationId === organizationId)
      .map((m) => {
        const held = [m.userId, ...(teamsOf.get(m.userId) ?? [])].flatMap((holder) => grantsOf.get(holder) ?? []);
        const inOrg = held.filter((g) => g.organizationId === organizationId);
        return { userId: m.userId, data: buildOrgAccessData(organizationId, m, own, inOrg) };
      });
  });
}

export type Audience = { userId: string; role: Role }[];

/** Members with any role on the content, optionally only those whose effective role is `only`. */
export function audienceOf(members: MemberAccess[], content: { space: Space } | { collection: Collection }, only?: Role | null): Audience {
  const roleOf = (data: OrgAccessData) => ('space' in content ? spaceRole(data, content.space) : collectionRole(data, content.collection));
  return members
    .map((m) => ({ userId: m.userId, role: roleOf(m.data) }))
    .filter((e): e is Audience[number] => !!e.role && (!only || e.role === only));
}
