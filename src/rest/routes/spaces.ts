/** Section 4.1 of the API description: spaces. */
import { LINK_STATUSES } from '../../domain/versions/content-links/status.js';
import { CONNECTION_FIELDS, enumParam, listOf, pageArgs, pick, route } from '../route.js';
import { restPosition } from '../position.js';
import { CONTENT_LINK_FRAGMENT, presentContentLink } from '../present-content.js';
import { presentSpace, SPACE_FRAGMENT } from '../present.js';

const space = (data: { space: unknown }) => presentSpace(data.space as never);

export const spaceRoutes = [
  route({
    method: 'GET',
    path: '/spaces/{spaceId}',
    operation: `query RestGetSpace($id: ID!) { space(id: $id) { ...RestSpace } } ${SPACE_FRAGMENT}`,
    variables: ({ params }) => ({ id: params.spaceId }),
    result: space,
  }),
  route({
    method: 'DELETE',
    path: '/spaces/{spaceId}',
    operation: `mutation RestDeleteSpace($id: ID!) { deleteSpace(id: $id) }`,
    variables: ({ params }) => ({ id: params.spaceId }),
  }),
  route({
    method: 'PATCH',
    path: '/spaces/{spaceId}',
    operation: `mutation RestUpdateSpace($id: ID!, $input: UpdateSpaceInput!) { space: updateSpace(id: $id, input: $input) { ...RestSpace } } ${SPACE_FRAGMENT}`,
    variables: ({ params, body }) => ({ id: params.spaceId, input: pick(body, ['title', 'emoji', 'editMode', 'defaultLevel', 'mergeRules']) }),
    result: space,
  }),
  route({
    method: 'POST',
    path: '/spaces/{spaceId}/duplicate',
    operation: `mutation RestDuplicateSpace($id: ID!) { space: duplicateSpace(id: $id) { ...RestSpace } } ${SPACE_FRAGMENT}`,
    variables: ({ params }) => ({ id: params.spaceId }),
    result: space,
    status: 201,
  }),
  route({
    method: 'POST',
    path: '/spaces/{spaceId}/restore',
    operation: `mutation RestRestoreSpace($id: ID!) { space: restoreSpace(id: $id) { ...RestSpace } } ${SPACE_FRAGMENT}`,
    variables: ({ params }) => ({ id: params.spaceId }),
    result: space,
  }),
  route({
    method: 'POST',
    path: '/spaces/{spaceId}/move',
    operation: `mutation RestMoveSpace($id: ID!, $parent: ID, $position: PositionInput) {
      space: moveSpace(id: $id, parent: $parent, position: $position) { ...RestSpace }
    } ${SPACE_FRAGMENT}`,
    variables: ({ params, body }) => ({ id: params.spaceId, ...pick(body, ['parent']), ...('position' in body ? { position: restPosition(body.position, ['space', 'collection']) } : {}) }),
    result: space,
  }),
  route({
    method: 'POST',
    path: '/spaces/{spaceId}/transfer',
    operation: `mutation RestTransferSpace($id: ID!, $organization: ID!, $parent: ID) {
      space: transferSpace(id: $id, organization: $organization, parent: $parent) { ...RestSpace }
    } ${SPACE_FRAGMENT}`,
    variables: ({ params, body }) => ({ id: params.spaceId, ...pick(body, ['organization', 'parent']) }),
    result: space,
  }),
  route({
    method: 'GET',
    path: '/spaces/{spaceId}/links',
    operation: `query RestListSpaceLinks($id: ID!, $first: Int, $after: String, $status: ContentLinkStatus) {
      space(id: $id) {
        links(first: $first, after: $after, status: $status) {
          ${CONNECTION_FIELDS} edges { node { ...RestContentLink } } stats { total broken { total changeRequest } }
        }
      }
    } ${CONTENT_LINK_FRAGMENT}`,
    // GraphQL enum values cannot hold hyphens: `in-app` is `in_app` there.
    variables: ({ params, query }) => ({
      id: params.spaceId,
      ...pageArgs(query),
      status: enumParam(query, 'status', LINK_STATUSES)?.replaceAll('-', '_'),
    }),
    result: (data) => ({ ...listOf(data.space.links, presentContentLink), stats: data.space.links.stats }),
  }),
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/spaces',
    operation: `query RestListSpaces($id: ID!, $first: Int, $after: String) {
      organization(id: $id) { spaces(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestSpace } } } }
    } ${SPACE_FRAGMENT}`,
    variables: ({ params, query }) => ({ id: params.organizationId, ...pageArgs(query) }),
    result: (data) => listOf(data.organization.spaces, presentSpace),
  }),
  route({
    method: 'POST',
    path: '/orgs/{organizationId}/spaces',
    operation: `mutation RestCreateSpace($id: ID!, $input: CreateSpaceInput) {
      space: createSpace(organizationId: $id, input: $input) { ...RestSpace }
    } ${SPACE_FRAGMENT}`,
    variables: ({ params, body }) => ({ id: params.organizationId, input: pick(body, ['title', 'emoji', 'parent', 'private', 'editMode'], [], ['language', 'template', 'computedSource']) }),
    result: space,
    status: 201,
  }),
];
