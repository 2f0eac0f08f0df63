/** Section 4.8 of the API description: searching an organization's content, or one space's. */
import { badRequest } from '../../lib/errors.js';
import { CONNECTION_FIELDS, listOf, pageArgs, route } from '../route.js';

/** A page of search results (`SearchPageResult`). */
const SEARCH_PAGE_FRAGMENT = `fragment RestSearchPage on SearchPageResult {
  id title description path score rank ancestors { title } urls { app }
  sections { id title path body score urls { app } }
}`;

export const SEARCH_FRAGMENT = `fragment RestSearchSpace on SearchSpaceResult { id title score pages { ...RestSearchPage } } ${SEARCH_PAGE_FRAGMENT}`;

type SearchPage = {
  id: string;
  title: string;
  description: string | null;
  path: string;
  score: number;
  rank: number;
  ancestors: { title: string }[];
  urls: { app: string };
  sections: { id: string; title: string; path: string; body: string; score: number; urls: { app: string } }[];
};

type SearchSpace = { id: string; title: string; score: number; pages: SearchPage[] };

/** `SearchPageResult` of the public document (`description` is required: empty when the page has none). */
const presentSearchPage = (page: SearchPage) => ({ ...page, description: page.description ?? '' });

/** `SearchSpaceResult` of the public document (pages: `SearchPageResult`, sections: `SearchSectionResult`). */
export const presentSearchSpace = (space: SearchSpace) => ({
  type: 'space' as const,
  id: space.id,
  title: space.title,
  score: space.score,
  pages: space.pages.map(presentSearchPage),
});

/** The search text (`?query=`, required) and the page arguments. */
function searchArgs(query: URLSearchParams) {
  const text = query.get('query');
  if (text === null) throw badRequest('Invalid value for "query": required', 'query');
  return { query: text, ...pageArgs(query) };
}

export const searchRoutes = [
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/search',
    operation: `query RestSearchOrganization($id: ID!, $query: String!, $first: Int, $after: String) {
      organization(id: $id) { search(query: $query, first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestSearchSpace } } } }
    } ${SEARCH_FRAGMENT}`,
    variables: ({ params, query }) => ({ id: params.organizationId, ...searchArgs(query) }),
    result: (data) => listOf(data.organization.search, presentSearchSpace),
  }),
  route({
    method: 'GET',
    path: '/spaces/{spaceId}/search',
    operation: `query RestSearchSpace($spaceId: ID!, $query: String!, $first: Int, $after: String) {
      space(id: $spaceId) { search(query: $query, first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestSearchPage } } } }
    } ${SEARCH_PAGE_FRAGMENT}`,
    variables: ({ params, query }) => ({ spaceId: params.spaceId, ...searchArgs(query) }),
    result: (data) => listOf(data.space.search, presentSearchPage),
  }),
];
