/** Section 4.14 of the API description: OpenAPI specifications by slug, and their versions. */
import { badRequest, notFound } from '../../lib/errors.js';
import { CONNECTION_FIELDS, listOf, pageArgs, route, type Route } from '../route.js';

const BASE = '/orgs/{organizationId}/openapi';

const SPEC_FRAGMENT = `fragment RestOpenAPISpec on OpenAPISpec {
  id slug sourceURL processingState visibility lastProcessedAt lastProcessErrorCode lastProcessedErrors { message code } lastProcessedErrorCount
  lastVersion { id } createdAt updatedAt permissions { view edit } urls { location app } publicURL
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
  visibility: s.visibility,
  ...(s.lastVersion ? { lastVersion: s.lastVersion.id } : {}),
  ...(s.lastProcessedAt ? { lastProcessedAt: s.lastProcessedAt } : {}),
  ...(s.lastProcessErrorCode ? { lastProcessErrorCode: s.lastProcessErrorCode } : {}),
  lastProcessedErrors: s.lastProcessedErrors.map((e: { message: string; code: string | null }) => ({ message: e.message, ...(e.code ? { code: e.code } : {}) })),
  lastProcessedErrorCount: s.lastProcessedErrorCount,
  permissions: s.permissions,
  urls: { ...s.urls, ...(s.publicURL ? { published: s.publicURL } : {}) },
});

const VERSION_FRAGMENT = `fragment RestOpenAPISpecVersion on OpenAPISpecVersion { id createdAt url urls { location } }`;

type Version = { id: string; createdAt: string; url: string; urls: { location: string }; content?: unknown; text?: string; format?: string; sourceURL?: string | null; publicURL?: string | null };

export const presentSpecVersion = (v: Version) => ({ object: 'openapi-spec-version', id: v.id, createdAt: v.createdAt, url: v.url, urls: v.urls });

/** The documented `OpenAPISpecContent`: the parsed document under its file name, and where it comes from. */
const presentContent = (v: Version) => ({
  filesystem: { [v.sourceURL ? (new URL(v.sourceURL).pathname.split('/').pop() || `openapi.${v.format}`) : `openapi.${v.format}`]: v.content },
  urls: { source: v.url, public: v.publicURL ?? null },
});

/** The version a row reads (`latest` or an ID) from the spec it answers; 404 when there is none (no version yet). */
function versionOf(data: { organization: { openAPISpec: { version?: Version | null; lastVersion?: Version | null } } }): Version {
  const spec = data.organization.openAPISpec;
  const version = spec.version ?? spec.lastVersion;
  if (!version) throw notFound('OpenAPI specification version');
  return version;
}

/**
 * The version reads: `latest` or by ID, the version itself, its content parsed, or (latest) raw.
 * The `latest` rows come first: the table is matched in order.
 */
function versionRoutes(): Route[] {
  const latest = (path: string, fields: string, present: (v: Version) => unknown): Route =>
    route({
      method: 'GET',
      path: `${BASE}/{specSlug}/versions/latest${path}`,
      operation: `query RestGetLatestOpenAPISpecVersion${path.replace(/\W/g, '_')}($org: ID!, $slug: String!) { organization(id: $org) { openAPISpec(slug: $slug) { lastVersion { ${fields} } } } } ${VERSION_FRAGMENT}`,
      variables: ({ params }) => ({ org: params.organizationId, slug: params.specSlug }),
      result: (data) => present(versionOf(data)),
    });
  const byId = (path: string, fields: string, present: (v: Version) => unknown): Route =>
    route({
      method: 'GET',
      path: `${BASE}/{specSlug}/versions/{versionId}${path}`,
      operation: `query RestGetOpenAPISpecVersion${path.replace(/\W/g, '_')}($org: ID!, $slug: String!, $id: ID!) { organization(id: $org) { openAPISpec(slug: $slug) { version(id: $id) { ${fields} } } } } ${VERSION_FRAGMENT}`,
      variables: ({ params }) => ({ org: params.organizationId, slug: params.specSlug, id: params.versionId }),
      result: (data) => present(versionOf(data)),
    });
  const CONTENT = '...RestOpenAPISpecVersion content format sourceURL publicURL';
  return [
    latest('', '...RestOpenAPISpecVersion', presentSpecVersion),
    latest('/content', CONTENT, presentContent),
    latest('/content/raw', '...RestOpenAPISpecVersion text format', (v) => ({ text: v.text, format: v.format })),
    byId('', '...RestOpenAPISpecVersion', presentSpecVersion),
    byId('/content', CONTENT, presentContent),
  ];
}

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
    method: 'PATCH',
    path: `${BASE}/{specSlug}`,
    operation: `mutation RestUpdateOpenAPISpec($org: ID!, $slug: String!, $visibility: OpenAPISpecVisibility!) { spec: updateOpenAPISpec(organizationId: $org, slug: $slug, visibility: $visibility) { ...RestOpenAPISpec } } ${SPEC_FRAGMENT}`,
    variables: ({ params, body }) => {
      if (body.visibility !== 'private' && body.visibility !== 'public') throw badRequest('Invalid value for "visibility": private or public', 'visibility');
      return { org: params.organizationId, slug: params.specSlug, visibility: body.visibility };
    },
    result: (data) => presentSpec(data.spec),
  }),
  route({
    method: 'GET',
    path: `${BASE}/{specSlug}/versions`,
    operation: `query RestListOpenAPISpecVersions($org: ID!, $slug: String!, $first: Int, $after: String) {
      organization(id: $org) { openAPISpec(slug: $slug) { versions(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestOpenAPISpecVersion } } } } }
    } ${VERSION_FRAGMENT}`,
    variables: ({ params, query }) => ({ org: params.organizationId, slug: params.specSlug, ...pageArgs(query) }),
    result: (data) => listOf(data.organization.openAPISpec.versions, presentSpecVersion),
  }),
  ...versionRoutes(),
  route({
    method: 'DELETE',
    path: `${BASE}/{specSlug}`,
    operation: `mutation RestDeleteOpenAPISpec($org: ID!, $slug: String!) { deleteOpenAPISpec(organizationId: $org, slug: $slug) }`,
    variables: ({ params }) => ({ org: params.organizationId, slug: params.specSlug }),
    status: () => 205,
  }),
];
