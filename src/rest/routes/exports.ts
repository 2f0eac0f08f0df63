/** Exports (API 4.6, 4.7): the temporary URL of a change request's PDF, and of a space's. */
import { booleanParam, route, stringParam } from '../route.js';

export const exportRoutes = [
  route({
    method: 'GET',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/pdf',
    operation: `query RestGetChangeRequestPdf($spaceId: ID!, $id: ID!, $page: ID, $only: Boolean) {
      space(id: $spaceId) { changeRequest(id: $id) { pdfURL(page: $page, only: $only) } }
    }`,
    variables: ({ params, query }) => ({
      spaceId: params.spaceId,
      id: params.changeRequestId,
      page: stringParam(query, 'page', 128) || undefined,
      only: booleanParam(query, 'only'),
    }),
    result: (data) => ({ url: data.space.changeRequest.pdfURL as string }),
  }),
  route({
    method: 'GET',
    path: '/spaces/{spaceId}/pdf',
    operation: `query RestGetSpacePdf($spaceId: ID!, $page: ID, $only: Boolean) { space(id: $spaceId) { pdfURL(page: $page, only: $only) } }`,
    variables: ({ params, query }) => ({ spaceId: params.spaceId, page: stringParam(query, 'page', 128) || undefined, only: booleanParam(query, 'only') }),
    result: (data) => ({ url: data.space.pdfURL as string }),
  }),
];
