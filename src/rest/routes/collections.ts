/** Section 4.2 of the API description: collections. */
import { booleanParam, CONNECTION_FIELDS, listOf, pageArgs, pick, route } from '../route.js';
import { restPosition } from '../position.js';
import { COLLECTION_FRAGMENT, presentCollection } from '../present-content.js';
import { presentSpace, SPACE_FRAGMENT } from '../present.js';

const collection = (data: { collection: unknown }) => presentCollection(data.collection as never);

export const collectionRoutes = [
  route({
    method: 'GET',
    path: '/collections/{collectionId}',
    operation: `query RestGetCollection($id: ID!) { collection(id: $id) { ...RestCollection } } ${COLLECTION_FRAGMENT}`,
    variables: ({ params }) => ({ id: params.collectionId }),
    result: collection,
  }),
  route({
    method: 'DELETE',
    path: '/collections/{collectionId}',
    operation: `mutation RestDeleteCollection($id: ID!) { deleteCollection(id: $id) }`,
    variables: ({ params }) => ({ id: params.collectionId }),
  }),
  route({
    method: 'PATCH',
    path: '/collections/{collectionId}',
    operation: `mutation RestUpdateCollection($id: ID!, $input: UpdateCollectionInput!) {
      collection: updateCollection(id: $id, input: $input) { ...RestCollection }
    } ${COLLECTION_FRAGMENT}`,
    variables: ({ params, body }) => ({ id: params.collectionId, input: pick(body, ['title', 'description', 'defaultLevel']) }),
    result: collection,
  }),
  route({
    method: 'GET',
    path: '/collections/{collectionId}/spaces',
    operation: `query RestListCollectionSpaces($id: ID!, $first: Int, $after: String) {
      collection(id: $id) { spaces(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestSpace } } } }
    } ${SPACE_FRAGMENT}`,
    variables: ({ params, query }) => ({ id: params.collectionId, ...pageArgs(query) }),
    result: (data) => listOf(data.collection.spaces, presentSpace),
  }),
  route({
    method: 'POST',
    path: '/collections/{collectionId}/move',
    operation: `mutation RestMoveCollection($id: ID!, $parent: ID, $position: PositionInput) {
      collection: moveCollection(id: $id, parent: $parent, position: $position) { ...RestCollection }
    } ${COLLECTION_FRAGMENT}`,
    variables: ({ params, body }) => ({ id: params.collectionId, ...pick(body, ['parent']), ...('position' in body ? { position: restPosition(body.position, ['space', 'collection']) } : {}) }),
    result: collection,
  }),
  route({
    method: 'POST',
    path: '/collections/{collectionId}/transfer',
    operation: `mutation RestTransferCollection($id: ID!, $organization: ID!) {
      collection: transferCollection(id: $id, organization: $organization) { ...RestCollection }
    } ${COLLECTION_FRAGMENT}`,
    variables: ({ params, body }) => ({ id: params.collectionId, ...pick(body, ['organization']) }),
    result: collection,
  }),
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/collections',
    operation: `query RestListCollections($id: ID!, $nested: Boolean, $first: Int, $after: String) {
      organization(id: $id) { collections(nested: $nested, first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestCollection } } } }
    } ${COLLECTION_FRAGMENT}`,
    variables: ({ params, query }) => ({ id: params.organizationId, nested: booleanParam(query, 'nested') ?? true, ...pageArgs(query) }),
    result: (data) => listOf(data.organization.collections, presentCollection),
  }),
  route({
    method: 'POST',
    path: '/orgs/{organizationId}/collections',
    operation: `mutation RestCreateCollection($id: ID!, $input: CreateCollectionInput) {
      collection: createCollection(organizationId: $id, input: $input) { ...RestCollection }
    } ${COLLECTION_FRAGMENT}`,
    variables: ({ params, body }) => ({ id: params.organizationId, input: pick(body, ['title', 'parent']) }),
    result: collection,
    status: 201,
  }),
];
