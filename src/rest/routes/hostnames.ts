/**
 * Custom hostnames (`/custom-hostnames/{hostname}`: get, check the DNS record again, remove),
 * subdomains (`/subdomains/{subdomain}`) and the API's own information (`GET /`).
 */
import { route, type RestInput } from '../route.js';

const CUSTOM_HOSTNAME = `fragment RestCustomHostname on CustomHostname { hostname isActive status site { id } location challenge { type name value } }`;

const hostname = ({ params }: RestInput) => ({ hostname: params.hostname });

/** The public document's `CustomHostname`, with quire's `challenge`: the DNS record that proves the claim. */
function presentCustomHostname(h: Record<string, any>) {
  return {
    object: 'custom-hostname',
    hostname: h.hostname,
    target: { type: 'site', site: h.site.id },
    isActive: h.isActive,
    ...(h.status ? { status: h.status } : {}),
    urls: { location: h.location },
    challenge: h.challenge,
  };
}

export const hostnameRoutes = [
  route({
    method: 'GET',
    path: '/custom-hostnames/{hostname}',
    operation: `query RestGetCustomHostname($hostname: String!) { customHostname(hostname: $hostname) { ...RestCustomHostname } } ${CUSTOM_HOSTNAME}`,
    variables: hostname,
    result: (data) => presentCustomHostname(data.customHostname),
  }),
  route({
    method: 'PATCH',
    path: '/custom-hostnames/{hostname}',
    operation: `mutation RestRecheckCustomHostname($hostname: String!) { verifyCustomHostname(hostname: $hostname) { hostname } }`,
    variables: hostname,
    status: 204,
  }),
  route({
    method: 'DELETE',
    path: '/custom-hostnames/{hostname}',
    operation: `mutation RestRemoveCustomHostname($hostname: String!) { removed: removeCustomHostname(hostname: $hostname) }`,
    variables: hostname,
    status: (data) => (data.removed ? 205 : 204),
  }),
  route({
    method: 'GET',
    path: '/subdomains/{subdomain}',
    operation: `query RestGetSubdomain($subdomain: String!) { subdomain(subdomain: $subdomain) { subdomain organizationId isActive } }`,
    variables: ({ params }) => ({ subdomain: params.subdomain }),
    result: (data) => ({ object: 'subdomain', subdomain: data.subdomain.subdomain, target: { type: 'organization', organization: data.subdomain.organizationId }, isActive: data.subdomain.isActive }),
  }),
  route({
    method: 'GET',
    path: '/',
    operation: `query RestGetApiInformation { apiInformation { version build } }`,
    variables: () => ({}),
    result: (data) => data.apiInformation,
  }),
];
