/** Section 4.8 of the API description: organizations (search arrives with content). */
import { badRequest } from '../../lib/errors.js';
import { booleanParam, CONNECTION_FIELDS, listOf, pageArgs, pick, route } from '../route.js';
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
    method: 'POST',
    path: '/orgs',
    operation: `mutation RestCreateOrganization($input: CreateOrganizationInput!) {
      organization: createOrganization(input: $input) { ...RestOrganization }
    } ${ORGANIZATION_FRAGMENT}`,
    variables: ({ query, body }) => {
      if (query.has('openapiUrl')) throw badRequest('"openapiUrl" is not supported by this server yet', 'openapiUrl');
      const fields = pick(body, ['title', 'emailDomains'], ['emailDomains'], ['onboardingPreferences']);
      if (typeof fields.title !== 'string') throw badRequest('Invalid value for "title": required', 'title');
      return { input: { ...fields, withDefaultSite: booleanParam(query, 'withDefaultSite') } };
    },
    status: 201,
    headers: (data) => ({ location: data.organization.urls.location }),
    result: (data) => presentOrganization(data.organization),
  }),
  route({
    method: 'POST',
    path: '/orgs/{organizationId}/join',
    operation: `mutation RestJoinOrganization($id: ID!) { organization: joinOrganizationByEmailDomain(organizationId: $id) { id } }`,
    variables: ({ params }) => ({ id: params.organizationId }),
    status: 204,
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
