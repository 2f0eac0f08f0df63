/**
 * Site permissions (tags `site-permissions` and `site-users` of the public document): grants of a
 * role on a site to users and teams, and every member with access (`…/permissions/aggregate`).
 * GraphQL: src/schema/types/site-permission.ts; who may: docs/access.md#sites.
 */
import { MEMBER_ROLE_FILTERS, MEMBER_SORTS } from '../../domain/people/members/rows.js';
import { presentTeam, TEAM_FRAGMENT } from '../present-people.js';
import { presentUser, USER_FRAGMENT } from '../present.js';
import { CONNECTION_FIELDS, enumParam, listOf, pageArgs, pick, route, stringParam, type RestInput } from '../route.js';

type Obj = Record<string, any>;

const BASE = '/orgs/{organizationId}/sites/{siteId}/permissions';
const ORDERS = ['asc', 'desc'] as const;
const ids = ({ params }: RestInput) => ({ org: params.organizationId, site: params.siteId });
// The public document: 205 when a grant was removed, 204 when there was none.
const removedOrNot = (data: { result: { removed: boolean } }) => (data.result.removed ? 205 : 204);

/** A list of the site, read through its organization. */
const list = (name: string, vars: string, connection: string, node: string, fragments: string) =>
  `query ${name}($org: ID!, $site: ID!, $first: Int, $after: String${vars}) { organization(id: $org) { site(id: $site) {
    list: ${connection} { ${CONNECTION_FIELDS} edges { node { ${node} } } }
  } } } ${fragments}`;

const presentOrigin = (o: { type: string; reason: string | null; teamId: string | null }, organizationId: string, siteId: string) =>
  o.type === 'organization' ? { type: 'organization', organization: organizationId } : { type: 'site', site: siteId, reason: o.reason, ...(o.teamId ? { team: o.teamId } : {}) };

const grantChange = (name: string, holder: 'user' | 'team', field: string) =>
  `mutation ${name}($org: ID!, $site: ID!, $${holder}: ID!${field.startsWith('update') ? ', $role: Role' : ''}) {
    result: ${field}(organizationId: $org, siteId: $site, ${holder}Id: $${holder}${field.startsWith('update') ? ', role: $role' : ''}) { removed }
  }`;

export const sitePermissionRoutes = [
  route({
    method: 'POST',
    path: BASE,
    operation: `mutation RestInviteToSite($org: ID!, $site: ID!, $role: Role!, $users: [ID!], $teams: [ID!]) {
      inviteToSite(organizationId: $org, siteId: $site, role: $role, users: $users, teams: $teams) { id }
    }`,
    variables: (input) => ({ ...ids(input), ...pick(input.body, ['role', 'users', 'teams'], ['users', 'teams']) }),
  }),
  route({
    method: 'GET',
    path: `${BASE}/users`,
    operation: list('RestListSiteUsers', '', 'users(first: $first, after: $after)', 'permission user { ...RestUser }', USER_FRAGMENT),
    variables: (input) => ({ ...ids(input), ...pageArgs(input.query) }),
    result: (data) => listOf(data.organization.site.list, (p: Obj) => ({ permission: p.permission, user: presentUser(p.user) })),
  }),
  route({
    method: 'PATCH',
    path: `${BASE}/users/{userId}`,
    operation: grantChange('RestUpdateSiteUser', 'user', 'updateSiteUserPermission'),
    variables: (input) => ({ ...ids(input), user: input.params.userId, ...pick(input.body, ['role']) }),
  }),
  route({
    method: 'DELETE',
    path: `${BASE}/users/{userId}`,
    operation: grantChange('RestRemoveSiteUser', 'user', 'removeSiteUserPermission'),
    variables: (input) => ({ ...ids(input), user: input.params.userId }),
    status: removedOrNot,
  }),
  route({
    method: 'GET',
    path: `${BASE}/teams`,
    operation: list('RestListSiteTeams', '', 'teams(first: $first, after: $after)', 'permission team { ...RestTeam }', TEAM_FRAGMENT),
    variables: (input) => ({ ...ids(input), ...pageArgs(input.query) }),
    result: (data) => listOf(data.organization.site.list, (p: Obj) => ({ permission: p.permission, team: presentTeam(p.team) })),
  }),
  route({
    method: 'PATCH',
    path: `${BASE}/teams/{teamId}`,
    operation: grantChange('RestUpdateSiteTeam', 'team', 'updateSiteTeamPermission'),
    variables: (input) => ({ ...ids(input), team: input.params.teamId, ...pick(input.body, ['role']) }),
  }),
  route({
    method: 'DELETE',
    path: `${BASE}/teams/{teamId}`,
    operation: grantChange('RestRemoveSiteTeam', 'team', 'removeSiteTeamPermission'),
    variables: (input) => ({ ...ids(input), team: input.params.teamId }),
    status: removedOrNot,
  }),
  route({
    method: 'GET',
    path: `${BASE}/aggregate`,
    operation: list(
      'RestListSiteAggregate',
      ', $order: SortOrder, $role: MemberRoleFilter, $search: String, $sort: MemberSort, $team: ID',
      'aggregatedUsers(first: $first, after: $after, order: $order, role: $role, search: $search, sort: $sort, team: $team)',
      'permission user { ...RestUser } origin { type reason teamId } disabled lastSeenAt',
      USER_FRAGMENT,
    ),
    variables: (input) => ({
      ...ids(input),
      ...pageArgs(input.query),
      order: enumParam(input.query, 'order', ORDERS),
      role: enumParam(input.query, 'role', MEMBER_ROLE_FILTERS),
      search: stringParam(input.query, 'search'),
      sort: enumParam(input.query, 'sort', MEMBER_SORTS),
      team: stringParam(input.query, 'team'),
    }),
    result: (data, input) =>
      listOf(data.organization.site.list, (m: Obj) => ({
        permission: m.permission,
        user: presentUser(m.user),
        origin: presentOrigin(m.origin, input.params.organizationId, input.params.siteId),
        disabled: m.disabled,
        ...(m.lastSeenAt ? { lastSeenAt: m.lastSeenAt } : {}),
      })),
  }),
];
