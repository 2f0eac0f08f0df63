/** A space or a collection, named by ID: the target of content permissions, and who may list its audience. */
import { notFound } from '../../lib/errors.js';
import { kindOfId } from '../kernel/ids.js';
import type { Access } from './access.js';
import type { CollectionAction, SpaceAction } from './capabilities.js';
import type { Role } from './roles.js';

export type ContentRef = { kind: 'space' | 'collection'; id: string; organizationId: string };

/** A live space or a collection the caller may `action` (404/403 as in access.ts). */
export async function requireContent(access: Access, contentId: string, action: SpaceAction & CollectionAction): Promise<ContentRef> {
  switch (kindOfId(contentId)) {
    case 'Space': {
      const { space } = await access.requireSpace(contentId, action);
      return { kind: 'space', id: space.id, organizationId: space.organizationId };
    }
    case 'Collection': {
      const { collection } = await access.requireCollection(contentId, action);
      return { kind: 'collection', id: collection.id, organizationId: collection.organizationId };
    }
    default:
      throw notFound('Space or collection');
  }
}

/**
 * Who may list who has access: members with an organization role, and whoever administers the
 * content (a guest granted `admin` manages its sharing). Other guests only see the content.
 */
export async function canListAudience(access: Access, content: ContentRef & { viewerRole: Role | null }): Promise<boolean> {
  const { role } = await access.orgRole(content.organizationId);
  return role !== null || content.viewerRole === 'admin';
}
