/**
 * Sites (the public document's `/orgs/{organizationId}/sites…`) and sections 4.4 (share links),
 * 4.9 (customization), 4.10 (sections) and 4.11 (site spaces) of the API description. Reads go
 * through `organization(id) { site(id) }`, writes name the organization, so another
 * organization's site is 404 on every path.
 */
import { badRequest } from '../../lib/errors.js';
import { MAX_PAGE_SIZE } from '../../domain/kernel/pagination/keyset.js';
import { EXTERNAL_LINK_FRAGMENT, SECTION_GROUP_FRAGMENT, SITE_SPACE_FRAGMENT, SITE_FRAGMENT, SITE_SECTION_FRAGMENT, SHARE_LINK_FRAGMENT, presentSectionGroup, presentShareLink, presentSite, presentSiteSection, presentSiteSpace, presentStructure } from '../present-sites.js';
import { booleanParam, CONNECTION_FIELDS, listOf, pageArgs, pick, route, stringParam, type RestInput } from '../route.js';
import { arrayPage } from '../list-page.js';
import { restPosition } from '../position.js';

export const SITES = '/orgs/{organizationId}/sites';
export const SITE = `${SITES}/{siteId}`;
export const ids = ({ params }: RestInput) => ({ org: params.organizationId, site: params.siteId });
// The public document: deletes answer 205 when something was removed.
const gone = () => 205;

/** `share-link` → the GraphQL enum's `share_link`. */
const visibility = (value: unknown) => (typeof value === 'string' ? value.replace(/-/g, '_') : value);

/** A read of one site through its organization. */
export const readSite = (name: string, selection: string, fragments: string) =>
  `query ${name}($org: ID!, $site: ID!) { organization(id: $org) { site(id: $site) { ${selection} } } } ${fragments}`;

/** A mutation on a site (`$org` checked by the mutation). */
export const writeSite = (name: string, vars: string, call: string, fragments = '') => `mutation ${name}($org: ID!, $site: ID!${vars}) { result: ${call} } ${fragments}`;

/**
 * A site's sections, section groups and root site spaces are connections in GraphQL; REST reads
 * each whole (`whole`: a site keeps them short) and pages it itself (arrayPage), so `site()`
 * turns every connection of the answer's site back into its array of nodes.
 */
const whole = (field: string, selection: string) => `${field}(first: ${MAX_PAGE_SIZE}) { edges { node { ${selection} } } }`;
const WHOLE = new Set(['sections', 'siteSpaces', 'sectionGroups', 'allSiteSpaces', 'rootSpaces']);
const nodesOf = (value: any) => (value && Array.isArray(value.edges) ? value.edges.map((e: { node: unknown }) => e.node) : value);
const site = (data: any) => Object.fromEntries(Object.entries(data.organization.site as Record<string, unknown>).map(([k, v]) => [k, WHOLE.has(k) ? nodesOf(v) : v])) as any;

/**
 * `shareKey` (4.10, 4.11): published URLs resolved for a share-link visitor, the key carried in
 * them. Only site viewers list sections and site spaces, so the key is theirs to pass on.
 */
function withShareKey<T extends { urls: { published?: string } }>(list: { items: T[] }, query: URLSearchParams) {
  const key = stringParam(query, 'shareKey', 200);
  if (!key) return list;
  const carry = (url?: string) => (url ? `${url}${url.includes('?') ? '&' : '?'}shareKey=${encodeURIComponent(key)}` : url);
  return { ...list, items: list.items.map((item) => ({ ...item, urls: { ...item.urls, published: carry(item.urls.published) } })) };
}

/** `SiteAdaptiveContent` of a PATCH: absent, null or `{ enabled: true }` (what every site here is). */
function adaptiveContent(value: unknown): void {
  if (value === undefined || value === null) return;
  const enabled = typeof value === 'object' && !Array.isArray(value) ? (value as { enabled?: unknown }).enabled : undefined;
  if (enabled === true && Object.keys(value as object).length === 1) return;
  if (enabled === false) throw badRequest('Invalid value for "adaptiveContent.enabled": this server always evaluates visitor conditions, adaptive content cannot be turned off', 'adaptiveContent.enabled');
  throw badRequest('Invalid value for "adaptiveContent": must be { "enabled": true }', 'adaptiveContent');
}

export const siteRoutes = [
  route({
    method: 'GET',
    path: SITES,
    operation: `query RestListSites($org: ID!, $first: Int, $after: String) {
      organization(id: $org) { sites(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestSite } } } }
    } ${SITE_FRAGMENT}`,
    variables: ({ params, query }) => ({ org: params.organizationId, ...pageArgs(query) }),
    result: (data) => listOf(data.organization.sites, presentSite),
  }),
  route({
    method: 'POST',
    path: SITES,
    operation: `mutation RestCreateSite($org: ID!, $input: CreateSiteInput) { result: createSite(organizationId: $org, input: $input) { ...RestSite } } ${SITE_FRAGMENT}`,
    variables: ({ params, body }) => {
      const input = pick(body, ['title', 'visibility', 'type', 'spaces'], ['spaces']);
      return { org: params.organizationId, input: { ...input, ...('visibility' in input ? { visibility: visibility(input.visibility) } : {}) } };
    },
    status: 201,
    result: (data) => presentSite(data.result),
  }),
  route({
    method: 'GET',
    path: SITE,
    operation: readSite('RestGetSite', '...RestSite', SITE_FRAGMENT),
    variables: ids,
    result: (data) => presentSite(site(data)),
  }),
  route({
    method: 'PATCH',
    path: SITE,
    operation: writeSite('RestUpdateSite', ', $input: UpdateSiteInput!', 'updateSite(organizationId: $org, siteId: $site, input: $input) { ...RestSite }', SITE_FRAGMENT),
    variables: (input) => {
      // `proxy` (serving the site under another origin's path) and `styleguide` are refused with a
      // 400 naming them; `null` (remove the proxy, detach the style guide) is accepted: there is none
      // to remove. Visitor conditions are always evaluated here (every site is adaptive, see
      // docs/published-sites.md): `adaptiveContent: { enabled: true }` changes nothing, `false` is refused.
      adaptiveContent(input.body.adaptiveContent);
      const fields = pick(input.body, ['title', 'visibility', 'basename', 'hostname', 'defaultLevel', 'defaultSiteSpace', 'defaultSiteSection'], [], ['proxy', 'styleguide']);
      return { ...ids(input), input: { ...fields, ...('visibility' in fields ? { visibility: visibility(fields.visibility) } : {}) } };
    },
    result: (data) => presentSite(data.result),
  }),
  route({
    method: 'DELETE',
    path: SITE,
    operation: writeSite('RestDeleteSite', '', 'deleteSite(organizationId: $org, siteId: $site)'),
    variables: ids,
    status: gone,
  }),
  ...(['publish', 'unpublish'] as const).map((verb) =>
    route({
      method: 'POST',
      path: `${SITE}/${verb}`,
      operation: writeSite(`Rest${verb[0].toUpperCase()}${verb.slice(1)}Site`, '', `${verb}Site(organizationId: $org, siteId: $site) { ...RestSite }`, SITE_FRAGMENT),
      variables: ids,
      result: (data) => presentSite(data.result),
    }),
  ),
  route({
    method: 'GET',
    path: `${SITE}/structure`,
    operation: readSite('RestGetSiteStructure', `${whole('sections', '...RestSiteSection')} ${whole('siteSpaces', '...RestSiteSpace')} externalLinks { ...RestSiteExternalLink }`, `${SITE_SECTION_FRAGMENT} ${SITE_SPACE_FRAGMENT} ${EXTERNAL_LINK_FRAGMENT}`),
    variables: ids,
    result: (data) => presentStructure(site(data)),
  }),
  route({
    method: 'GET',
    path: `${SITE}/published`,
    operation: readSite(
      'RestGetPublishedSite',
      `...RestSite customization ${whole('sections', '...RestSiteSection')} ${whole('siteSpaces', '...RestSiteSpace')} ${whole('allSiteSpaces: sections', 'siteSpaces { id customization }')} ${whole('rootSpaces: siteSpaces', 'id customization')} externalLinks { ...RestSiteExternalLink }`,
      `${SITE_FRAGMENT} ${SITE_SECTION_FRAGMENT} ${SITE_SPACE_FRAGMENT} ${EXTERNAL_LINK_FRAGMENT}`,
    ),
    variables: ids,
    result: (data) => {
      const s = site(data);
      const spaces = [...s.rootSpaces, ...s.allSiteSpaces.flatMap((section: { siteSpaces: unknown[] }) => section.siteSpaces)] as { id: string; customization: unknown }[];
      return {
        object: 'published-content-site',
        site: presentSite(s),
        structure: presentStructure(s, true),
        customizations: { site: s.customization, siteSpaces: Object.fromEntries(spaces.map((ss) => [ss.id, ss.customization])) },
        scripts: [],
      };
    },
  }),

  // 4.9 customization
  route({
    method: 'GET',
    path: `${SITE}/customization`,
    operation: readSite('RestGetSiteCustomization', 'customization', ''),
    variables: (input) => (booleanParam(input.query, 'unmasked'), ids(input)),
    result: (data) => site(data).customization,
  }),
  route({
    method: 'PUT',
    path: `${SITE}/customization`,
    operation: writeSite('RestPutSiteCustomization', ', $customization: JSON!', 'updateSiteCustomization(organizationId: $org, siteId: $site, customization: $customization)'),
    variables: (input) => ({ ...ids(input), customization: input.body }),
    result: (data) => data.result,
  }),
  route({
    method: 'GET',
    path: `${SITE}/site-spaces/{siteSpaceId}/customization`,
    operation: `query RestGetSiteSpaceCustomization($org: ID!, $site: ID!, $siteSpace: ID!) { organization(id: $org) { site(id: $site) { siteSpace(id: $siteSpace) { customization } } } }`,
    variables: (input) => (booleanParam(input.query, 'unmasked'), { ...ids(input), siteSpace: input.params.siteSpaceId }),
    result: (data) => site(data).siteSpace.customization,
  }),
  route({
    method: 'PATCH',
    path: `${SITE}/site-spaces/{siteSpaceId}/customization`,
    operation: writeSite('RestPatchSiteSpaceCustomization', ', $siteSpace: ID!, $override: JSON!', 'updateSiteSpaceCustomization(organizationId: $org, siteId: $site, siteSpaceId: $siteSpace, override: $override)'),
    variables: (input) => ({ ...ids(input), siteSpace: input.params.siteSpaceId, override: input.body }),
    result: (data) => data.result,
  }),
  route({
    method: 'DELETE',
    path: `${SITE}/site-spaces/{siteSpaceId}/customization`,
    operation: writeSite('RestDeleteSiteSpaceCustomization', ', $siteSpace: ID!', 'deleteSiteSpaceCustomization(organizationId: $org, siteId: $site, siteSpaceId: $siteSpace)'),
    variables: (input) => ({ ...ids(input), siteSpace: input.params.siteSpaceId }),
    status: gone,
  }),

  // 4.4 share links
  route({
    method: 'GET',
    path: `${SITE}/share-links`,
    operation: readSite('RestListShareLinks', `shareLinks(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestShareLink } } }`, SHARE_LINK_FRAGMENT).replace('$site: ID!)', '$site: ID!, $first: Int, $after: String)'),
    variables: (input) => ({ ...ids(input), ...pageArgs(input.query) }),
    result: (data) => listOf(site(data).shareLinks, presentShareLink),
  }),
  route({
    method: 'POST',
    path: `${SITE}/share-links`,
    operation: writeSite('RestCreateShareLink', ', $name: String!', 'createSiteShareLink(organizationId: $org, siteId: $site, name: $name) { ...RestShareLink }', SHARE_LINK_FRAGMENT),
    variables: (input) => {
      if (typeof input.body.name !== 'string') throw badRequest('Invalid value for "name": a string of 1 to 50 characters is required', 'name');
      return { ...ids(input), name: input.body.name };
    },
    status: 201,
    result: (data) => presentShareLink(data.result),
  }),
  route({
    method: 'PATCH',
    path: `${SITE}/share-links/{shareLinkId}`,
    operation: writeSite('RestUpdateShareLink', ', $link: ID!, $name: String, $active: Boolean', 'updateSiteShareLink(organizationId: $org, siteId: $site, shareLinkId: $link, name: $name, active: $active) { ...RestShareLink }', SHARE_LINK_FRAGMENT),
    variables: (input) => ({ ...ids(input), link: input.params.shareLinkId, ...pick(input.body, ['name', 'active']) }),
    result: (data) => presentShareLink(data.result),
  }),
  route({
    method: 'DELETE',
    path: `${SITE}/share-links/{shareLinkId}`,
    operation: writeSite('RestDeleteShareLink', ', $link: ID!', 'deleteSiteShareLink(organizationId: $org, siteId: $site, shareLinkId: $link)'),
    variables: (input) => ({ ...ids(input), link: input.params.shareLinkId }),
    status: gone,
  }),

  // 4.10 sections
  route({
    method: 'GET',
    path: `${SITE}/sections`,
    operation: readSite('RestListSiteSections', whole('sections', '...RestSiteSection'), `${SITE_SECTION_FRAGMENT} ${SITE_SPACE_FRAGMENT}`),
    variables: (input) => (stringParam(input.query, 'shareKey'), ids(input)),
    result: (data, input) => withShareKey(arrayPage(site(data).sections, input.query, presentSiteSection), input.query),
  }),
  route({
    method: 'POST',
    path: `${SITE}/sections`,
    operation: writeSite('RestAddSiteSection', ', $spaceId: ID!, $title: String', 'addSiteSection(organizationId: $org, siteId: $site, spaceId: $spaceId, title: $title) { ...RestSiteSection }', `${SITE_SECTION_FRAGMENT} ${SITE_SPACE_FRAGMENT}`),
    variables: (input) => {
      if (input.body.draft === true) throw badRequest('Invalid value for "draft": this server publishes sections live only', 'draft');
      if (typeof input.body.spaceId !== 'string') throw badRequest('Invalid value for "spaceId": the ID of an existing space is required (this server does not create one)', 'spaceId');
      return { ...ids(input), spaceId: input.body.spaceId, title: input.body.title ?? null };
    },
    status: 201,
    result: (data) => presentSiteSection(data.result),
  }),
  route({
    method: 'PATCH',
    path: `${SITE}/sections/{siteSectionId}`,
    operation: writeSite('RestUpdateSiteSection', ', $section: ID!, $input: UpdateSiteSectionInput!', 'updateSiteSection(organizationId: $org, siteId: $site, sectionId: $section, input: $input) { ...RestSiteSection }', `${SITE_SECTION_FRAGMENT} ${SITE_SPACE_FRAGMENT}`),
    variables: (input) => ({ ...ids(input), section: input.params.siteSectionId, input: pick(input.body, ['title', 'path', 'defaultSiteSpace', 'condition', 'icon', 'description']) }),
    result: (data) => presentSiteSection(data.result),
  }),
  route({
    method: 'DELETE',
    path: `${SITE}/sections/{siteSectionId}`,
    operation: writeSite('RestDeleteSiteSection', ', $section: ID!', 'deleteSiteSection(organizationId: $org, siteId: $site, sectionId: $section)'),
    variables: (input) => ({ ...ids(input), section: input.params.siteSectionId }),
    status: gone,
  }),
  route({
    method: 'POST',
    path: `${SITE}/sections/{siteSectionId}/move`,
    operation: writeSite('RestMoveSiteSection', ', $section: ID!, $position: PositionInput', 'moveSiteSection(organizationId: $org, siteId: $site, sectionId: $section, position: $position) { ...RestSiteSection }', `${SITE_SECTION_FRAGMENT} ${SITE_SPACE_FRAGMENT}`),
    variables: (input) => ({ ...ids(input), section: input.params.siteSectionId, position: restPosition(input.body.position, ['siteSection']) }),
    result: (data) => presentSiteSection(data.result),
  }),

  // Section groups (the public document)
  route({
    method: 'GET',
    path: `${SITE}/section-groups`,
    operation: readSite('RestListSectionGroups', whole('sectionGroups', '...RestSectionGroup'), `${SECTION_GROUP_FRAGMENT} ${SITE_SECTION_FRAGMENT} ${SITE_SPACE_FRAGMENT}`),
    variables: ids,
    result: (data, input) => arrayPage(site(data).sectionGroups, input.query, presentSectionGroup),
  }),
  route({
    method: 'POST',
    path: `${SITE}/section-groups`,
    operation: writeSite('RestCreateSectionGroup', ', $title: String!, $icon: String, $sections: [ID!]', 'createSiteSectionGroup(organizationId: $org, siteId: $site, title: $title, icon: $icon, sections: $sections) { ...RestSectionGroup }', `${SECTION_GROUP_FRAGMENT} ${SITE_SECTION_FRAGMENT} ${SITE_SPACE_FRAGMENT}`),
    variables: (input) => {
      if (input.body.parent != null) throw badRequest('Invalid value for "parent": section groups do not nest on this server', 'parent');
      if (typeof input.body.title !== 'string') throw badRequest('Invalid value for "title": a string of 1 to 100 characters is required', 'title');
      return { ...ids(input), title: input.body.title, icon: input.body.icon ?? null, ...pick(input.body, ['sections'], ['sections']) };
    },
    status: 201,
    result: (data) => presentSectionGroup(data.result),
  }),
  route({
    method: 'PATCH',
    path: `${SITE}/section-groups/{siteSectionGroupId}`,
    operation: writeSite('RestUpdateSectionGroup', ', $group: ID!, $title: String, $icon: String', 'updateSiteSectionGroup(organizationId: $org, siteId: $site, groupId: $group, title: $title, icon: $icon) { ...RestSectionGroup }', `${SECTION_GROUP_FRAGMENT} ${SITE_SECTION_FRAGMENT} ${SITE_SPACE_FRAGMENT}`),
    variables: (input) => {
      if (input.body.parentSectionGroupId != null) throw badRequest('Invalid value for "parentSectionGroupId": section groups do not nest on this server', 'parentSectionGroupId');
      return { ...ids(input), group: input.params.siteSectionGroupId, ...pick(input.body, ['title', 'icon']) };
    },
    result: (data) => presentSectionGroup(data.result),
  }),
  route({
    method: 'DELETE',
    path: `${SITE}/section-groups/{siteSectionGroupId}`,
    operation: writeSite('RestDeleteSectionGroup', ', $group: ID!', 'deleteSiteSectionGroup(organizationId: $org, siteId: $site, groupId: $group)'),
    variables: (input) => ({ ...ids(input), group: input.params.siteSectionGroupId }),
    status: gone,
  }),
  route({
    method: 'POST',
    path: `${SITE}/section-groups/{siteSectionGroupId}/move`,
    operation: writeSite('RestMoveSectionGroup', ', $group: ID!, $position: PositionInput', 'moveSiteSectionGroup(organizationId: $org, siteId: $site, groupId: $group, position: $position) { ...RestSectionGroup }', `${SECTION_GROUP_FRAGMENT} ${SITE_SECTION_FRAGMENT} ${SITE_SPACE_FRAGMENT}`),
    variables: (input) => ({ ...ids(input), group: input.params.siteSectionGroupId, position: restPosition(input.body.position, ['siteSectionGroup']) }),
    result: (data) => presentSectionGroup(data.result),
  }),

  // 4.11 site spaces
  route({
    method: 'GET',
    path: `${SITE}/site-spaces`,
    operation: readSite('RestListSiteSpaces', `${whole('siteSpaces', '...RestSiteSpace')} ${whole('sections', 'siteSpaces { ...RestSiteSpace }')}`, SITE_SPACE_FRAGMENT),
    variables: (input) => (stringParam(input.query, 'shareKey'), booleanParam(input.query, 'default'), ids(input)),
    result: (data, input) => {
      const s = site(data);
      const all = [...s.siteSpaces, ...s.sections.flatMap((section: { siteSpaces: unknown[] }) => section.siteSpaces)] as { default: boolean }[];
      const only = booleanParam(input.query, 'default');
      return withShareKey(arrayPage(only === undefined ? all : all.filter((ss) => ss.default === only), input.query, presentSiteSpace), input.query);
    },
  }),
  route({
    method: 'POST',
    path: `${SITE}/site-spaces`,
    operation: writeSite('RestAddSiteSpace', ', $spaceId: ID!, $sectionId: ID', 'addSiteSpace(organizationId: $org, siteId: $site, spaceId: $spaceId, sectionId: $sectionId) { ...RestSiteSpace }', SITE_SPACE_FRAGMENT),
    variables: (input) => {
      if (input.body.draft === true) throw badRequest('Invalid value for "draft": this server publishes site spaces live only', 'draft');
      if (typeof input.body.spaceId !== 'string') throw badRequest('Invalid value for "spaceId": the ID of an existing space is required (this server does not create one)', 'spaceId');
      return { ...ids(input), spaceId: input.body.spaceId, sectionId: input.body.sectionId ?? null };
    },
    status: 201,
    result: (data) => presentSiteSpace(data.result),
  }),
  route({
    method: 'PATCH',
    path: `${SITE}/site-spaces/{siteSpaceId}`,
    operation: writeSite('RestUpdateSiteSpace', ', $siteSpace: ID!, $input: UpdateSiteSpaceInput!', 'updateSiteSpace(organizationId: $org, siteId: $site, siteSpaceId: $siteSpace, input: $input) { ...RestSiteSpace }', SITE_SPACE_FRAGMENT),
    variables: (input) => ({ ...ids(input), siteSpace: input.params.siteSpaceId, input: pick(input.body, ['path', 'condition']) }),
    result: (data) => presentSiteSpace(data.result),
  }),
  route({
    method: 'DELETE',
    path: `${SITE}/site-spaces/{siteSpaceId}`,
    operation: writeSite('RestDeleteSiteSpace', ', $siteSpace: ID!', 'deleteSiteSpace(organizationId: $org, siteId: $site, siteSpaceId: $siteSpace)'),
    variables: (input) => ({ ...ids(input), siteSpace: input.params.siteSpaceId }),
    status: gone,
  }),
  route({
    method: 'POST',
    path: `${SITE}/site-spaces/{siteSpaceId}/move`,
    operation: writeSite('RestMoveSiteSpace', ', $siteSpace: ID!, $position: PositionInput', 'moveSiteSpace(organizationId: $org, siteId: $site, siteSpaceId: $siteSpace, position: $position) { ...RestSiteSpace }', SITE_SPACE_FRAGMENT),
    variables: (input) => ({ ...ids(input), siteSpace: input.params.siteSpaceId, position: restPosition(input.body.position, ['siteSpace']) }),
    result: (data) => presentSiteSpace(data.result),
  }),
];
