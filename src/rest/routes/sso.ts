/** Section 4.13 of the API description: SAML providers (admins) and how members sign in (`GET /orgs/{id}/sso`). */
import { CONNECTION_FIELDS, listOf, pageArgs, pick, route } from '../route.js';

const BASE = '/orgs/{organizationId}/saml';
const FRAGMENT = `fragment RestSamlProvider on SamlProvider {
  id label entityID ssoURL certificate status defaultRole defaultTeam { id title } createdAt service { acsURL startURL entityID } urls { location }
}`;
const FIELDS = ['label', 'entityID', 'certificate', 'ssoURL', 'defaultTeam', 'defaultRole'];

const present = (p: Record<string, any>) => ({
  object: 'saml-provider',
  id: p.id,
  label: p.label,
  // Required by the public document: an unset one is the empty string (the provider is then `pending`).
  entityID: p.entityID ?? '',
  ssoURL: p.ssoURL ?? '',
  certificate: p.certificate ?? '',
  ...(p.defaultTeam ? { defaultTeam: p.defaultTeam } : {}),
  defaultRole: p.defaultRole,
  createdAt: p.createdAt,
  status: p.status,
  service: p.service,
  urls: p.urls,
});

export const ssoRoutes = [
  route({
    method: 'GET',
    path: BASE,
    operation: `query RestListSamlProviders($org: ID!, $first: Int, $after: String) { organization(id: $org) { samlProviders(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestSamlProvider } } } } } ${FRAGMENT}`,
    variables: ({ params, query }) => ({ org: params.organizationId, ...pageArgs(query) }),
    result: (data) => listOf(data.organization.samlProviders, present),
  }),
  route({
    method: 'POST',
    path: BASE,
    operation: `mutation RestCreateSamlProvider($org: ID!, $input: SamlProviderInput!) { provider: createSamlProvider(organizationId: $org, input: $input) { ...RestSamlProvider } } ${FRAGMENT}`,
    variables: ({ params, body }) => ({ org: params.organizationId, input: pick(body, FIELDS) }),
    status: 201,
    result: (data) => present(data.provider),
  }),
  route({
    method: 'GET',
    path: `${BASE}/{samlProviderId}`,
    operation: `query RestGetSamlProvider($org: ID!, $id: ID!) { organization(id: $org) { samlProvider(id: $id) { ...RestSamlProvider } } } ${FRAGMENT}`,
    variables: ({ params }) => ({ org: params.organizationId, id: params.samlProviderId }),
    result: (data) => present(data.organization.samlProvider),
  }),
  route({
    method: 'PATCH',
    path: `${BASE}/{samlProviderId}`,
    operation: `mutation RestUpdateSamlProvider($org: ID!, $id: ID!, $input: SamlProviderInput!) { provider: updateSamlProvider(organizationId: $org, id: $id, input: $input) { ...RestSamlProvider } } ${FRAGMENT}`,
    variables: ({ params, body }) => ({ org: params.organizationId, id: params.samlProviderId, input: pick(body, FIELDS) }),
    result: (data) => present(data.provider),
  }),
  route({
    method: 'DELETE',
    path: `${BASE}/{samlProviderId}`,
    operation: `mutation RestDeleteSamlProvider($org: ID!, $id: ID!) { deleteSamlProvider(organizationId: $org, id: $id) }`,
    variables: ({ params }) => ({ org: params.organizationId, id: params.samlProviderId }),
    status: () => 205,
  }),
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/sso',
    operation: `query RestListSso($org: ID!) { ssoProviders(organizationId: $org) { id label startURL } }`,
    variables: ({ params }) => ({ org: params.organizationId }),
    result: (data) => ({ items: data.ssoProviders }),
  }),
];
