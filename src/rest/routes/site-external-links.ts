/**
 * External links of a site's navigation (the public document's `site-external-links` tag): add,
 * update, delete. They are read in the site's structure (`GET …/structure`, `…/published`, section
 * groups' `children`). Writes name the organization, so another organization's site is 404.
 */
import { EXTERNAL_LINK_FRAGMENT, presentExternalLink } from '../present-sites.js';
import { returnPreference, route, type RestInput } from '../route.js';

const SITE = '/orgs/{organizationId}/sites/{siteId}';
const ids = ({ params }: RestInput) => ({ org: params.organizationId, site: params.siteId });

export const siteExternalLinkRoutes = [
  route({
    method: 'POST',
    path: `${SITE}/external-links`,
    operation: `mutation RestAddSiteExternalLink($org: ID!, $site: ID!, $input: JSON!) { result: addSiteExternalLink(organizationId: $org, siteId: $site, input: $input) { ...RestSiteExternalLink urls { location } } } ${EXTERNAL_LINK_FRAGMENT}`,
    variables: (input) => ({ ...ids(input), input: input.body }),
    status: 201,
    headers: (data) => ({ location: data.result.urls.location }),
    result: (data) => presentExternalLink(data.result),
  }),
  route({
    method: 'PATCH',
    path: `${SITE}/external-links/{siteExternalLinkId}`,
    operation: `mutation RestUpdateSiteExternalLink($org: ID!, $site: ID!, $link: ID!, $input: JSON!) { result: updateSiteExternalLink(organizationId: $org, siteId: $site, linkId: $link, input: $input) { ...RestSiteExternalLink } } ${EXTERNAL_LINK_FRAGMENT}`,
    variables: (input) => ({ ...ids(input), link: input.params.siteExternalLinkId, input: input.body }),
    ...returnPreference(200),
    result: (data) => presentExternalLink(data.result),
  }),
  route({
    method: 'DELETE',
    path: `${SITE}/external-links/{siteExternalLinkId}`,
    operation: `mutation RestDeleteSiteExternalLink($org: ID!, $site: ID!, $link: ID!) { result: deleteSiteExternalLink(organizationId: $org, siteId: $site, linkId: $link) }`,
    variables: (input) => ({ ...ids(input), link: input.params.siteExternalLinkId }),
    // The public document: 205 when the link was deleted, 204 when it did not exist.
    status: (data) => (data.result ? 205 : 204),
  }),
];
