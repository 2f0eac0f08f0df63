/**
 * Site redirects (the public document's `site-redirects` tag): list, create, bulk upsert, get by
 * source, update, delete. Reads go through `organization(id) { site(id) }` and writes name the
 * organization, so another organization's site is 404 on every path.
 */
import { badRequest } from '../../lib/errors.js';
import { booleanParam, CONNECTION_FIELDS, enumParam, listOf, pageArgs, route, stringParam, type RestInput } from '../route.js';

const SITE = '/orgs/{organizationId}/sites/{siteId}';
const ids = ({ params }: RestInput) => ({ org: params.organizationId, site: params.siteId });

const REDIRECT_FRAGMENT = 'fragment RestSiteRedirect on SiteRedirect { id source draft captureWildcard permanent destination createdAt updatedAt }';

type Obj = Record<string, any>;
export const presentRedirect = (r: Obj) => ({
  object: 'site-redirect',
  id: r.id,
  source: r.source,
  draft: r.draft,
  captureWildcard: r.captureWildcard,
  permanent: r.permanent,
  destination: r.destination,
  createdAt: r.createdAt,
  ...(r.updatedAt ? { updatedAt: r.updatedAt } : {}),
});

/** The bulk answer: each item as the public document's result shapes (no `id` on a deletion, `error` only on an error). */
const presentResult = (r: Obj) => ({
  status: r.status,
  source: r.source,
  draft: r.draft,
  ...(r.id ? { id: r.id } : {}),
  ...(r.status === 'error' ? { error: r.error } : {}),
});

const write = (name: string, vars: string, call: string) => `mutation ${name}($org: ID!, $site: ID!${vars}) { result: ${call} } ${REDIRECT_FRAGMENT}`;
const body = (input: RestInput) => input.body;

export const siteRedirectRoutes = [
  route({
    method: 'GET',
    path: `${SITE}/redirects`,
    operation: `query RestListSiteRedirects($org: ID!, $site: ID!, $first: Int, $after: String, $search: String, $draft: Boolean, $orderBy: SiteRedirectOrderBy) {
      organization(id: $org) { site(id: $site) { redirects(first: $first, after: $after, search: $search, draft: $draft, orderBy: $orderBy) { ${CONNECTION_FIELDS} edges { node { ...RestSiteRedirect } } } } }
    } ${REDIRECT_FRAGMENT}`,
    variables: (input) => ({
      ...ids(input),
      ...pageArgs(input.query),
      search: stringParam(input.query, 'search', 512) || null,
      draft: booleanParam(input.query, 'draft') ?? false,
      orderBy: enumParam(input.query, 'orderBy', ['createdAt', 'updatedAt', 'source'] as const) ?? null,
    }),
    result: (data) => listOf(data.organization.site.redirects, presentRedirect),
  }),
  route({
    method: 'GET',
    path: `${SITE}/redirect`,
    operation: `query RestGetSiteRedirectBySource($org: ID!, $site: ID!, $source: String!) {
      organization(id: $org) { site(id: $site) { redirect(source: $source) { ...RestSiteRedirect target } } }
    } ${REDIRECT_FRAGMENT}`,
    variables: (input) => {
      stringParam(input.query, 'shareKey', 200);
      const source = stringParam(input.query, 'source', 512);
      if (!source) throw badRequest('Invalid value for "source": the source path of a redirect is required', 'source');
      return { ...ids(input), source };
    },
    result: (data) => {
      const redirect = data.organization.site.redirect;
      return { redirect: presentRedirect(redirect), target: redirect.target ?? '' };
    },
  }),
  route({
    method: 'POST',
    path: `${SITE}/redirects`,
    operation: write('RestCreateSiteRedirect', ', $input: JSON!', 'createSiteRedirect(organizationId: $org, siteId: $site, input: $input) { ...RestSiteRedirect }'),
    variables: (input) => ({ ...ids(input), input: body(input) }),
    status: 201,
    result: (data) => presentRedirect(data.result),
  }),
  route({
    method: 'PUT',
    path: `${SITE}/redirects`,
    operation: `mutation RestBulkUpsertSiteRedirects($org: ID!, $site: ID!, $redirects: [JSON!]!) {
      result: upsertSiteRedirects(organizationId: $org, siteId: $site, redirects: $redirects) { status source draft id error }
    }`,
    variables: (input) => {
      const { redirects, ...rest } = input.body;
      const extra = Object.keys(rest)[0];
      if (extra) throw badRequest(`Invalid value for "${extra}": not a field of this request`, extra);
      if (!Array.isArray(redirects)) throw badRequest('Invalid value for "redirects": an array of 1 to 500 redirects is required', 'redirects');
      return { ...ids(input), redirects };
    },
    result: (data) => ({ results: data.result.map(presentResult) }),
  }),
  route({
    method: 'PATCH',
    path: `${SITE}/redirects/{siteRedirectId}`,
    operation: write('RestUpdateSiteRedirect', ', $redirect: ID!, $input: JSON!', 'updateSiteRedirect(organizationId: $org, siteId: $site, redirectId: $redirect, input: $input) { ...RestSiteRedirect }'),
    variables: (input) => ({ ...ids(input), redirect: input.params.siteRedirectId, input: body(input) }),
    result: (data) => presentRedirect(data.result),
  }),
  route({
    method: 'DELETE',
    path: `${SITE}/redirects/{siteRedirectId}`,
    operation: `mutation RestDeleteSiteRedirect($org: ID!, $site: ID!, $redirect: ID!) { result: deleteSiteRedirect(organizationId: $org, siteId: $site, redirectId: $redirect) }`,
    variables: (input) => ({ ...ids(input), redirect: input.params.siteRedirectId }),
    // The public document: 205 when the redirect was deleted, 204 when it did not exist.
    status: (data) => (data.result ? 205 : 204),
  }),
];
