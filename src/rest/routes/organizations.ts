/** Section 4.8 of the API description: organizations (search arrives with content). */
import { CONNECTION_FIELDS, listOf, pageArgs, pick, route } from '../route.js';
import { ORGANIZATION_FRAGMENT, presentOrganization } from '../present.js';

export const organizationRoutes = [
  route({
    method: 'GET',
    path: '/orgs',
    operation: `query RestListOrganizations($first: Int, $after: String) {
      organizations(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestOrganization } } }
    } ${ORGANIZATION_FRAGMENT}`,
    variables: ({ query }) => pageArgs(query),
    result: (data) => listOf(data.organizations, presentOrganization),
  }),
  route({
    method: 'GET',
    path: '/orgs/{organizationId}',
    operation: `query RestGetOrganization($id: ID!) { organization(id: $id) { ...RestOrganization } } ${ORGANIZATION_FRAGMENT}`,
    variables: ({ params }) => ({ id: params.organizationId }),
    result: (data) => presentOrganization(data.organization),
  }),
  route({
    method: 'PATCH',
    path: '/orgs/{organizationId}',
    operation: `mutation RestUpdateOrganization($id: ID!, $input: UpdateOrganizationInput!) {
      organization: updateOrganization(id: $id, input: $input) { ...RestOrganization }
    } ${ORGANIZATION_FRAGMENT}`,
    variables: ({ params, body }) => ({
      id: params.organizationId,
      input: pick(body, ['title', 'emailDomains', 'hostname', 'defaultRole', 'defaultContent', 'logo', 'sso', 'ai', 'inviteLinks', 'mergeRules'], ['emailDomains']),
    }),
    result: (data) => presentOrganization(data.organization),
  }),
  route({
    method: 'GET',
    path: '/email-domains/{emailDomain}/orgs',
    operation: `query RestOrganizationsByEmailDomain($domain: String!) {
      organizations: organizationsByEmailDomain(emailDomain: $domain) { ...RestOrganization }
    } ${ORGANIZATION_FRAGMENT}`,
    variables: ({ params }) => ({ domain: params.emailDomain }),
    result: (data) => ({ organizations: data.organizations.map(presentOrganization) }),
  }),
];
