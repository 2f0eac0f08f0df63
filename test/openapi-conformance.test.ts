/**
 * REST answers against the public OpenAPI document of `@gitbook/api` (spec/openapi.json): every
 * read of the implemented sections, for each kind of resource, validates against the document's
 * 200 response schema — required fields present, types and enumerations as documented.
 */
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { http } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();
const document = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(document, 'openapi');

/** The validator of the documented 200 (or 201) answer of `method path` (path as documented). */
function validatorFor(method: string, path: string) {
  const responses = document.paths[path]?.[method.toLowerCase()]?.responses;
  expect(responses, `${method} ${path} is documented`).toBeDefined();
  const status = responses['200'] ? '200' : '201';
  const pointer = `openapi#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
  return ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
}

let ids: Record<string, string>;
let token: string;

beforeAll(async () => {
  const { org, owner } = await createOrg(server.db);
  token = owner.token;
  const member = await createActor(server.db, { org: org.id, role: 'edit' });
  const post = async (path: string, body: unknown) => (await http(server.url, token, 'POST', path, body)).body;
  const collection = await post(`/orgs/${org.id}/collections`, { title: 'Shelf' });
  const space = await post(`/orgs/${org.id}/spaces`, { title: 'Handbook', emoji: '📘', parent: collection.id });
  await post(`/spaces/${space.id}/permissions`, { role: 'edit', users: [member.id] });
  const team = (await http(server.url, token, 'PUT', `/orgs/${org.id}/teams`, { title: 'Writers', members: [member.id] })).body;
  const cr = await post(`/spaces/${space.id}/change-requests`, { subject: 'Docs' });
  const written = await post(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: '# Guide\n\nHello **world**.\n\n{% hint style="info" %}\nA hint.\n{% endhint %}\n' } },
      { operation: 'insert_page', ref: 'group', type: 'group', title: 'Reference' },
      { operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: Buffer.from('a').toString('base64') }] },
    ],
  });
  const guide = written.changes.find((c: { ref?: string }) => c.ref === 'guide').page.id;
  await post(`/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'insert_page', title: 'Install', into: guide, document: {} }] });
  const other = await post(`/orgs/${org.id}/spaces`, { title: 'Reference' });
  const site = await post(`/orgs/${org.id}/sites`, { title: 'Docs site', spaces: [space.id] });
  const section = await post(`/orgs/${org.id}/sites/${site.id}/sections`, { spaceId: other.id, title: 'Reference' });
  await post(`/orgs/${org.id}/sites/${site.id}/section-groups`, { title: 'Products', sections: [section.id] });
  await post(`/orgs/${org.id}/sites/${site.id}/share-links`, { name: 'Partners' });
  await post(`/orgs/${org.id}/sites/${site.id}/publish`, {});
  const siteSpaces = (await http(server.url, token, 'GET', `/orgs/${org.id}/sites/${site.id}/site-spaces`)).body.items;
  await post(`/orgs/${org.id}/openapi`, { slug: 'pets', source: { text: 'openapi: 3.1.0\ninfo: {title: Pets, version: "1"}\npaths: {}\n' } });
  // One link invite of each kind: the list holds all three shapes, the read the space's.
  await post(`/orgs/${org.id}/link-invites`, { role: 'read' });
  await post(`/orgs/${org.id}/link-invites`, { level: 'comment', collection: collection.id });
  const invite = await post(`/orgs/${org.id}/link-invites`, { level: 'edit', space: space.id });
  ids = {
    specSlug: 'pets',
    inviteId: invite.id,
    siteId: site.id,
    siteSpaceId: siteSpaces[0].id,
    organizationId: org.id,
    spaceId: space.id,
    collectionId: collection.id,
    userId: member.id,
    teamId: team.id,
    changeRequestId: cr.id,
    pageId: guide,
    pagePath: 'guide/install',
    fileId: written.insertedFiles[0].id,
  };
});

const READS = [
  '/user',
  '/orgs',
  '/orgs/{organizationId}',
  '/orgs/{organizationId}/spaces',
  '/orgs/{organizationId}/collections',
  '/orgs/{organizationId}/members',
  '/orgs/{organizationId}/members/{userId}',
  '/orgs/{organizationId}/members/{userId}/spaces',
  '/orgs/{organizationId}/members/{userId}/teams',
  '/orgs/{organizationId}/teams',
  '/orgs/{organizationId}/teams/{teamId}',
  '/orgs/{organizationId}/teams/{teamId}/members',
  '/spaces/{spaceId}',
  '/spaces/{spaceId}/permissions/users',
  '/spaces/{spaceId}/permissions/aggregate',
  '/collections/{collectionId}',
  '/collections/{collectionId}/spaces',
  '/collections/{collectionId}/permissions/users',
  '/collections/{collectionId}/permissions/aggregate',
  '/spaces/{spaceId}/change-requests',
  '/spaces/{spaceId}/change-requests/{changeRequestId}',
  '/spaces/{spaceId}/change-requests/{changeRequestId}/changes',
  '/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{pagePath}',
  '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files',
  '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}',
  '/orgs/{organizationId}/openapi',
  '/orgs/{organizationId}/openapi/{specSlug}',
  '/orgs/{organizationId}/sites',
  '/orgs/{organizationId}/sites/{siteId}',
  '/orgs/{organizationId}/sites/{siteId}/structure',
  '/orgs/{organizationId}/sites/{siteId}/published',
  '/orgs/{organizationId}/sites/{siteId}/customization',
  '/orgs/{organizationId}/sites/{siteId}/share-links',
  '/orgs/{organizationId}/sites/{siteId}/sections',
  '/orgs/{organizationId}/sites/{siteId}/section-groups',
  '/orgs/{organizationId}/sites/{siteId}/site-spaces',
  '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
  '/orgs/{organizationId}/sites/{siteId}/publishing/auth',
  '/orgs/{organizationId}/link-invites',
  '/orgs/{organizationId}/link-invites/{inviteId}',
];

describe('REST answers and the public OpenAPI document', () => {
  for (const path of READS) {
    it(`GET ${path} answers as documented`, async () => {
      const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name]);
      const response = await http(server.url, token, 'GET', url);
      expect(response.status).toBe(200);
      const validate = validatorFor('GET', path);
      const valid = validate(response.body);
      expect((validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`).slice(0, 8), JSON.stringify(response.body).slice(0, 400)).toEqual([]);
      expect(valid).toBe(true);
    });
  }
});

/**
 * Page trees: the public document (0.202) requires a body (`document` or `markdown`) on every
 * document page, nested ones included. quire gives bodies for the page asked for and, in trees,
 * each page's `documentId` instead (a 10,000-page tree with every body would be enormous; the
 * README says so). Every other part of these answers must validate.
 */
const TREES = [
  '/spaces/{spaceId}/change-requests/{changeRequestId}/content',
  '/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages',
  '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}',
];
/** The answer with an empty body on every body-less document page: what the document's schema asks, the rest untouched. */
function withBodies(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withBodies);
  if (!value || typeof value !== 'object') return value;
  const object = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withBodies(v)]));
  const isBodyless = object.type === 'document' && object.kind === 'sheet' && !('document' in object) && !('markdown' in object);
  return isBodyless ? { ...object, document: { object: 'document', data: {}, nodes: [] } } : object;
}

describe('page trees and the public OpenAPI document', () => {
  for (const path of TREES) {
    it(`GET ${path} answers as documented but for the bodies of nested pages`, async () => {
      const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name]);
      const response = await http(server.url, token, 'GET', url);
      expect(response.status).toBe(200);
      const validate = validatorFor('GET', path);
      const filled = withBodies(response.body);
      expect(filled).not.toEqual(response.body); // there were nested pages without bodies
      validate(filled);
      expect((validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).slice(0, 8)).toEqual([]);
    });
  }
});

