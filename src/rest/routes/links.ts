/**
 * Section 4.7 of the API description, links of change-request content: a page's links (items as
 * the public document's ContentReferenceUsage, with `stats`), and the backlinks of a page and of
 * a file (items as ContentLocation of kind `page`). `GET /spaces/{spaceId}/links` is in spaces.ts.
 */
import { notFound } from '../../lib/errors.js';
import { CONNECTION_FIELDS, listOf, pageArgs, route, type RestInput } from '../route.js';
import { nestPages, PAGE_FRAGMENT, presentPage } from '../present-change-requests.js';
import { ORGANIZATION_FRAGMENT, presentOrganization, presentSpace, SPACE_FRAGMENT, wireEnum } from '../present.js';

type Obj = Record<string, any>;

const CR = '/spaces/{spaceId}/change-requests/{changeRequestId}';

/** The space, and its organization: every location names both. */
const SPACE_FIELDS = '...RestSpace organization { ...RestOrganization }';
const FRAGMENTS = `${SPACE_FRAGMENT} ${ORGANIZATION_FRAGMENT} ${PAGE_FRAGMENT}`;

const listVariables = (input: RestInput, more: Record<string, string>) => ({ spaceId: input.params.spaceId, id: input.params.changeRequestId, ...more, ...pageArgs(input.query) });

/** A page record (its subtree nested) as a ContentLocation of kind `page`. */
function pageLocation(space: Obj, page: Obj) {
  return {
    kind: 'page',
    organization: presentOrganization(space.organization),
    space: presentSpace(space),
    page: presentPage({ ...page, pages: nestPages(page.descendants, page.id) }),
  };
}

/**
 * A link as a ContentReferenceUsage: found in the page (`locationReferences`), `target` the
 * ContentRef as written; `targetReference` for URLs (other targets' locations would need their
 * whole records).
 */
const presentUsage = (link: Obj, location: Obj) => ({
  status: wireEnum(link.status),
  relation: 'reference',
  target: link.target,
  ...(link.target?.kind === 'url' && typeof link.target.url === 'string' ? { targetReference: { kind: 'url', url: link.target.url } } : {}),
  locationReferences: [location],
});

/** `broken.changeRequest`: pages of change requests only (always, on these paths). */
const presentStats = (stats: Obj) => ({
  total: stats.total,
  broken: { total: stats.broken.total, ...(stats.broken.changeRequest !== null && stats.broken.changeRequest !== undefined ? { changeRequest: stats.broken.changeRequest } : {}) },
});

const BACKLINKS = `backlinks(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestPage } } }`;

export const linkRoutes = [
  route({
    method: 'GET',
    path: `${CR}/content/page/{pageId}/links`,
    operation: `query RestListChangeRequestPageLinks($spaceId: ID!, $id: ID!, $pageId: ID!, $first: Int, $after: String) {
      space(id: $spaceId) {
        ${SPACE_FIELDS}
        changeRequest(id: $id) { revision { page(id: $pageId) {
          ...RestPage
          links(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { status target } } stats { total broken { total changeRequest } } }
        } } }
      }
    } ${FRAGMENTS}`,
    variables: (input) => listVariables(input, { pageId: input.params.pageId }),
    result: (data) => {
      const page = data.space.changeRequest.revision.page;
      if (!page) throw notFound('Page');
      const location = pageLocation(data.space, page);
      return { ...listOf(page.links, (link: Obj) => presentUsage(link, location)), stats: presentStats(page.links.stats) };
    },
  }),
  route({
    method: 'GET',
    path: `${CR}/content/page/{pageId}/backlinks`,
    operation: `query RestListChangeRequestPageBacklinks($spaceId: ID!, $id: ID!, $pageId: ID!, $first: Int, $after: String) {
      space(id: $spaceId) {
        ${SPACE_FIELDS}
        changeRequest(id: $id) { revision { page(id: $pageId) { id ${BACKLINKS} } } }
      }
    } ${FRAGMENTS}`,
    variables: (input) => listVariables(input, { pageId: input.params.pageId }),
    result: (data) => {
      const page = data.space.changeRequest.revision.page;
      if (!page) throw notFound('Page');
      return listOf(page.backlinks, (linking: Obj) => pageLocation(data.space, linking));
    },
  }),
  route({
    method: 'GET',
    path: `${CR}/content/files/{fileId}/backlinks`,
    operation: `query RestListChangeRequestFileBacklinks($spaceId: ID!, $id: ID!, $fileId: ID!, $first: Int, $after: String) {
      space(id: $spaceId) {
        ${SPACE_FIELDS}
        changeRequest(id: $id) { revision { file(id: $fileId) { id ${BACKLINKS} } } }
      }
    } ${FRAGMENTS}`,
    variables: (input) => listVariables(input, { fileId: input.params.fileId }),
    result: (data) => {
      const file = data.space.changeRequest.revision.file;
      if (!file) throw notFound('File');
      return listOf(file.backlinks, (linking: Obj) => pageLocation(data.space, linking));
    },
  }),
];
