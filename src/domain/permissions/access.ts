/**
 * Authorization in one place. Every check answers "not found" when the caller has no access at
 * all (so another organization's resources are never revealed) and "forbidden" when the caller
 * can see the resource but lacks the role the operation needs.
 */
import type { Collection, Organization, Space } from '../../generated/prisma/client.js';
import { forbidden, notFound } from '../errors.js';
import type { Loaders } from '../loaders.js';
import { collectionRole, spaceRole } from './effective-role.js';
import { atLeast, type Role } from './roles.js';

/** Deleted spaces stay visible (and restorable) for this long, then are purged. */
export const TRASH_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export function isPastRetention(space: { deletedAt: Date | null }, now = Date.now()): boolean {
  return !!space.deletedAt && now - space.deletedAt.getTime() > TRASH_RETENTION_MS;
}

/** `member`: any active member, guests included; `nonGuest`: members with an organization role. */
export type OrgRequirement = 'member' | 'nonGuest' | Role;

export class Access {
  constructor(
    readonly loaders: Loaders,
    readonly userId: string,
  ) {}

  async orgRole(organizationId: string): Promise<{ member: boolean; role: Role | null }> {
    const data = await this.loaders.orgAccess.load(organizationId);
    const active = !!data.member && !data.member.disabled;
    return { member: active, role: active ? data.member!.role : null };
  }

  async requireOrganization(organizationId: string, need: OrgRequirement = 'member'): Promise<Organization> {
    const [org, { member, role }] = await Promise.all([this.loaders.organization.load(organizationId), this.orgRole(organizationId)]);
    if (!org || !member) throw notFound('Organization');
    if (need === 'nonGuest' ? !role : need !== 'member' && !atLeast(role, need)) throw forbidden();
    return org;
  }

  async spaceRole(space: Space): Promise<Role | null> {
    if (isPastRetention(space)) return null;
    return spaceRole(await this.loaders.orgAccess.load(space.organizationId), space);
  }

  async collectionRole(collection: Collection): Promise<Role | null> {
    return collectionRole(await this.loaders.orgAccess.load(collection.organizationId), collection);
  }

  /** A space the caller can see with at least `min`; deleted spaces only when asked for. */
  async requireSpace(id: string, min: Role = 'read', opts: { allowDeleted?: boolean } = {}): Promise<{ space: Space; role: Role }> {
    const space = await this.loaders.space.load(id);
    const role = space && (opts.allowDeleted || !space.deletedAt) ? await this.spaceRole(space) : null;
    if (!space || !role) throw notFound('Space');
    if (!atLeast(role, min)) throw forbidden();
    return { space, role };
  }

  async requireCollection(id: string, min: Role = 'read'): Promise<{ collection: Collection; role: Role }> {
    const collection = await this.loaders.collection.load(id);
    const role = collection ? await this.collectionRole(collection) : null;
    if (!collection || !role) throw notFound('Collection');
    if (!atLeast(role, min)) throw forbidden();
    return { collection, role };
  }

  /** The subset of `items` the caller can read, order kept. */
  async visibleSpaces(spaces: Space[]): Promise<Space[]> {
    const roles = await Promise.all(spaces.map((s) => this.spaceRole(s)));
    return spaces.filter((_, i) => roles[i]);
  }

  async visibleCollections(collections: Collection[]): Promise<Collection[]> {
    const roles = await Promise.all(collections.map((c) => this.collectionRole(c)));
    return collections.filter((_, i) => roles[i]);
  }
}
