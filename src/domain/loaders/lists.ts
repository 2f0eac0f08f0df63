/**
 * Lists under each parent of a page, with their totals, read through the request's loaders (so
 * that the lists of every parent cost one statement, and their counts another): a collection's
 * spaces and child collections (what the reader counts: countFor, the collection's counter for a
 * member, a batched COUNT for a guest), an OpenAPI specification's versions.
 */
import type { OpenAPISpecVersion } from '../../generated/prisma/client.js';
import type { CollectionRow } from '../content/collections/rows.js';
import type { Reader, SpaceColumn, SpaceListRow } from '../content/spaces/rows.js';
import { counted, countFor, type CountedPage } from '../kernel/pagination/counted.js';
import type { PageArgs } from '../kernel/pagination/keyset.js';
import type { Loaders } from './index.js';
import { pageVariant } from './registry.js';

/** Live spaces directly inside the collection that the reader can see, in tree order. */
export async function collectionSpaces(loaders: Loaders, reader: Reader, collection: { id: string; spaceCount: number }, args: PageArgs, columns: readonly SpaceColumn[]): Promise<CountedPage<SpaceListRow>> {
  const page = await loaders.collectionSpaces(pageVariant(args, reader.guest, columns)).load(collection.id);
  return counted(page, countFor(reader, { member: collection.spaceCount, guest: () => loaders.guestCollectionSpaceCount.load(collection.id) }));
}

/** Collections directly inside the collection that the reader can see, in tree order. */
export async function childCollections(loaders: Loaders, reader: Reader, collection: { id: string; collectionCount: number }, args: PageArgs): Promise<CountedPage<CollectionRow>> {
  const page = await loaders.childCollections(pageVariant(args, reader.guest)).load(collection.id);
  return counted(page, countFor(reader, { member: collection.collectionCount, guest: () => loaders.guestChildCollectionCount.load(collection.id) }));
}

/** The specification's versions, newest first. */
export async function specVersions(loaders: Loaders, specId: string, args: PageArgs): Promise<CountedPage<OpenAPISpecVersion>> {
  const page = await loaders.openAPISpecVersions(pageVariant(args)).load(specId);
  return counted(page, () => loaders.openAPISpecVersionCount.load(specId));
}
