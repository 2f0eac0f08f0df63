/** Loaders of spaces and collections, each row carrying the caller's effective role. */
import type { Db } from '../../db/client.js';
import { audiencePages, countAudience, countTeamGrants, countUserGrants, teamGrantsPages, userGrantsPages, type AudienceEntry, type TeamGrant, type UserGrant } from '../access/audience.js';
import type { Role } from '../access/roles.js';
import { kindOfId } from '../kernel/ids.js';
import { childCollectionsPages, countGuestChildCollections, loadCollections, type CollectionRow } from '../content/collections/rows.js';
import type { Page } from '../kernel/pagination/keyset.js';
import { collectionSpacesPages, countGuestCollectionSpaces, loadSpaces, type SpaceColumn, type SpaceListRow, type SpaceRow } from '../content/spaces/rows.js';
import { byId } from './keys.js';
import { fromPageVariant, type LoaderRegistry } from './registry.js';

export function contentLoaders(db: Db, viewerId: string, registry: LoaderRegistry) {
  const reader = (more: unknown[]) => ({ userId: viewerId, guest: more[0] === true });
  return {
    /** Includes deleted spaces; callers decide what a deleted space means to them. */
    space: registry.track<string, SpaceRow | null>(async (ids) => byId(await loadSpaces(db, viewerId, ids), ids)),
    collection: registry.track<string, CollectionRow | null>(async (ids) => byId(await loadCollections(db, viewerId, ids), ids)),
    /** A page of the live spaces of each collection; variant: pageVariant(args, callerIsGuest, columns?). */
    collectionSpaces: registry.variants<Page<SpaceListRow>>((variant, ids) => {
      const { args, more } = fromPageVariant(variant);
      return collectionSpacesPages(db, reader(more), ids, args, (more[1] as SpaceColumn[] | undefined) ?? undefined);
    }),
    /** A page of the child collections of each collection; variant: pageVariant(args, callerIsGuest). */
    childCollections: registry.variants<Page<CollectionRow>>((variant, ids) => {
      const { args, more } = fromPageVariant(variant);
      return childCollectionsPages(db, reader(more), ids, args);
    }),
    /** What a guest caller sees of each collection: live spaces and child collections. */
    guestCollectionSpaceCount: registry.track<string, number>((ids) => countGuestCollectionSpaces(db, viewerId, ids)),
    guestChildCollectionCount: registry.track<string, number>((ids) => countGuestChildCollections(db, viewerId, ids)),
    /** Who has access to each space or collection (by ID): direct user grants, team grants, everyone with their role. */
    userGrants: registry.variants<Page<UserGrant>>((variant, ids) => userGrantsPages(db, ids, fromPageVariant(variant).args)),
    userGrantCount: registry.track<string, number>((ids) => countUserGrants(db, ids)),
    teamGrants: registry.variants<Page<TeamGrant>>((variant, ids) => teamGrantsPages(db, viewerId, ids, fromPageVariant(variant).args)),
    teamGrantCount: registry.track<string, number>((ids) => countTeamGrants(db, viewerId, ids)),
    /** Variant: pageVariant(args, role filter). */
    audience: registry.variants<Page<AudienceEntry>>((variant, ids) => {
      const { args, more } = fromPageVariant(variant);
      return byKind(ids, (kind, some) => audiencePages(db, kind, some, more[0] as Role | null, args));
    }),
    /** Variant: the role filter ('' for none). */
    audienceCount: registry.variants<number>((variant, ids) => byKind(ids, (kind, some) => countAudience(db, kind, some, (variant || null) as Role | null))),
  };
}

/** Runs `batch` once for the spaces and once for the collections among `ids`, answering in the order of `ids`. */
async function byKind<T>(ids: readonly string[], batch: (kind: 'space' | 'collection', ids: string[]) => Promise<T[]>): Promise<T[]> {
  const out = new Map<string, T>();
  for (const kind of ['space', 'collection'] as const) {
    const some = ids.filter((id) => (kindOfId(id) === 'Space') === (kind === 'space'));
    if (some.length) (await batch(kind, some)).forEach((value, i) => out.set(some[i], value));
  }
  return ids.map((id) => out.get(id)!);
}
