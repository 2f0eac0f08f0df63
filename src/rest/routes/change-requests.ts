/** Sections 4.6 and 4.7 of the API description: change requests and their content. */
import { badRequest, notFound } from '../../lib/errors.js';
import { CHANGE_REQUEST_ORDERS } from '../../domain/versions/change-requests/rows.js';
import { booleanParam, CONNECTION_FIELDS, enumParam, listOf, pageArgs, pick, route, stringParam, type RestInput } from '../route.js';
import {
  CHANGE_REQUEST_FRAGMENT,
  FILE_FRAGMENT,
  nestPages,
  PAGE_FRAGMENT,
  PAGE_LIST_FRAGMENT,
  presentChangeRequest,
  presentFile,
  presentPage,
  presentReusableContent,
  presentRevision,
  REUSABLE_CONTENT_FRAGMENT,
  REVISION_FRAGMENT,
} from '../present-change-requests.js';
import { pageFormat } from '../present-revision-content.js';

const STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
const CR = '/spaces/{spaceId}/change-requests/{changeRequestId}';

const ids = ({ params }: RestInput) => ({ spaceId: params.spaceId, id: params.changeRequestId });
const changeRequest = (data: { changeRequest: unknown }) => presentChangeRequest(data.changeRequest as never);

/** `metadata` and `computed` (documented on every content read): accepted, validated; this server keeps no git metadata or computed content to leave out. */
function contentFlags(query: URLSearchParams) {
  booleanParam(query, 'metadata');
  booleanParam(query, 'computed');
}

/** `format`: the body as a JSON document (default) or as markdown. */
function format(query: URLSearchParams) {
  contentFlags(query);
  return enumParam(query, 'format', ['document', 'markdown'] as const) ?? 'document';
}

/**
 * The variables of a page read: which body, and (`format.markdown.refs`) how markdown writes its
 * links; the flags of the content reads (`evaluated`, `dereferenced`, `cachedMetadata`…) checked
 * as on the space's own content.
 */
function bodyVariables(query: URLSearchParams) {
  const { format: wanted, refs } = pageFormat(query);
  return { document: wanted === 'document', markdown: wanted === 'markdown', refs };
}

type PageOutcome = { object: string; page: string; ref: string | null };

/**
 * The batch's outcomes as the documented `changes`: one entry per page (files apart), in the order
 * pages were first touched. A page created then updated is `created_page`; updated then deleted,
 * `deleted_page`; created then deleted in the same batch, not listed (nothing of it remains).
 */
function affectedPages(outcomes: PageOutcome[]): PageOutcome[] {
  const byPage = new Map<string, PageOutcome>();
  for (const outcome of outcomes) {
    if (outcome.object === 'created_file') continue;
    const first = byPage.get(outcome.page);
    if (!first) byPage.set(outcome.page, outcome);
    else if (outcome.object === 'deleted_page') {
      if (first.object === 'created_page') byPage.set(outcome.page, { ...first, object: 'dropped' });
      else byPage.set(outcome.page, outcome);
    }
  }
  return [...byPage.values()].filter((o) => o.object !== 'dropped');
}

const pageFields = (withBody: string) => `...RestPage ${withBody}`;

/** A page record with its subtree and the body in the asked format. */
function presentPageRecord(page: any, input: RestInput) {
  if (!page) return undefined;
  const nested = { ...page, pages: nestPages(page.descendants, page.id) };
  return format(input.query) === 'markdown' ? presentPage(nested, { markdown: page.markdown ?? '' }) : presentPage(nested, { document: page.document ?? undefined });
}

export const changeRequestRoutes = [
  route({
    method: 'GET',
    path: '/spaces/{spaceId}/change-requests',
    operation: `query RestListChangeRequests($id: ID!, $first: Int, $after: String, $status: ChangeRequestStatus, $contributor: ID, $creator: ID, $requestedReviewer: ID, $orderBy: ChangeRequestOrderBy) {
      space(id: $id) {
        changeRequests(first: $first, after: $after, status: $status, contributor: $contributor, creator: $creator, requestedReviewer: $requestedReviewer, orderBy: $orderBy) {
          ${CONNECTION_FIELDS} edges { node { ...RestChangeRequest } }
        }
      }
    } ${CHANGE_REQUEST_FRAGMENT}`,
    variables: ({ params, query }) => {
      // Sites have no topics here: a list "linked to this site topic" cannot be answered.
      if (query.has('topic')) throw badRequest('topic: this server has no site topics to filter change requests by');
      return {
        id: params.spaceId,
        ...pageArgs(query),
        status: enumParam(query, 'status', STATUSES),
        contributor: stringParam(query, 'contributor', 64) || undefined,
        creator: stringParam(query, 'creator', 64) || undefined,
        requestedReviewer: stringParam(query, 'requestedReviewer', 64) || undefined,
        // The public document's default order is by last update.
        orderBy: enumParam(query, 'orderBy', CHANGE_REQUEST_ORDERS) ?? 'updatedAt',
      };
    },
    result: (data) => listOf(data.space.changeRequests, presentChangeRequest),
  }),
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/change-requests',
    operation: `query RestListOrganizationChangeRequests($org: ID!, $first: Int, $after: String, $status: [ChangeRequestStatus!], $contributor: ID, $creator: ID, $requestedReviewer: ID, $space: ID, $site: ID, $orderBy: ChangeRequestOrderBy) {
      organization(id: $org) {
        changeRequests(first: $first, after: $after, status: $status, contributor: $contributor, creator: $creator, requestedReviewer: $requestedReviewer, space: $space, site: $site, orderBy: $orderBy) {
          ${CONNECTION_FIELDS} edges { node { ...RestChangeRequest } }
        }
      }
    } ${CHANGE_REQUEST_FRAGMENT}`,
    variables: ({ params, query }) => {
      if (query.has('topic')) throw badRequest('topic: this server has no site topics to filter change requests by', 'topic');
      if (query.has('styleguideRun')) throw badRequest('styleguideRun: this server runs no style guide checks', 'styleguideRun');
      enumParam(query, 'finding', ['none', 'all'] as const); // no triage here: either way, every change request
      const statuses = query.getAll('status').flatMap((value) => value.split(',')).filter(Boolean);
      for (const status of statuses) {
        if (!(STATUSES as readonly string[]).includes(status)) throw badRequest(`Invalid value for "status": must be one of ${STATUSES.join(', ')}`, 'status');
      }
      return {
        org: params.organizationId,
        ...pageArgs(query),
        status: statuses.length ? statuses : undefined,
        contributor: stringParam(query, 'contributor', 64) || undefined,
        creator: stringParam(query, 'creator', 64) || undefined,
        requestedReviewer: stringParam(query, 'requestedReviewer', 64) || undefined,
        space: stringParam(query, 'space', 64) || undefined,
        site: stringParam(query, 'site', 64) || undefined,
        orderBy: enumParam(query, 'orderBy', CHANGE_REQUEST_ORDERS) ?? 'updatedAt',
      };
    },
    result: (data) => listOf(data.organization.changeRequests, presentChangeRequest),
  }),
  route({
    method: 'POST',
    path: '/spaces/{spaceId}/change-requests',
    operation: `mutation RestCreateChangeRequest($spaceId: ID!, $subject: String) {
      changeRequest: createChangeRequest(spaceId: $spaceId, subject: $subject) { ...RestChangeRequest }
    } ${CHANGE_REQUEST_FRAGMENT}`,
    variables: ({ params, body }) => ({ spaceId: params.spaceId, ...pick(body, ['subject'], [], ['template']) }),
    result: changeRequest,
    status: 201,
  }),
  route({
    method: 'GET',
    path: CR,
    operation: `query RestGetChangeRequest($spaceId: ID!, $id: ID!) {
      space(id: $spaceId) { changeRequest(id: $id) { ...RestChangeRequest } }
    } ${CHANGE_REQUEST_FRAGMENT}`,
    variables: (input) => ({ spaceId: input.params.spaceId, id: input.params.changeRequestId }),
    result: (data) => presentChangeRequest(data.space.changeRequest),
  }),
  route({
    method: 'PATCH',
    path: CR,
    operation: `mutation RestUpdateChangeRequest($spaceId: ID!, $id: ID!, $input: UpdateChangeRequestInput!) {
      changeRequest: updateChangeRequest(spaceId: $spaceId, id: $id, input: $input) { ...RestChangeRequest }
    } ${CHANGE_REQUEST_FRAGMENT}`,
    variables: (input) => ({ ...ids(input), input: pick(input.body, ['subject', 'status'], [], ['description', 'links']) }),
    result: changeRequest,
  }),
  route({
    method: 'POST',
    path: `${CR}/merge`,
    operation: `mutation RestMergeChangeRequest($spaceId: ID!, $id: ID!) { outcome: mergeChangeRequest(spaceId: $spaceId, id: $id) { revision result } }`,
    variables: ids,
    result: (data) => data.outcome,
  }),
  route({
    method: 'POST',
    path: `${CR}/update`,
    operation: `mutation RestUpdateChangeRequestFromSpace($spaceId: ID!, $id: ID!) { outcome: updateChangeRequestFromSpace(spaceId: $spaceId, id: $id) { revision result } }`,
    variables: ids,
    result: (data) => data.outcome,
  }),
  route({
    method: 'GET',
    path: `${CR}/content`,
    operation: `query RestGetChangeRequestRevision($spaceId: ID!, $id: ID!) {
      space(id: $spaceId) { changeRequest(id: $id) { revision { ...RestRevision } } }
    } ${REVISION_FRAGMENT}`,
    variables: (input) => (contentFlags(input.query), ids(input)),
    result: (data) => presentRevision(data.space.changeRequest.revision),
  }),
  route({
    method: 'POST',
    path: `${CR}/content`,
    operation: `mutation RestUpdateChangeRequestContent($spaceId: ID!, $id: ID!, $changes: [PageChangeInput!]!) {
      result: updateChangeRequestContent(spaceId: $spaceId, id: $id, changes: $changes) {
        changeRequest { ...RestChangeRequest } changes { object page ref } insertedFiles { ...RestFile }
      }
    } ${CHANGE_REQUEST_FRAGMENT} ${FILE_FRAGMENT}`,
    variables: (input) => {
      booleanParam(input.query, 'compat');
      if (!Array.isArray(input.body.changes)) throw badRequest('Invalid value for "changes": must be an array of 1 to 50 changes', 'changes');
      return { ...ids(input), changes: input.body.changes };
    },
    result: (data, input) => {
      const changeRequest = presentChangeRequest(data.result.changeRequest);
      if (booleanParam(input.query, 'compat') !== false) return changeRequest;
      const location = (page: string) => `${changeRequest.urls.location}/content/page/${page}`;
      const pages = affectedPages(data.result.changes);
      return {
        changeRequest,
        changes: pages.map((c: { object: string; page: string; ref: string | null }) =>
          c.object === 'deleted_page' ? { object: c.object, page: c.page } : { object: c.object, ...(c.ref ? { ref: c.ref } : {}), page: { object: 'page', id: c.page, urls: { location: location(c.page) } } },
        ),
        ...(data.result.insertedFiles.length ? { insertedFiles: data.result.insertedFiles.map(presentFile) } : {}),
      };
    },
  }),
  route({
    method: 'GET',
    path: `${CR}/content/pages`,
    operation: `query RestListChangeRequestPages($spaceId: ID!, $id: ID!) {
      space(id: $spaceId) { changeRequest(id: $id) { revision { allPages { ...RestPageItem } } } }
    } ${PAGE_LIST_FRAGMENT}`,
    variables: (input) => (contentFlags(input.query), ids(input)),
    result: (data) => ({ pages: nestPages(data.space.changeRequest.revision.allPages, null).map((p) => presentPage(p)) }),
  }),
  route({
    method: 'GET',
    path: `${CR}/content/page/{pageId}`,
    operation: `query RestGetChangeRequestPage($spaceId: ID!, $id: ID!, $pageId: ID!, $document: Boolean!, $markdown: Boolean!, $refs: MarkdownRefs!) {
      space(id: $spaceId) { changeRequest(id: $id) { revision { page(id: $pageId) { ${pageFields('document @include(if: $document) markdown(refs: $refs) @include(if: $markdown)')} } } } }
    } ${PAGE_FRAGMENT}`,
    variables: (input) => ({ ...ids(input), pageId: input.params.pageId, ...bodyVariables(input.query) }),
    result: (data, input) => presentPageRecord(data.space.changeRequest.revision.page, input) ?? notFoundPage(),
  }),
  route({
    method: 'GET',
    path: `${CR}/content/page/{pageId}/meta-links`,
    operation: `query RestGetChangeRequestPageMetaLinks($spaceId: ID!, $id: ID!, $pageId: ID!) {
      space(id: $spaceId) { changeRequest(id: $id) { revision { page(id: $pageId) { id } } } }
    }`,
    variables: (input) => ({ ...ids(input), pageId: input.params.pageId }),
    // As for the space's content (space-content.ts): pages hold no canonical or alternate links here.
    result: (data) => (data.space.changeRequest.revision.page ? { alternates: [] } : notFoundPage()),
  }),
  route({
    method: 'GET',
    path: `${CR}/content/path/{pagePath}`,
    operation: `query RestGetChangeRequestPageByPath($spaceId: ID!, $id: ID!, $path: String!, $document: Boolean!, $markdown: Boolean!, $refs: MarkdownRefs!) {
      space(id: $spaceId) { changeRequest(id: $id) { revision { page: pageByPath(path: $path) { ${pageFields('document @include(if: $document) markdown(refs: $refs) @include(if: $markdown)')} } } } }
    } ${PAGE_FRAGMENT}`,
    variables: (input) => ({ ...ids(input), path: input.params.pagePath, ...bodyVariables(input.query) }),
    result: (data, input) => presentPageRecord(data.space.changeRequest.revision.page, input) ?? notFoundPage(),
  }),
];

function notFoundPage(): never {
  throw notFound('Page');
}

/** Files and reusable contents of a change request (4.7), and what it changes. */
export const changeRequestEntityRoutes = [
  route({
    method: 'GET',
    path: `${CR}/changes`,
    operation: `query RestListChangeRequestChanges($spaceId: ID!, $id: ID!, $limit: Int) {
      space(id: $spaceId) { changeRequest(id: $id) { changes(limit: $limit) { changes more } } }
    }`,
    variables: (input) => {
      const limit = input.query.get('limit');
      const n = limit === null || limit === '' ? undefined : Number(limit);
      if (n !== undefined && (!Number.isInteger(n) || n < 0 || n > 1000)) throw badRequest('Invalid value for "limit": must be an integer between 0 and 1000', 'limit');
      return { ...ids(input), limit: n };
    },
    result: (data) => {
      const { changes, more } = data.space.changeRequest.changes;
      return { changes, ...(more != null ? { more } : {}) };
    },
  }),
  route({
    method: 'GET',
    path: `${CR}/content/files`,
    operation: `query RestListChangeRequestFiles($spaceId: ID!, $id: ID!, $first: Int, $after: String) {
      space(id: $spaceId) { changeRequest(id: $id) { revision { files(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestFile } } } } } }
    } ${FILE_FRAGMENT}`,
    variables: (input) => (contentFlags(input.query), { ...ids(input), ...pageArgs(input.query) }),
    result: (data) => listOf(data.space.changeRequest.revision.files, presentFile),
  }),
  route({
    method: 'GET',
    path: `${CR}/content/files/{fileId}`,
    operation: `query RestGetChangeRequestFile($spaceId: ID!, $id: ID!, $fileId: ID!) {
      space(id: $spaceId) { changeRequest(id: $id) { revision { file(id: $fileId) { ...RestFile } } } }
    } ${FILE_FRAGMENT}`,
    variables: (input) => (contentFlags(input.query), { ...ids(input), fileId: input.params.fileId }),
    result: (data) => {
      const file = data.space.changeRequest.revision.file;
      if (!file) throw notFound('File');
      return presentFile(file);
    },
  }),
  route({
    method: 'GET',
    path: `${CR}/content/reusable-contents/{reusableContentId}`,
    operation: `query RestGetChangeRequestReusableContent($spaceId: ID!, $id: ID!, $contentId: ID!) {
      space(id: $spaceId) { changeRequest(id: $id) { revision { reusableContent(id: $contentId) { ...RestReusableContent } } } }
    } ${REUSABLE_CONTENT_FRAGMENT}`,
    variables: (input) => (contentFlags(input.query), { ...ids(input), contentId: input.params.reusableContentId }),
    result: (data) => {
      const content = data.space.changeRequest.revision.reusableContent;
      if (!content) throw notFound('Reusable content');
      return presentReusableContent(content);
    },
  }),
];
