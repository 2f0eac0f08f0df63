/** Loaders of spaces and collections, each row carrying the caller's effective role. */
import type { Db } from '../../db/client.js';
import { childCollectionsPages, countGuestChildCollections, loadCollections, type CollectionRow } from '../collections/rows.js';
import type { Page } from '../pagination/keyset.js';
import { collectionSpacesPages, countGuestCollectionSpaces, loadSpaces, type SpaceRow } from '../spaces/rows.js';
import { byId } from './keys.js';
import { fromPageVariant, type LoaderRegistry } from './registry.js';

export function contentLoaders(db: Db, viewerId: string, registry: LoaderRegistry) {
  const reader = (more: unknown[]) => ({ userId: viewerId, guest: more[0] === true });
  return {
    /** Includes deleted spaces; callers decide what a deleted space means to them. */
    space: registry.track<string, SpaceRow | null>(async (ids) => byId(await loadSpaces(db, viewerId, ids), ids)),
    collection: registry.track<string, CollectionRow | null>(async (ids) => byId(await loadCollections(db, viewerId, ids), ids)),
    /** A page of the live spaces of each collection; variant: pageVariant(args, callerIsGuest). */
    collectionSpaces: registry.variants<Page<SpaceRow>>((variant, ids) => {
      const { args, more } = fromPageVariant(variant);
      return collectionSpacesPages(db, reader(more), ids, args);
    }),
    /** A page of the child collections of each collection; variant: pageVariant(args, callerIsGuest). */
    childCollections: registry.variants<Page<CollectionRow>>((variant, ids) => {
      const { args, more } = fromPageVariant(variant);
      return childCollectionsPages(db, reader(more), ids, args);
    }),
    /** What a guest caller sees of each collection: live spaces and child collections. */
    guestCollectionSpaceCount: registry.track<string, number>((ids) => countGuestCollectionSpaces(db, viewerId, ids)),
    guestChildCollectionCount: registry.track<string, number>((ids) => countGuestChildCollections(db, viewerId, ids)),
  };
}
