/** A space or a collection, named by ID: the target of content permissions. */
import { notFound } from '../../lib/errors.js';
import { kindOfId } from '../kernel/ids.js';
import type { Access } from './access.js';
import type { CollectionAction, SpaceAction } from './capabilities.js';

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
