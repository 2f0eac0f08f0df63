/** Section 4.14 of the API description: OpenAPI specifications by slug, and their versions. */
import { badRequest } from '../../lib/errors.js';
import { CONNECTION_FIELDS, listOf, pageArgs, route } from '../route.js';

const BASE = '/orgs/{organizationId}/openapi';

const SPEC_FRAGMENT = `fragment RestOpenAPISpec on OpenAPISpec {
  id slug sourceURL processingState lastProcessedAt lastProcessErrorCode lastProcessedErrors { message code } lastProcessedErrorCount
  lastVersion { id } createdAt updatedAt permissions { view edit } urls { location app }
}`;

type Spec = Record<string, any>;

export const presentSpec = (s: Spec) => ({
  object: 'openapi-spec',
  id: s.id,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  slug: s.slug,
  ...(s.sourceURL ? { sourceURL: s.sourceURL } : {}),
  processingState: s.processingState,
  visibility: 'private',
  ...(s.lastVersion ? { lastVersion: s.lastVersion.id } : {}),
  ...(s.lastProcessedAt ? { lastProcessedAt: s.lastProcessedAt } : {}),
  ...(s.lastProcessErrorCode ? { lastProcessErrorCode: s.lastProcessErrorCode } : {}),
  lastProcessedErrors: s.lastProcessedErrors.map((e: { message: string; code: string | null }) => ({ message: e.message, ...(e.code ? { code: e.code } : {}) })),
  lastProcessedErrorCount: s.lastProcessedErrorCount,
  permissions: s.permissions,
  urls: s.urls,
});

/** `source` as the GraphQL input (the domain validates it: `{url}` or `{text}`). */
function source(body: Record<string, unknown>) {
  const value = body.source;
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badRequest('Invalid value for "source": `{url}` or `{text}` is required', 'source');
  return value;
}

export const openAPISpecRoutes = [
  route({
    method: 'GET',
    path: BASE,
    operation: `query RestListOpenAPISpecs($org: ID!, $first: Int, $after: String) {
      organization(id: $org) { openAPISpecs(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestOpenAPISpec } } } }
    } ${SPEC_FRAGMENT}`,
    variables: ({ params, query }) => ({ org: params.organizationId, ...pageArgs(query) }),
    result: (data) => listOf(data.organization.openAPISpecs, presentSpec),
  }),
  route({
    method: 'POST',
    path: BASE,
    operation: `mutation RestCreateOpenAPISpec($org: ID!, $slug: String!, $source: OpenAPISpecSourceInput!) { spec: createOpenAPISpec(organizationId: $org, slug: $slug, source: $source) { ...RestOpenAPISpec } } ${SPEC_FRAGMENT}`,
    variables: ({ params, body }) => {
      if (typeof body.slug !== 'string') throw badRequest('Invalid value for "slug": required', 'slug');
      return { org: params.organizationId, slug: body.slug, source: source(body) };
    },
    status: 201,
    result: (data) => presentSpec(data.spec),
  }),
  route({
    method: 'GET',
    path: `${BASE}/{specSlug}`,
    operation: `query RestGetOpenAPISpec($org: ID!, $slug: String!) { organization(id: $org) { openAPISpec(slug: $slug) { ...RestOpenAPISpec } } } ${SPEC_FRAGMENT}`,
    variables: ({ params }) => ({ org: params.organizationId, slug: params.specSlug }),
    result: (data) => presentSpec(data.organization.openAPISpec),
  }),
  route({
    method: 'PUT',
    path: `${BASE}/{specSlug}`,
    operation: `mutation RestPutOpenAPISpec($org: ID!, $slug: String!, $source: OpenAPISpecSourceInput!) { result: putOpenAPISpec(organizationId: $org, slug: $slug, source: $source) { created spec { ...RestOpenAPISpec } } } ${SPEC_FRAGMENT}`,
    variables: ({ params, body }) => ({ org: params.organizationId, slug: params.specSlug, source: source(body) }),
    status: (data) => (data.result.created ? 201 : 200),
    result: (data) => presentSpec(data.result.spec),
  }),
  route({
    method: 'DELETE',
    path: `${BASE}/{specSlug}`,
    operation: `mutation RestDeleteOpenAPISpec($org: ID!, $slug: String!) { deleteOpenAPISpec(organizationId: $org, slug: $slug) }`,
    variables: ({ params }) => ({ org: params.organizationId, slug: params.specSlug }),
    status: () => 205,
  }),
];
