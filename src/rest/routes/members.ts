/** Section 4.5 of the API description: organization members. */
import { MEMBER_ROLE_FILTERS, MEMBER_SORTS } from '../../domain/people/members/rows.js';
import { MEMBER_FRAGMENT, presentMember, presentTeam, TEAM_FRAGMENT } from '../present-people.js';
import { presentSpace, SPACE_FRAGMENT } from '../present.js';
import { CONNECTION_FIELDS, enumParam, listOf, pageArgs, pick, route, stringParam } from '../route.js';

const ORDERS = ['asc', 'desc'] as const;
const member = (data: { member: unknown }) => presentMember(data.member as never);
const ids = (params: Record<string, string>) => ({ id: params.organizationId, userId: params.userId });

export const memberRoutes = [
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/members',
    operation: `query RestListMembers($id: ID!, $first: Int, $after: String, $order: SortOrder, $role: MemberRoleFilter, $search: String, $sort: MemberSort) {
      organization(id: $id) {
        members(first: $first, after: $after, order: $order, role: $role, search: $search, sort: $sort) {
          ${CONNECTION_FIELDS} edges { node { ...RestMember } }
        }
      }
    } ${MEMBER_FRAGMENT}`,
    variables: ({ params, query }) => ({
      id: params.organizationId,
      ...pageArgs(query),
      order: enumParam(query, 'order', ORDERS),
      role: enumParam(query, 'role', MEMBER_ROLE_FILTERS),
      search: stringParam(query, 'search'),
      sort: enumParam(query, 'sort', MEMBER_SORTS),
    }),
    result: (data) => listOf(data.organization.members, presentMember),
  }),
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/members/{userId}',
    operation: `query RestGetMember($id: ID!, $userId: ID!) { organization(id: $id) { member(userId: $userId) { ...RestMember } } } ${MEMBER_FRAGMENT}`,
    variables: ({ params }) => ids(params),
    result: (data) => member(data.organization),
  }),
  route({
    method: 'DELETE',
    path: '/orgs/{organizationId}/members/{userId}',
    operation: `mutation RestRemoveMember($id: ID!, $userId: ID!) { removed: removeMember(organizationId: $id, userId: $userId) }`,
    variables: ({ params }) => ids(params),
    // OpenAPI: 205 when the member was removed, 204 when there was no such member.
    status: (data) => (data.removed ? 205 : 204),
  }),
  route({
    method: 'PATCH',
    path: '/orgs/{organizationId}/members/{userId}',
    operation: `mutation RestUpdateMember($id: ID!, $userId: ID!, $input: UpdateMemberInput!) {
      member: updateMember(organizationId: $id, userId: $userId, input: $input) { ...RestMember }
    } ${MEMBER_FRAGMENT}`,
    variables: ({ params, body }) => ({ ...ids(params), input: pick(body, ['role']) }),
    result: member,
  }),
  route({
    method: 'POST',
    path: '/orgs/{organizationId}/ping',
    operation: `mutation RestPing($id: ID!) { ping: pingOrganization(organizationId: $id) { visitorClaims } }`,
    variables: ({ params }) => ({ id: params.organizationId }),
    result: (data) => ({ gitbookVisitorClaims: data.ping.visitorClaims }),
  }),
  route({
    method: 'POST',
    path: '/orgs/{organizationId}/members/{userId}/sso',
    operation: `mutation RestSetMemberSso($id: ID!, $userId: ID!) { member: setMemberSso(organizationId: $id, userId: $userId) { ...RestMember } } ${MEMBER_FRAGMENT}`,
    variables: ({ params }) => ids(params),
    result: member,
  }),
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/members/{userId}/spaces',
    operation: `query RestMemberSpaces($id: ID!, $userId: ID!, $first: Int, $after: String, $order: SortOrder) {
      organization(id: $id) { member(userId: $userId) {
        spaceAccess(first: $first, after: $after, order: $order) { ${CONNECTION_FIELDS} edges { node { permission space { ...RestSpace } } } }
      } }
    } ${SPACE_FRAGMENT}`,
    variables: ({ params, query }) => ({ ...ids(params), ...pageArgs(query), order: enumParam(query, 'order', ORDERS) }),
    result: (data) => listOf(data.organization.member.spaceAccess, (n: any) => ({ permission: n.permission, space: presentSpace(n.space) })),
  }),
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/members/{userId}/teams',
    operation: `query RestMemberTeams($id: ID!, $userId: ID!, $first: Int, $after: String, $title: String) {
      organization(id: $id) { member(userId: $userId) {
        teamMemberships(first: $first, after: $after, title: $title) { ${CONNECTION_FIELDS} edges { node { role team { ...RestTeam } } } }
      } }
    } ${TEAM_FRAGMENT}`,
    variables: ({ params, query }) => ({ ...ids(params), ...pageArgs(query), title: stringParam(query, 'title') }),
    result: (data) => listOf(data.organization.member.teamMemberships, (n: any) => ({ team: presentTeam(n.team), member: { role: n.role } })),
  }),
];
