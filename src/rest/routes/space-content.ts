/**
 * Section 4.7 of the API description, a space's own content: its current revision
 * (`/spaces/{spaceId}/content…`) and any revision by ID (`/spaces/{spaceId}/revisions/{revisionId}…`).
 * Both are the change request content reads (change-requests.ts) on another revision: the same
 * GraphQL `Revision` fields and presenters, reached through `Space.revision` or
 * `Space.revisionById` (NOT_FOUND for a revision of another space). Also a document of the space
 * by ID. Access is the space's `view`, as for every content read.
 */
import { badRequest, notFound } from '../../lib/errors.js';
import { CONNECTION_FIELDS, listOf, pageArgs, route, stringParam, type RestInput, type Route } from '../route.js';
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
import { documentFlags, documentSchema, pageFormat, presentContributor, presentDocument, presentPageRecord, revisionFlags } from '../present-revision-content.js';
import { USER_FRAGMENT } from '../present.js';

type Obj = Record<string, any>;

/** How one family of paths reaches its revision. */
type Scope = {
  /** The documented path of the revision (`…/content` or `…/revisions/{revisionId}`). */
  base: string;
  /** Prefix of operation names. */
  name: string;
  /** Variable declarations beyond `$spaceId`. */
  declare: string;
  /** The `Space` field answering the revision, aliased `revision`. */
  field: string;
  variables: (input: RestInput) => Record<string, unknown>;
};

const CURRENT: Scope = {
  base: '/spaces/{spaceId}/content',
  name: 'RestSpaceContent',
  declare: '',
  field: 'revision',
  variables: ({ params }) => ({ spaceId: params.spaceId }),
};

const BY_ID: Scope = {
  base: '/spaces/{spaceId}/revisions/{revisionId}',
  name: 'RestRevision',
  declare: ', $revisionId: ID!',
  field: 'revision: revisionById(id: $revisionId)',
  variables: ({ params }) => ({ spaceId: params.spaceId, revisionId: params.revisionId }),
};

/** A query on the scope's revision: `selection` is read inside `Revision`. */
const onRevision = (scope: Scope, name: string, declare: string, selection: string, fragments = '') =>
  `query ${scope.name}${name}($spaceId: ID!${scope.declare}${declare}) { space(id: $spaceId) { ${scope.field} { ${selection} } } } ${fragments}`;

const revisionOf = (data: Obj): Obj => data.space.revision;

const BODY = 'document @include(if: $document) markdown(refs: $refs) @include(if: $markdown)';

function pageVariables(scope: Scope, input: RestInput, more: Record<string, unknown>) {
  const { format, refs } = pageFormat(input.query);
  return { ...scope.variables(input), ...more, document: format === 'document', markdown: format === 'markdown', refs };
}

function pageRecord(data: Obj, input: RestInput) {
  const page = revisionOf(data).page;
  if (!page) throw notFound('Page');
  return presentPageRecord(page, pageFormat(input.query).format);
}

function entity<T>(found: T | null | undefined, what: string): T {
  if (!found) throw notFound(what);
  return found;
}

/** The routes every revision has, current or by ID. */
function revisionRoutes(scope: Scope): Route[] {
  const { base } = scope;
  const plain = (input: RestInput) => (revisionFlags(input.query), scope.variables(input));
  return [
    route({
      method: 'GET',
      path: base,
      operation: onRevision(scope, 'Get', '', '...RestRevision mergedFrom { ...RestChangeRequest }', `${REVISION_FRAGMENT} ${CHANGE_REQUEST_FRAGMENT}`),
      variables: plain,
      result: (data) => {
        const revision = revisionOf(data);
        return presentRevision(revision, revision.mergedFrom ? presentChangeRequest(revision.mergedFrom) : undefined);
      },
    }),
    route({
      method: 'GET',
      path: `${base}/pages`,
      operation: onRevision(scope, 'ListPages', '', 'allPages { ...RestPageItem }', PAGE_LIST_FRAGMENT),
      variables: plain,
      result: (data) => ({ pages: nestPages(revisionOf(data).allPages, null).map((p) => presentPage(p)) }),
    }),
    route({
      method: 'GET',
      path: `${base}/page/{pageId}`,
      operation: onRevision(scope, 'GetPage', ', $pageId: ID!, $document: Boolean!, $markdown: Boolean!, $refs: MarkdownRefs!', `page(id: $pageId) { ...RestPage ${BODY} }`, PAGE_FRAGMENT),
      variables: (input) => pageVariables(scope, input, { pageId: input.params.pageId }),
      result: pageRecord,
    }),
    route({
      method: 'GET',
      path: `${base}/path/{pagePath}`,
      operation: onRevision(scope, 'GetPageByPath', ', $path: String!, $document: Boolean!, $markdown: Boolean!, $refs: MarkdownRefs!', `page: pageByPath(path: $path) { ...RestPage ${BODY} }`, PAGE_FRAGMENT),
      variables: (input) => pageVariables(scope, input, { path: input.params.pagePath }),
      result: pageRecord,
    }),
    route({
      method: 'GET',
      path: `${base}/page/{pageId}/meta-links`,
      operation: onRevision(scope, 'GetPageMetaLinks', ', $pageId: ID!', 'page(id: $pageId) { id }'),
      variables: (input) => ({ ...scope.variables(input), pageId: input.params.pageId }),
      // Pages hold no canonical or alternate links in this server (nothing writes them): none to list.
      result: (data) => (entity(revisionOf(data).page, 'Page'), { alternates: [] }),
    }),
    route({
      method: 'GET',
      path: `${base}/files`,
      operation: onRevision(scope, 'ListFiles', ', $first: Int, $after: String', `files(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestFile } } }`, FILE_FRAGMENT),
      variables: (input) => ({ ...plain(input), ...pageArgs(input.query) }),
      result: (data) => listOf(revisionOf(data).files, presentFile),
    }),
    route({
      method: 'GET',
      path: `${base}/files/{fileId}`,
      operation: onRevision(scope, 'GetFile', ', $fileId: ID!', 'file(id: $fileId) { ...RestFile }', FILE_FRAGMENT),
      variables: (input) => ({ ...plain(input), fileId: input.params.fileId }),
      result: (data) => presentFile(entity(revisionOf(data).file, 'File')),
    }),
    route({
      method: 'GET',
      path: `${base}/reusable-contents/{reusableContentId}`,
      operation: onRevision(scope, 'GetReusableContent', ', $contentId: ID!', 'reusableContent(id: $contentId) { ...RestReusableContent }', REUSABLE_CONTENT_FRAGMENT),
      variables: (input) => ({ ...plain(input), contentId: input.params.reusableContentId }),
      result: (data) => presentReusableContent(entity(revisionOf(data).reusableContent, 'Reusable content')),
    }),
  ];
}

/** Only by revision ID: bodies alone, and what the revision changed. */
const revisionOnlyRoutes: Route[] = [
  route({
    method: 'GET',
    path: `${BY_ID.base}/page/{pageId}/document`,
    operation: onRevision(BY_ID, 'GetPageDocument', ', $pageId: ID!', 'page(id: $pageId) { type document }'),
    variables: (input) => (documentFlags(input.query), { ...BY_ID.variables(input), pageId: input.params.pageId }),
    result: (data) => {
      const page = entity(revisionOf(data).page, 'Page');
      if (page.type !== 'document') throw notFound('Document');
      return presentDocument(page.document);
    },
  }),
  route({
    method: 'GET',
    path: `${BY_ID.base}/reusable-contents/{reusableContentId}/document`,
    operation: onRevision(BY_ID, 'GetReusableContentDocument', ', $contentId: ID!', 'reusableContent(id: $contentId) { document }'),
    variables: (input) => (documentFlags(input.query), { ...BY_ID.variables(input), contentId: input.params.reusableContentId }),
    result: (data) => presentDocument(entity(revisionOf(data).reusableContent, 'Reusable content').document),
  }),
  route({
    method: 'GET',
    path: `${BY_ID.base}/changes`,
    operation: onRevision(BY_ID, 'GetChanges', ', $limit: Int', 'changes(limit: $limit) { changes more } mergedFrom { ...RestChangeRequest }', CHANGE_REQUEST_FRAGMENT),
    variables: (input) => {
      revisionFlags(input.query);
      const limit = stringParam(input.query, 'limit', 8);
      const n = limit === undefined || limit === '' ? undefined : Number(limit);
      if (n !== undefined && (!Number.isInteger(n) || n < 0 || n > 1000)) throw badRequest('Invalid value for "limit": must be an integer between 0 and 1000', 'limit');
      return { ...BY_ID.variables(input), limit: n };
    },
    result: (data) => {
      const revision = revisionOf(data);
      const { changes, more } = revision.changes;
      return { ...(revision.mergedFrom ? { mergedFrom: presentChangeRequest(revision.mergedFrom) } : {}), changes, ...(more != null ? { more } : {}) };
    },
  }),
];

export const spaceContentRoutes: Route[] = [
  ...revisionRoutes(CURRENT),
  ...revisionRoutes(BY_ID),
  ...revisionOnlyRoutes,
  route({
    method: 'GET',
    path: '/spaces/{spaceId}/documents/{documentId}',
    operation: `query RestGetSpaceDocument($spaceId: ID!, $documentId: ID!) { space(id: $spaceId) { document(id: $documentId) } }`,
    variables: ({ params, query }) => (documentSchema(query), { spaceId: params.spaceId, documentId: params.documentId }),
    result: (data) => data.space.document,
  }),
  route({
    method: 'GET',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/contributors',
    operation: `query RestListChangeRequestContributors($spaceId: ID!, $id: ID!) {
      space(id: $spaceId) { changeRequest(id: $id) { contributors { actionType count updatedAt user { ...RestUser } } } }
    } ${USER_FRAGMENT}`,
    variables: ({ params }) => ({ spaceId: params.spaceId, id: params.changeRequestId }),
    result: (data) => {
      const items = data.space.changeRequest.contributors.map(presentContributor);
      return { items, count: items.length };
    },
  }),
];
