/**
 * URLs resolved to what they show (`/urls/content`, `/urls/published`, `/urls/embed`) and embeds
 * in a space (`/spaces/{spaceId}/embed`): GraphQL `contentUrl`, `publishedUrl` and `embed`.
 */
import { badRequest } from '../../lib/errors.js';
import { CHANGE_REQUEST_FRAGMENT, PAGE_FRAGMENT, presentChangeRequest } from '../present-change-requests.js';
import { presentPageRecord } from '../present-revision-content.js';
import { COLLECTION_FRAGMENT, presentCollection } from '../present-content.js';
import { presentSpace, SPACE_FRAGMENT } from '../present.js';
import { route, stringParam, type RestInput } from '../route.js';

type Obj = Record<string, any>;

/** The required `url` (query or body), or a 400 naming it. */
function urlOf(value: unknown): string {
  if (typeof value !== 'string' || !value) throw badRequest('Invalid value for "url": required, a URL', 'url');
  return value;
}
const queryUrl = ({ query }: RestInput) => urlOf(stringParam(query, 'url', 2048));

const PUBLISHED = `site { id organization { id } } siteSection { id } siteSpace { id spaceId } pathname basePath siteBasePath canonicalUrl shareKey`;
const PUBLISHED_QUERY = `query RestResolvePublishedUrl($url: String!, $visitor: UrlVisitorInput) { publishedUrl(url: $url, visitor: $visitor) { ${PUBLISHED} } }`;

/** The public document's `PublishedSiteContent`. `apiToken` is empty: quire issues no short-lived tokens, the caller's own token reads the content. */
function presentPublished(data: Obj): Obj {
  const r = data.publishedUrl;
  return {
    site: r.site.id,
    ...(r.siteSection ? { siteSection: r.siteSection.id } : {}),
    siteSpace: r.siteSpace.id,
    space: r.siteSpace.spaceId,
    pathname: r.pathname,
    basePath: r.basePath,
    siteBasePath: r.siteBasePath,
    apiToken: '',
    organization: r.site.organization.id,
    ...(r.shareKey ? { shareKey: r.shareKey } : {}),
    complete: true,
    canonicalUrl: r.canonicalUrl,
  };
}

const visitorOf = (value: unknown) => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('Invalid value for "visitor": an object', 'visitor');
  const { jwtToken, unsignedClaims } = value as Obj;
  if (jwtToken !== undefined && typeof jwtToken !== 'string') throw badRequest('Invalid value for "visitor.jwtToken": a string', 'visitor.jwtToken');
  if (unsignedClaims !== undefined && (typeof unsignedClaims !== 'object' || unsignedClaims === null || Array.isArray(unsignedClaims))) throw badRequest('Invalid value for "visitor.unsignedClaims": an object', 'visitor.unsignedClaims');
  return { jwtToken, unsignedClaims };
};

const EMBED_QUERY = (withSpace: boolean) =>
  `query RestEmbed${withSpace ? 'InSpace' : ''}($url: String!${withSpace ? ', $spaceId: ID!' : ''}) { embed(url: $url${withSpace ? ', spaceId: $spaceId' : ''}) { type title site } }`;

export const urlRoutes = [
  route({
    method: 'GET',
    path: '/urls/content',
    operation: `query RestContentByUrl($url: String!) {
      contentUrl(url: $url) { collection { ...RestCollection } space { ...RestSpace } changeRequest { ...RestChangeRequest } page { ...RestPage document } }
    } ${COLLECTION_FRAGMENT} ${SPACE_FRAGMENT} ${CHANGE_REQUEST_FRAGMENT} ${PAGE_FRAGMENT}`,
    variables: (input) => ({ url: queryUrl(input) }),
    result: (data) => {
      const r = data.contentUrl;
      if (r.collection) return { collection: presentCollection(r.collection) };
      return {
        space: presentSpace(r.space),
        ...(r.changeRequest ? { changeRequest: presentChangeRequest(r.changeRequest) } : {}),
        ...(r.page ? { page: presentPageRecord(r.page, 'document') } : {}),
      };
    },
  }),
  route({
    method: 'GET',
    path: '/urls/published',
    operation: PUBLISHED_QUERY,
    variables: (input) => {
      const token = stringParam(input.query, 'visitorAuthToken', 8192);
      return { url: queryUrl(input), visitor: token ? { jwtToken: token } : null };
    },
    result: presentPublished,
  }),
  route({
    method: 'POST',
    path: '/urls/published',
    operation: PUBLISHED_QUERY,
    variables: ({ body }) => {
      if (typeof body.url === 'string' && body.url.length > 2048) throw badRequest('Invalid value for "url": at most 2048 characters', 'url');
      return { url: urlOf(body.url), visitor: visitorOf(body.visitor) ?? null };
    },
    result: presentPublished,
  }),
  route({
    method: 'GET',
    path: '/urls/embed',
    operation: EMBED_QUERY(false),
    variables: (input) => ({ url: queryUrl(input) }),
    result: (data) => data.embed,
  }),
  route({
    method: 'GET',
    path: '/spaces/{spaceId}/embed',
    operation: EMBED_QUERY(true),
    variables: (input) => ({ url: queryUrl(input), spaceId: input.params.spaceId }),
    result: (data) => data.embed,
  }),
];
