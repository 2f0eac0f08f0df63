/** Section 4.17 (custom fonts) and the storage upload that precedes them (the public document's `POST /orgs/{id}/storage/upload`). */
import { badRequest } from '../../lib/errors.js';
import { CONNECTION_FIELDS, listOf, pageArgs, route, type RestInput } from '../route.js';

const BASE = '/orgs/{organizationId}/fonts';
const FRAGMENT = `fragment RestFont on CustomFont { id custom fontFamily fontFaces { weight sources { url format } } permissions { edit } }`;

const present = (f: Record<string, unknown>) => ({ ...f });

/** `fontFaces` as GraphQL inputs: a list of `{weight, storageKey}` (the domain validates values). */
function fontFaces({ body }: RestInput, required: boolean) {
  const value = body.fontFaces;
  if (value === undefined && !required) return undefined;
  if (!Array.isArray(value)) throw badRequest('Invalid value for "fontFaces": an array of {weight, storageKey} is required', 'fontFaces');
  return value.map((face, i) => {
    if (!face || typeof face !== 'object' || typeof (face as { weight?: unknown }).weight !== 'number') throw badRequest(`Invalid value for "fontFaces.${i}.weight": a number is required`, `fontFaces.${i}.weight`);
    return { weight: (face as { weight: number }).weight, storageKey: (face as { storageKey?: unknown }).storageKey ?? null };
  });
}

export const fontRoutes = [
  route({
    method: 'POST',
    path: '/orgs/{organizationId}/storage/upload',
    operation: `mutation RestStartUpload($org: ID!, $name: String!, $type: String!, $size: Int!, $kind: String!) { upload: startStorageUpload(organizationId: $org, name: $name, type: $type, size: $size, kind: $kind) }`,
    variables: ({ params, body }) => {
      const file = (body.file ?? {}) as Record<string, unknown>;
      if (typeof file.name !== 'string' || typeof file.type !== 'string' || !Number.isInteger(file.size)) throw badRequest('Invalid value for "file": {name, type, size} is required', 'file');
      if (typeof body.kind !== 'string') throw badRequest('Invalid value for "kind": required', 'kind');
      return { org: params.organizationId, name: file.name, type: file.type, size: file.size, kind: body.kind };
    },
    status: 201,
    result: (data) => data.upload,
  }),
  route({
    method: 'GET',
    path: BASE,
    operation: `query RestListFonts($org: ID!, $first: Int, $after: String) { organization(id: $org) { fonts(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestFont } } } } } ${FRAGMENT}`,
    variables: ({ params, query }) => ({ org: params.organizationId, ...pageArgs(query) }),
    result: (data) => listOf(data.organization.fonts, present),
  }),
  route({
    method: 'PUT',
    path: BASE,
    operation: `mutation RestCreateFont($org: ID!, $family: String!, $faces: [FontFaceInput!]!) { font: createFont(organizationId: $org, fontFamily: $family, fontFaces: $faces) { ...RestFont } } ${FRAGMENT}`,
    variables: (input) => {
      if (typeof input.body.fontFamily !== 'string') throw badRequest('Invalid value for "fontFamily": a string of 1 to 50 characters is required', 'fontFamily');
      return { org: input.params.organizationId, family: input.body.fontFamily, faces: fontFaces(input, true) };
    },
    status: 201,
    result: (data) => present(data.font),
  }),
  route({
    method: 'GET',
    path: `${BASE}/{fontId}`,
    operation: `query RestGetFont($org: ID!, $id: ID!) { organization(id: $org) { font(id: $id) { ...RestFont } } } ${FRAGMENT}`,
    variables: ({ params }) => ({ org: params.organizationId, id: params.fontId }),
    result: (data) => present(data.organization.font),
  }),
  route({
    method: 'POST',
    path: `${BASE}/{fontId}`,
    operation: `mutation RestUpdateFont($org: ID!, $id: ID!, $family: String, $faces: [FontFaceInput!]) { font: updateFont(organizationId: $org, id: $id, fontFamily: $family, fontFaces: $faces) { ...RestFont } } ${FRAGMENT}`,
    variables: (input) => ({ org: input.params.organizationId, id: input.params.fontId, family: typeof input.body.fontFamily === 'string' ? input.body.fontFamily : null, faces: fontFaces(input, false) ?? null }),
    // The public document answers an update of a font with 201.
    status: 201,
    result: (data) => present(data.font),
  }),
  route({
    method: 'DELETE',
    path: `${BASE}/{fontId}`,
    operation: `mutation RestDeleteFont($org: ID!, $id: ID!) { deleteFont(organizationId: $org, id: $id) }`,
    variables: ({ params }) => ({ org: params.organizationId, id: params.fontId }),
    status: () => 205,
  }),
];
