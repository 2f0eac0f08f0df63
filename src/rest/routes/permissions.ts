/** Section 4.12 of the API description: users (and teams) of a space or a collection. */
import { notFound } from '../../lib/errors.js';
import { kindOfId } from '../../domain/kernel/ids.js';
import { ROLES } from '../../domain/access/roles.js';
import { CONNECTION_FIELDS, enumParam, listOf, pageArgs, pick, route, type RestInput, type Route } from '../route.js';
import { presentTeamPermission, presentUserPermission, TEAM_PERMISSION_FRAGMENT, USER_PERMISSION_FRAGMENT } from '../present-content.js';

const PREFIXES = [
  { kind: 'Space', field: 'space', base: '/spaces/{spaceId}/permissions', param: 'spaceId' },
  { kind: 'Collection', field: 'collection', base: '/collections/{collectionId}/permissions', param: 'collectionId' },
] as const;

function contentRoutes({ kind, field, base, param }: (typeof PREFIXES)[number]): Route[] {
  // The mutations take any content ID: keep a collection ID out of /spaces paths and vice versa.
  const contentId = ({ params }: RestInput) => {
    if (kindOfId(params[param]) !== kind) throw notFound(kind);
    return params[param];
  };
  const list = (connection: 'users' | 'aggregatedUsers') => {
    const byRole = connection === 'aggregatedUsers';
    return `query RestList${kind}${byRole ? 'Aggregate' : 'Users'}($id: ID!, $first: Int, $after: String${byRole ? ', $role: Role' : ''}) {
      ${field}(id: $id) { ${connection}(first: $first, after: $after${byRole ? ', role: $role' : ''}) {
        ${CONNECTION_FIELDS} edges { node { ...RestUserPermission } }
      } }
    } ${USER_PERMISSION_FRAGMENT}`;
  };
  return [
    route({
      method: 'POST',
      path: base,
      operation: `mutation RestInviteTo${kind}($contentId: ID!, $role: Role!, $users: [ID!], $teams: [ID!]) {
        grantContentPermissions(contentId: $contentId, role: $role, users: $users, teams: $teams) { __typename }
      }`,
      variables: (input) => ({ contentId: contentId(input), ...pick(input.body, ['role', 'users', 'teams'], ['users', 'teams']) }),
    }),
    route({
      method: 'GET',
      path: `${base}/users`,
      operation: list('users'),
      variables: (input) => ({ id: contentId(input), ...pageArgs(input.query) }),
      result: (data) => listOf(data[field].users, presentUserPermission),
    }),
    route({
      method: 'PATCH',
      path: `${base}/users/{userId}`,
      operation: `mutation RestUpdateUserIn${kind}($contentId: ID!, $userId: ID!, $role: Role) {
        updateUserContentPermission(contentId: $contentId, userId: $userId, role: $role) { __typename }
      }`,
      variables: (input) => ({ contentId: contentId(input), userId: input.params.userId, ...pick(input.body, ['role']) }),
    }),
    route({
      method: 'DELETE',
      path: `${base}/users/{userId}`,
      operation: `mutation RestRemoveUserFrom${kind}($contentId: ID!, $userId: ID!) {
        removeUserContentPermission(contentId: $contentId, userId: $userId) { __typename }
      }`,
      variables: (input) => ({ contentId: contentId(input), userId: input.params.userId }),
    }),
    route({
      method: 'GET',
      path: `${base}/aggregate`,
      operation: list('aggregatedUsers'),
      variables: (input) => ({ id: contentId(input), role: enumParam(input.query, 'role', ROLES), ...pageArgs(input.query) }),
      result: (data) => listOf(data[field].aggregatedUsers, presentUserPermission),
    }),
    route({
      method: 'GET',
      path: `${base}/teams`,
      operation: `query RestList${kind}Teams($id: ID!, $first: Int, $after: String) {
        ${field}(id: $id) { teams(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestTeamPermission } } } }
      } ${TEAM_PERMISSION_FRAGMENT}`,
      variables: (input) => ({ id: contentId(input), ...pageArgs(input.query) }),
      result: (data) => listOf(data[field].teams, presentTeamPermission),
    }),
    route({
      method: 'PATCH',
      path: `${base}/teams/{teamId}`,
      operation: `mutation RestUpdateTeamIn${kind}($contentId: ID!, $teamId: ID!, $role: Role) {
        updateTeamContentPermission(contentId: $contentId, teamId: $teamId, role: $role) { __typename }
      }`,
      variables: (input) => ({ contentId: contentId(input), teamId: input.params.teamId, ...pick(input.body, ['role']) }),
    }),
    route({
      method: 'DELETE',
      path: `${base}/teams/{teamId}`,
      operation: `mutation RestRemoveTeamFrom${kind}($contentId: ID!, $teamId: ID!) {
        removeTeamContentPermission(contentId: $contentId, teamId: $teamId) { __typename }
      }`,
      variables: (input) => ({ contentId: contentId(input), teamId: input.params.teamId }),
    }),
  ];
}

export const permissionRoutes = PREFIXES.flatMap(contentRoutes);
