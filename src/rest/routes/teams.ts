/** Section 4.16 of the API description: teams and team members. */
import { MEMBER_FRAGMENT, presentTeam, presentTeamMember, TEAM_FRAGMENT } from '../present-people.js';
import { CONNECTION_FIELDS, listOf, pageArgs, pick, route, stringParam } from '../route.js';

const team = (data: { team: unknown }) => presentTeam(data.team as never);
const ids = (params: Record<string, string>) => ({ id: params.organizationId, teamId: params.teamId });
// OpenAPI: deletes answer 205 when something was removed, 204 when there was nothing to remove.
const deleted = (key: string) => (data: Record<string, unknown>) => (data[key] ? 205 : 204);

/** `memberships: {<user ID or e-mail>: {role}}` becomes a list of `{user, role}`. */
function memberships(body: Record<string, unknown>) {
  const value = body.memberships;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value; // GraphQL rejects it, naming "memberships"
  return Object.entries(value).map(([user, membership]) => ({
    user,
    role: membership && typeof membership === 'object' ? (membership as Record<string, unknown>).role : membership,
  }));
}

export const teamRoutes = [
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/teams',
    operation: `query RestListTeams($id: ID!, $first: Int, $after: String, $owner: ID, $title: String) {
      organization(id: $id) { teams(first: $first, after: $after, owner: $owner, title: $title) { ${CONNECTION_FIELDS} edges { node { ...RestTeam } } } }
    } ${TEAM_FRAGMENT}`,
    variables: ({ params, query }) => ({
      id: params.organizationId,
      ...pageArgs(query),
      owner: stringParam(query, 'owner'),
      title: stringParam(query, 'title'),
    }),
    result: (data) => listOf(data.organization.teams, presentTeam),
  }),
  route({
    method: 'PUT',
    path: '/orgs/{organizationId}/teams',
    operation: `mutation RestCreateTeam($id: ID!, $input: CreateTeamInput!) { team: createTeam(organizationId: $id, input: $input) { ...RestTeam } } ${TEAM_FRAGMENT}`,
    variables: ({ params, body }) => ({ id: params.organizationId, input: pick(body, ['title', 'members'], ['members']) }),
    result: team,
    status: 201,
  }),
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/teams/{teamId}',
    operation: `query RestGetTeam($id: ID!, $teamId: ID!) { organization(id: $id) { team(id: $teamId) { ...RestTeam } } } ${TEAM_FRAGMENT}`,
    variables: ({ params }) => ids(params),
    result: (data) => team(data.organization),
  }),
  route({
    method: 'DELETE',
    path: '/orgs/{organizationId}/teams/{teamId}',
    operation: `mutation RestDeleteTeam($id: ID!, $teamId: ID!) { removed: deleteTeam(organizationId: $id, teamId: $teamId) }`,
    variables: ({ params }) => ids(params),
    status: deleted('removed'),
  }),
  route({
    method: 'PATCH',
    path: '/orgs/{organizationId}/teams/{teamId}',
    operation: `mutation RestUpdateTeam($id: ID!, $teamId: ID!, $input: UpdateTeamInput!) {
      team: updateTeam(organizationId: $id, teamId: $teamId, input: $input) { ...RestTeam }
    } ${TEAM_FRAGMENT}`,
    variables: ({ params, body }) => ({ ...ids(params), input: pick(body, ['title']) }),
    result: team,
  }),
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/teams/{teamId}/members',
    operation: `query RestListTeamMembers($id: ID!, $teamId: ID!, $first: Int, $after: String) {
      organization(id: $id) { team(id: $teamId) {
        members(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { role permissions { view } node { ...RestMember } } }
      } }
    } ${MEMBER_FRAGMENT}`,
    variables: ({ params, query }) => ({ ...ids(params), ...pageArgs(query) }),
    result: (data) => {
      const { members } = data.organization.team;
      return listOf({ ...members, edges: members.edges.map((edge: any) => ({ node: edge })) }, presentTeamMember);
    },
  }),
  route({
    method: 'PUT',
    path: '/orgs/{organizationId}/teams/{teamId}/members',
    operation: `mutation RestUpdateTeamMembers($id: ID!, $teamId: ID!, $input: UpdateTeamMembersInput!) {
      updateTeamMembers(organizationId: $id, teamId: $teamId, input: $input) { id }
    }`,
    variables: ({ params, body }) => ({
      ...ids(params),
      input: { ...pick(body, ['add', 'remove'], ['add', 'remove']), ...('memberships' in body ? { memberships: memberships(body) } : {}) },
    }),
  }),
  route({
    method: 'PUT',
    path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    operation: `mutation RestSetTeamMember($id: ID!, $teamId: ID!, $userId: ID!, $role: TeamRole) {
      setTeamMember(organizationId: $id, teamId: $teamId, userId: $userId, role: $role) { id }
    }`,
    variables: ({ params, body }) => ({ ...ids(params), userId: params.userId, ...pick(body, ['role']) }),
  }),
  route({
    method: 'DELETE',
    path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    operation: `mutation RestRemoveTeamMember($id: ID!, $teamId: ID!, $userId: ID!) {
      removed: removeTeamMember(organizationId: $id, teamId: $teamId, userId: $userId)
    }`,
    variables: ({ params }) => ({ ...ids(params), userId: params.userId }),
    status: deleted('removed'),
  }),
];
