/**
 * Effective roles, computed in memory from one organization's access data (loaded once per
 * request per organization, so checking a thousand spaces costs the same SQL as checking one).
 *
 * A caller's role on a space is the highest of: their organization role; direct grants on the
 * space; grants on any ancestor collection; the same grants made to their teams; and the space's
 * `defaultLevel` when visibility allows (every visibility but `private`, for non-guest members).
 * An `in-collection` space also gives whatever the caller has on its parent collection.
 * On a collection: organization role, grants on it and its ancestors (direct or through teams),
 * and its `defaultLevel` for non-guest members. Disabled members and non-members have no role.
 */
import type { Role } from './roles.js';
import { highest } from './roles.js';

export type OrgAccessData = {
  organizationId: string;
  member: { role: Role | null; disabled: boolean } | null;
  /** collection id → parent id, for ancestor walks */
  collectionParents: Map<string, string | null>;
  collectionDefaultLevels: Map<string, Role>;
  /** highest role granted to the caller or their teams, by space or collection id */
  grants: Map<string, Role>;
};

/**
 * Assembles one user's access data for one organization from its collections and the grants the
 * user holds there (directly or through teams).
 */
export function buildOrgAccessData(
  organizationId: string,
  member: { role: Role | null; disabled: boolean } | null,
  collections: { id: string; parentId: string | null; defaultLevel: Role }[],
  grants: { spaceId: string | null; collectionId: string | null; role: Role }[],
): OrgAccessData {
  const byTarget = new Map<string, Role>();
  for (const g of grants) {
    const target = g.spaceId ?? g.collectionId;
    if (target) byTarget.set(target, highest([byTarget.get(target), g.role])!);
  }
  return {
    organizationId,
    member: member && { role: member.role, disabled: member.disabled },
    collectionParents: new Map(collections.map((c) => [c.id, c.parentId])),
    collectionDefaultLevels: new Map(collections.map((c) => [c.id, c.defaultLevel])),
    grants: byTarget,
  };
}

export type SpaceAccessInput = {
  id: string;
  organizationId: string;
  parentId: string | null;
  visibility: string;
  defaultLevel: Role;
};

export type CollectionAccessInput = { id: string; organizationId: string };

function isActiveMember(data: OrgAccessData): data is OrgAccessData & { member: NonNullable<OrgAccessData['member']> } {
  return !!data.member && !data.member.disabled;
}

function ancestorGrants(data: OrgAccessData, collectionId: string | null): (Role | undefined)[] {
  const roles: (Role | undefined)[] = [];
  const seen = new Set<string>();
  for (let id = collectionId; id && !seen.has(id); id = data.collectionParents.get(id) ?? null) {
    seen.add(id);
    roles.push(data.grants.get(id));
  }
  return roles;
}

export function collectionRole(data: OrgAccessData, collection: CollectionAccessInput): Role | null {
  if (collection.organizationId !== data.organizationId || !isActiveMember(data)) return null;
  const { role } = data.member;
  return highest([
    role,
    ...ancestorGrants(data, collection.id),
    role ? data.collectionDefaultLevels.get(collection.id) : null,
  ]);
}

export function spaceRole(data: OrgAccessData, space: SpaceAccessInput): Role | null {
  if (space.organizationId !== data.organizationId || !isActiveMember(data)) return null;
  const { role } = data.member;
  const candidates: (Role | null | undefined)[] = [role, data.grants.get(space.id), ...ancestorGrants(data, space.parentId)];
  if (role && space.visibility !== 'private') candidates.push(space.defaultLevel);
  if (space.visibility === 'in_collection' && space.parentId) {
    candidates.push(collectionRole(data, { id: space.parentId, organizationId: space.organizationId }));
  }
  return highest(candidates);
}
