import { collectionPermissions } from '../../domain/access/capabilities.js';
import type { Collection } from '../../generated/prisma/client.js';
import { createCollection } from '../../domain/content/collections/create.js';
import { deleteCollection } from '../../domain/content/collections/delete.js';
import { moveCollection, transferCollection } from '../../domain/content/collections/relocate.js';
import { updateCollection } from '../../domain/content/collections/update.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { organizationCollections, organizationCollectionsChild, withChildPages, type CollectionsPage } from '../../domain/content/collections/rows.js';
import { childCollections, collectionSpaces } from '../../domain/loaders/lists.js';
import { reloaded } from '../../domain/loaders/reload.js';
import { loadOrganizationWith } from '../../domain/people/organizations/rows.js';
import { pageVariant } from '../../domain/loaders/index.js';
import { isFirstPage, type PageArgs } from '../../domain/kernel/pagination/keyset.js';
import { collectionSpacesChild, type Reader, type SpaceListRow } from '../../domain/content/spaces/rows.js';
import { childField, nestedConnection, type Selection } from '../selection.js';
import { forgetLoaded, type Context } from '../context.js';
import { apiUrl, appUrl } from '../urls.js';
import { RoleEnum } from './enums.js';
import { OrganizationRef, organizationReadAheads } from './organization.js';
import { PositionInput } from './position.js';
import { SpaceRef, spaceColumnsFor, spaceNodes } from './space.js';

const CollectionPermissions = builder.simpleObject('CollectionPermissions', {
  description: 'What the caller may do with the collection.',
  fields: (t) => ({
    view: t.boolean({ description: 'Whether the caller may read the collection (`read`).' }),
    admin: t.boolean({ description: 'Edit, move, delete and share the collection.' }),
    viewInviteLinks: t.boolean({ description: 'Whether the caller may see and manage its invite links (`admin`).' }),
    create: t.boolean({ description: 'Create spaces and collections in the collection.' }),
  }),
});

const CollectionUrls = builder.simpleObject('CollectionUrls', {
  description: 'Where a collection is: in this API and in the app.',
  fields: (t) => ({ location: t.string({ description: 'Its absolute URL in this API.' }), app: t.string({ description: 'Its absolute URL in the app.' }) }),
});

/** The collection if the caller can read it, else null (a parent may be hidden from a guest). */
async function readableCollection(ctx: Context, id: string | null): Promise<Collection | null> {
  const collection = id ? await ctx.loaders.collection.load(id) : null;
  return collection && (await ctx.access.collectionRole(collection)) ? collection : null;
}

/**
 * The `spaces` page its nodes select, to read with a page of collections: the child list and
 * the loader variant the nested resolver will ask (so that it finds the page already loaded).
 */
function nestedSpacesPage(collections: Selection, reader: Reader) {
  const spaces = nestedConnection(collections, 'Collection', 'spaces');
  if (!spaces || !isFirstPage(spaces.args)) return undefined;
  const columns = spaceColumnsFor(spaces.selection);
  return { child: collectionSpacesChild(reader, spaces.args, columns), variant: pageVariant(spaces.args, reader.guest, columns) };
}

/**
 * What `Organization.collections` reads for `reader`: the list (with its nodes' spaces when
 * selected) and the key its page is read ahead under (by the organization read-ahead below).
 */
function collectionsList(collections: Selection, reader: Reader, organizationId: string, args: PageArgs & { nested?: boolean | null }) {
  const nested = args.nested !== false;
  const spaces = nestedSpacesPage(collections, reader);
  const key = `collections:${organizationId}:${pageVariant(args, nested, reader.guest, spaces?.variant ?? null)}`;
  return { nested, spaces, key, list: organizationCollectionsChild(reader, nested, args, spaces?.child) };
}

/**
 * `organization(id) { collections(first: n) { … spaces(first: m) } }` in one statement: the
 * organization row, its first page of collections as the caller sees them (a member's or a
 * guest's, decided in SQL), and the first page of their spaces.
 */
organizationReadAheads.push(async (ctx, info, organizationId) => {
  const collections = childField(info, 'Organization', 'collections');
  if (!collections || !isFirstPage(collections.args)) return false;
  const [member, guest] = [false, true].map((isGuest) => collectionsList(collections.selection, { userId: ctx.viewer.userId, guest: isGuest }, organizationId, collections.args));
  const { organization, page } = await loadOrganizationWith(ctx.db, ctx.viewer.userId, organizationId, { member: member.list, guest: guest.list });
  ctx.loaders.organization.prime(organizationId, organization);
  const read = organization?.viewerRole === null ? guest : member;
  if (page) ctx.loaders.readAhead.set(read.key, withChildPages(page, read.spaces?.child));
  return true;
});

export const CollectionRef = builder.prismaNode('Collection', {
  description: 'A folder of an organization that groups spaces and other collections.',
  id: { field: 'id' },
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Its title.' }),
    description: t.exposeString('description', { description: 'Its description; null when it has none.', nullable: true }),
    defaultLevel: t.expose('defaultLevel', { description: 'The role members with an organization role get on it and on its `in_collection` spaces.', type: RoleEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    organizationId: t.exposeString('organizationId', { description: 'The ID of its organization.' }),
    parentId: t.exposeString('parentId', { description: "The ID of its parent collection; null at the organization's root.", nullable: true }),
    organization: t.field({ description: 'Its organization.',
      type: OrganizationRef,
      resolve: async (collection, _args, ctx) => (await ctx.loaders.organization.load(collection.organizationId))!,
    }),
    spaces: t.connection({
      type: SpaceRef,
      description: 'Live spaces directly inside this collection that the caller can access, in order.',
      resolve: async (collection, args, ctx, info) => {
        return pageConnection(spaceNodes(await collectionSpaces(ctx.loaders, await ctx.access.reader(collection.organizationId), collection, args, spaceColumnsFor(info))));
      },
    }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: CollectionUrls,
      resolve: (collection, _args, ctx) => ({ location: apiUrl(ctx, `/collections/${collection.id}`), app: appUrl(ctx, `/c/${collection.id}`) }),
    }),
    viewerRole: t.field({
      type: RoleEnum,
      nullable: true,
      description: "The caller's effective role on the collection.",
      resolve: (collection, _args, ctx) => ctx.access.collectionRole(collection),
    }),
    permissions: t.field({
      description: 'What the caller may do with it.',
      type: CollectionPermissions,
      resolve: async (collection, _args, ctx) => {
        return collectionPermissions(await ctx.access.collectionRole(collection));
      },
    }),
  }),
});

builder.prismaObjectFields(CollectionRef, (t) => ({
    parent: t.field({
      type: CollectionRef,
      nullable: true,
      description: 'The parent collection; null at the root or when the caller cannot read it.',
      resolve: (collection, _args, ctx) => readableCollection(ctx, collection.parentId),
    }),
    collections: t.connection({
      type: CollectionRef,
      description: 'Collections directly inside this one that the caller can access, in order.',
      resolve: async (collection, args, ctx) => {
        return pageConnection(await childCollections(ctx.loaders, await ctx.access.reader(collection.organizationId), collection, args));
      },
    }),
}));

builder.prismaObjectFields('Space', (t) => ({
  parent: t.field({
    type: CollectionRef,
    nullable: true,
    description: 'The parent collection; null at the root or when the caller cannot read it.',
    resolve: (space, _args, ctx) => readableCollection(ctx, space.parentId),
  }),
}));

builder.prismaObjectFields('Organization', (t) => ({
  collections: t.connection({
    type: CollectionRef,
    description: 'Collections the caller can access, depth-first in tree order; `nested: false` lists only root collections.',
    args: { nested: t.arg.boolean({ description: 'True (the default): every collection, depth-first; false: only those at the root.', defaultValue: true }) },
    resolve: async (org, args, ctx, info) => {
      const reader = await ctx.access.reader(org.id);
      // The first page of each collection's spaces, when selected, comes with the collections;
      // both may have come with the organization.
      const { nested, spaces, key } = collectionsList(info, reader, org.id, args);
      const readAhead = ctx.loaders.readAhead.get(key) as CollectionsPage<SpaceListRow> | undefined;
      const page = await organizationCollections(ctx.db, reader, org, nested, args, spaces?.child, readAhead);
      for (const [id, spacesPage] of page.children ?? []) ctx.loaders.collectionSpaces(spaces!.variant).prime(id, spacesPage);
      return pageConnection(page);
    },
  }),
}));

builder.queryField('collection', (t) =>
  t.field({
    description: 'A collection the caller can access; otherwise NOT_FOUND.',
    type: CollectionRef,
    args: { id: t.arg.id({ description: "The collection's ID.", required: true }) },
    resolve: async (_root, { id }, ctx) => (await ctx.access.requireCollection(String(id))).collection,
  }),
);

/** The collection after a committed write (which recorded its event). */
const reload = (ctx: Context, id: string): Promise<Collection> => {
  forgetLoaded(ctx);
  return reloaded(ctx.loaders.collection, id, 'Collection');
};

const CreateCollectionInput = builder.inputType('CreateCollectionInput', {
  description: 'A new collection.',
  fields: (t) => ({ title: t.string({ description: 'Its title (at most 50 characters); `Untitled` when left out.' }), parent: t.id({ description: 'ID of the parent collection.' }) }),
});

const UpdateCollectionInput = builder.inputType('UpdateCollectionInput', {
  description: 'A collection\'s new settings; only the given fields change.',
  fields: (t) => ({
    title: t.string({ description: 'The new title (at most 50 characters).' }),
    description: t.string({ description: 'null or "" clears the description.' }),
    defaultLevel: t.field({ description: 'The role members with an organization role get on it (and its `in_collection` spaces).', type: RoleEnum }),
  }),
});

builder.mutationFields((t) => ({
  createCollection: t.field({
    description: 'Creates a collection in an organization, at its root or inside a parent collection.',
    type: CollectionRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), input: t.arg({ description: "The new collection's title and parent; left out, an untitled collection at the root.", type: CreateCollectionInput, required: false }) },
    resolve: async (_root, { organizationId, input }, ctx) => {
      const id = await createCollection(ctx.db, ctx.access, {
        organizationId: String(organizationId),
        title: input?.title ?? undefined,
        parent: input?.parent == null ? undefined : String(input.parent),
      });
      return reload(ctx, id);
    },
  }),
  updateCollection: t.field({
    description: 'Changes a collection\'s title, description or default level; only the given fields change.',
    type: CollectionRef,
    args: { id: t.arg.id({ description: "The collection's ID.", required: true }), input: t.arg({ description: 'The settings to change.', type: UpdateCollectionInput, required: true }) },
    resolve: async (_root, { id, input }, ctx) => reload(ctx, await updateCollection(ctx.db, ctx.access, String(id), input as never)),
  }),
  deleteCollection: t.boolean({
    description: 'Deletes the collection and its nested collections; the spaces they contain go to the trash.',
    args: { id: t.arg.id({ description: "The collection's ID.", required: true }) },
    resolve: async (_root, { id }, ctx) => (await deleteCollection(ctx.db, ctx.access, String(id)), true),
  }),
  moveCollection: t.field({
    type: CollectionRef,
    description: 'Moves a collection to a parent collection (null: the root) and/or a position among its siblings; the end by default.',
    args: {
      id: t.arg.id({ description: "The collection's ID.", required: true }),
      parent: t.arg.id({ description: "The ID of the collection to move it into; null: the organization's root; left out: it stays in its parent.", required: false }),
      position: t.arg({ description: 'Where among its new siblings; left out: at the end.', type: PositionInput, required: false }),
    },
    resolve: async (_root, { id, parent, position }, ctx) =>
      reload(ctx, await moveCollection(ctx.db, ctx.access, String(id), { parent: parent === undefined ? undefined : parent && String(parent), position })),
  }),
  transferCollection: t.field({
    type: CollectionRef,
    description: 'Moves the collection, its nested collections and their spaces to the root of another organization; their grants are dropped.',
    args: { id: t.arg.id({ description: "The collection's ID.", required: true }), organization: t.arg.id({ description: 'The ID of the organization to move it to.', required: true }) },
    resolve: async (_root, { id, organization }, ctx) => reload(ctx, await transferCollection(ctx.db, ctx.access, String(id), { organization: String(organization) })),
  }),
}));
