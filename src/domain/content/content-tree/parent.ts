import { badRequest } from '../../../lib/errors.js';
import type { Access } from '../../access/access.js';
import type { TreeParent } from './transaction.js';

/** Where an item sits in the tree: its collection, or its organization's root. */
export const parentOf = (item: { organizationId: string; parentId: string | null }): TreeParent => ({ organizationId: item.organizationId, collectionId: item.parentId });

/**
 * Checks that the caller may create content under `parent` (a collection of `organizationId`,
 * or the organization's root when null) and returns the parent collection ID.
 */
export async function requireCreatableParent(access: Access, organizationId: string, parent: string | null): Promise<string | null> {
  if (parent === null) {
    await access.requireOrganization(organizationId, 'createContent');
    return null;
  }
  const { collection } = await access.requireCollection(parent, 'createInside');
  if (collection.organizationId !== organizationId) throw badRequest('Invalid value for "parent": the collection belongs to another organization', 'parent');
  return collection.id;
}
