/**
 * The site operations beyond its structure's plain writes (the public document's
 * `searchSiteContent`, `site-publishing-auth`, `getSitePublishingPreviewById`,
 * `sortSiteStructure`, `duplicateSiteSpace`, `prewarmSiteSearch`, the adaptive schema and its
 * template conditions), as GraphQL operations on `organization { site }`
 * and the mutations of schema/types/site-operations.ts. Another organization's site is 404.
 */
import { badRequest, notFound } from '../../lib/errors.js';
import { previewClaims } from '../../domain/publishing/sites/visitors/preview.js';
import { SECTION_GROUP_FRAGMENT, SITE_SECTION_FRAGMENT, SITE_SPACE_FRAGMENT, presentExternalLink, presentSectionGroup, presentSiteSection, presentSiteSpace } from '../present-sites.js';
import { booleanParam, CONNECTION_FIELDS, listOf, pageArgs, returnPreference, route, stringParam, type RestInput } from '../route.js';
import { presentSearchSpace, SEARCH_FRAGMENT } from './search.js';
import { ids, readSite, SITE, writeSite } from './sites.js';

const AUTH_FIELDS = 'backend privateKey fallbackURL logoutURL';

/** `SitePublishingAuth`: URLs left out when unset. */
const presentAuth = (auth: { backend: string; privateKey: string; fallbackURL: string | null; logoutURL: string | null }) => ({
  object: 'publishing-auth',
  backend: auth.backend,
  privateKey: auth.privateKey,
  ...(auth.fallbackURL ? { fallbackURL: auth.fallbackURL } : {}),
  ...(auth.logoutURL ? { logoutURL: auth.logoutURL } : {}),
});

const ADAPTIVE_FIELDS = 'jsonSchema updatedAt';

/** `SiteAdaptiveSchema`; none set: 404, as the public document says. */
function presentAdaptiveSchema(schema: { jsonSchema: unknown; updatedAt: string } | null) {
  if (!schema) throw notFound('Visitor attributes schema');
  return { object: 'site-adaptive-schema', jsonSchema: schema.jsonSchema, updatedAt: schema.updatedAt };
}

/**
 * The search's scope: `scope`, or the deprecated forms (`mode: "specific"` with `siteSpaceIds`,
 * `mode: "current"` with `siteSpaceId` — the default scope from that site space —, `mode: "all"`);
 * none: every site space.
 */
function searchScope(body: Record<string, unknown>): unknown {
  if (body.scope !== undefined) {
    if (body.mode !== undefined || body.siteSpaceIds !== undefined || body.siteSpaceId !== undefined) throw badRequest('Invalid value for "scope": give "scope" or the deprecated "mode", not both', 'scope');
    return body.scope;
  }
  if (body.mode === 'current') return { mode: 'default', currentSiteSpace: body.siteSpaceId };
  if (body.mode === undefined && body.siteSpaceIds !== undefined) return { mode: 'specific', siteSpaceIds: body.siteSpaceIds };
  if (body.mode === undefined) return undefined;
  if (body.mode !== 'specific' && body.mode !== 'all') throw badRequest('Invalid value for "mode": must be one of specific, current, all', 'mode');
  return { mode: body.mode, ...(body.siteSpaceIds !== undefined ? { siteSpaceIds: body.siteSpaceIds } : {}) };
}

/** The scope as `SiteSearchScopeInput` (GraphQL would coerce a lone ID into a list: refused here). */
function scopeVariable(scope: unknown) {
  if (scope === undefined || scope === null) return null;
  if (typeof scope !== 'object' || Array.isArray(scope)) throw badRequest('Invalid value for "scope": an object with "mode"', 'scope');
  const { siteSpaceIds } = scope as { siteSpaceIds?: unknown };
  if (siteSpaceIds !== undefined && siteSpaceIds !== null && !Array.isArray(siteSpaceIds)) throw badRequest('Invalid value for "scope.siteSpaceIds": must be an array', 'scope.siteSpaceIds');
  return scope;
}

const pointerOf = (value: unknown, field: string) => {
  if (value === undefined || value === null) return value;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest(`Invalid value for "${field}": a pointer {type, id}`, field);
  return value;
};

/** The item as the public document's `SiteStructureItem` (the GraphQL union, by `__typename`). */
function presentItem(item: { __typename: string }) {
  if (item.__typename === 'SiteSpace') return presentSiteSpace(item);
  if (item.__typename === 'SiteSection') return presentSiteSection(item);
  if (item.__typename === 'SiteExternalLink') return presentExternalLink(item);
  return presentSectionGroup(item);
}

export const siteOperationRoutes = [
  route({
    method: 'POST',
    path: `${SITE}/search`,
    operation: `query RestSearchSite($org: ID!, $site: ID!, $query: String!, $scope: SiteSearchScopeInput, $first: Int, $after: String) {
      organization(id: $org) { site(id: $site) { search(query: $query, scope: $scope, first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestSearchSpace } } } } }
    } ${SEARCH_FRAGMENT}`,
    variables: (input: RestInput) => {
      if (typeof input.body.query !== 'string') throw badRequest('Invalid value for "query": required, a string of at most 512 characters', 'query');
      return { ...ids(input), query: input.body.query, scope: scopeVariable(searchScope(input.body)), ...pageArgs(input.query) };
    },
    result: (data) => listOf(data.organization.site.search, presentSearchSpace),
  }),

  route({
    method: 'POST',
    path: `${SITE}/search/prewarm`,
    operation: writeSite('RestPrewarmSiteSearch', '', 'prewarmSiteSearch(organizationId: $org, siteId: $site)'),
    variables: ids,
    status: 204,
  }),

  // Adaptive content: the visitor attributes schema and the conditions it suggests
  route({
    method: 'GET',
    path: `${SITE}/adaptive-schema`,
    operation: readSite('RestGetSiteAdaptiveSchema', `adaptiveSchema { ${ADAPTIVE_FIELDS} }`, ''),
    variables: ids,
    result: (data) => presentAdaptiveSchema(data.organization.site.adaptiveSchema),
  }),
  route({
    method: 'PUT',
    path: `${SITE}/adaptive-schema`,
    operation: writeSite('RestUpdateSiteAdaptiveSchema', ', $input: JSON!', `updateSiteAdaptiveSchema(organizationId: $org, siteId: $site, input: $input) { ${ADAPTIVE_FIELDS} }`),
    variables: (input) => ({ ...ids(input), input: input.body }),
    result: (data) => presentAdaptiveSchema(data.result),
  }),
  route({
    method: 'GET',
    path: `${SITE}/adaptive-schema/template-conditions`,
    operation: readSite('RestListSiteAdaptiveTemplateConditions', 'adaptiveTemplateConditions { description condition }', ''),
    variables: ids,
    result: (data) => ({ items: data.organization.site.adaptiveTemplateConditions }),
  }),

  // Publishing auth
  route({
    method: 'GET',
    path: `${SITE}/publishing/auth`,
    operation: readSite('RestGetSitePublishingAuth', `publishingAuth { ${AUTH_FIELDS} }`, ''),
    variables: ids,
    result: (data) => presentAuth(data.organization.site.publishingAuth),
  }),
  route({
    method: 'PATCH',
    path: `${SITE}/publishing/auth`,
    operation: writeSite('RestUpdateSitePublishingAuth', ', $input: UpdateSitePublishingAuthInput!', `updateSitePublishingAuth(organizationId: $org, siteId: $site, input: $input) { ${AUTH_FIELDS} }`),
    variables: (input) => {
      if (typeof input.body.backend !== 'string') throw badRequest('Invalid value for "backend": required, "custom"', 'backend');
      const unknown = Object.keys(input.body).find((k) => !['backend', 'fallbackURL', 'logoutURL'].includes(k));
      if (unknown) throw badRequest(`Invalid value for "${unknown}": unknown field`, unknown);
      return { ...ids(input), input: input.body };
    },
    result: (data) => presentAuth(data.result),
  }),
  route({
    method: 'POST',
    path: `${SITE}/publishing/auth/regenerate`,
    operation: writeSite('RestRegenerateSitePublishingAuth', '', `regenerateSitePublishingAuth(organizationId: $org, siteId: $site) { ${AUTH_FIELDS} }`),
    variables: ids,
    result: (data) => presentAuth(data.result),
  }),

  route({
    method: 'GET',
    path: `${SITE}/publishing/preview`,
    operation: readSite('RestGetSitePreview', 'preview(siteSpace: $siteSpace, claims: $claims, target: $target) { url }', '').replace('$site: ID!)', '$site: ID!, $siteSpace: ID, $claims: JSON, $target: String)'),
    variables: (input) => {
      // `draft` (default true): there are no drafts here, so either value previews the same content.
      booleanParam(input.query, 'draft');
      return { ...ids(input), siteSpace: stringParam(input.query, 'siteSpace', 100) ?? null, claims: previewClaims(stringParam(input.query, 'claims', 1024)), target: stringParam(input.query, 'target', 2048) ?? null };
    },
    result: (data) => ({ url: data.organization.site.preview.url }),
  }),

  route({
    method: 'PATCH',
    path: `${SITE}/structure/sort`,
    operation: writeSite(
      'RestSortSiteStructure',
      ', $item: SiteStructurePointerInput!, $position: SiteStructurePositionInput',
      `sortSiteStructure(organizationId: $org, siteId: $site, item: $item, position: $position) { __typename ...RestSiteSpace ...RestSiteSection ...RestSectionGroup ...RestSiteExternalLink }`,
      `${SECTION_GROUP_FRAGMENT} ${SITE_SECTION_FRAGMENT} ${SITE_SPACE_FRAGMENT}`,
    ),
    variables: (input) => {
      const item = pointerOf(input.body.item, 'item');
      if (!item) throw badRequest('Invalid value for "item": required, a pointer {type, id}', 'item');
      const position = input.body.position;
      if (position !== undefined && position !== null && (typeof position !== 'object' || Array.isArray(position))) throw badRequest('Invalid value for "position": an object with "before" or "after"', 'position');
      const { before, after, ...rest } = (position ?? {}) as Record<string, unknown>;
      const extra = Object.keys(rest)[0];
      if (extra) throw badRequest(`Invalid value for "position.${extra}": unknown field`, `position.${extra}`);
      return { ...ids(input), item, position: position ? { before: pointerOf(before, 'position.before') ?? null, after: pointerOf(after, 'position.after') ?? null } : null };
    },
    ...returnPreference(200),
    result: (data) => presentItem(data.result),
  }),

  route({
    method: 'POST',
    path: `${SITE}/site-spaces/{siteSpaceId}/duplicate`,
    operation: writeSite('RestDuplicateSiteSpace', ', $siteSpace: ID!, $draft: Boolean', 'duplicateSiteSpace(organizationId: $org, siteId: $site, siteSpaceId: $siteSpace, draft: $draft) { ...RestSiteSpace location }', SITE_SPACE_FRAGMENT),
    variables: (input) => {
      const unknown = Object.keys(input.body).find((k) => k !== 'draft');
      if (unknown) throw badRequest(`Invalid value for "${unknown}": unknown field`, unknown);
      if (input.body.draft !== undefined && typeof input.body.draft !== 'boolean') throw badRequest('Invalid value for "draft": must be a boolean', 'draft');
      return { ...ids(input), siteSpace: input.params.siteSpaceId, draft: input.body.draft ?? null };
    },
    status: 201,
    headers: (data) => ({ location: data.result.location }),
    result: (data) => presentSiteSpace(data.result),
  }),
];
