/**
 * Section 4.15 of the API description: translation settings. The description's shapes (`title`,
 * `languages`) are served; the public document (0.202) has since replaced these paths with
 * translation syncs (`source`, `language`), which this server does not run.
 */
import { badRequest } from '../../lib/errors.js';
import { CONNECTION_FIELDS, listOf, pageArgs, route, type RestInput } from '../route.js';

const BASE = '/orgs/{organizationId}/translations';
const FRAGMENT = `fragment RestTranslationSettings on TranslationSettings { id title languages createdAt updatedAt permissions { edit } urls { location } }`;

const present = (t: Record<string, any>) => ({ object: 'translation-settings', ...t });

/** `title` and `languages` of the body, typed for GraphQL (the domain validates the values). */
function fields({ body }: RestInput) {
  if (typeof body.title !== 'string') throw badRequest('Invalid value for "title": a string of 1 to 100 characters is required', 'title');
  if (body.languages !== undefined && !Array.isArray(body.languages)) throw badRequest('Invalid value for "languages": must be an array', 'languages');
  return { title: body.title, languages: body.languages ?? null };
}

export const translationRoutes = [
  route({
    method: 'GET',
    path: BASE,
    operation: `query RestListTranslations($org: ID!, $first: Int, $after: String) {
      organization(id: $org) { translations(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestTranslationSettings } } } }
    } ${FRAGMENT}`,
    variables: ({ params, query }) => ({ org: params.organizationId, ...pageArgs(query) }),
    result: (data) => listOf(data.organization.translations, present),
  }),
  route({
    method: 'POST',
    path: BASE,
    operation: `mutation RestCreateTranslation($org: ID!, $title: String!, $languages: [String!]) { result: createTranslationSettings(organizationId: $org, title: $title, languages: $languages) { ...RestTranslationSettings } } ${FRAGMENT}`,
    variables: (input) => ({ org: input.params.organizationId, ...fields(input) }),
    status: 201,
    result: (data) => present(data.result),
  }),
  route({
    method: 'GET',
    path: `${BASE}/{translationSettingsId}`,
    operation: `query RestGetTranslation($org: ID!, $id: ID!) { organization(id: $org) { translationSettings(id: $id) { ...RestTranslationSettings } } } ${FRAGMENT}`,
    variables: ({ params }) => ({ org: params.organizationId, id: params.translationSettingsId }),
    result: (data) => present(data.organization.translationSettings),
  }),
  route({
    method: 'PUT',
    path: `${BASE}/{translationSettingsId}`,
    operation: `mutation RestReplaceTranslation($org: ID!, $id: ID!, $title: String!, $languages: [String!]) { result: replaceTranslationSettings(organizationId: $org, id: $id, title: $title, languages: $languages) { ...RestTranslationSettings } } ${FRAGMENT}`,
    variables: (input) => ({ org: input.params.organizationId, id: input.params.translationSettingsId, ...fields(input) }),
    result: (data) => present(data.result),
  }),
  route({
    method: 'DELETE',
    path: `${BASE}/{translationSettingsId}`,
    operation: `mutation RestDeleteTranslation($org: ID!, $id: ID!) { deleteTranslationSettings(organizationId: $org, id: $id) }`,
    variables: ({ params }) => ({ org: params.organizationId, id: params.translationSettingsId }),
    status: () => 205,
  }),
];
