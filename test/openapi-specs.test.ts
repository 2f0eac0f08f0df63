/**
 * OpenAPI specifications (4.14) end to end: created from a URL or a text, processed by a job
 * (pending → progress → complete), a new version only when the content changed, failures recorded
 * with their code (PARSE_ERROR, FETCH_ERROR) keeping the last version, slugs, and access (members
 * with a role read, the create role writes, other organizations get 404).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { gqlOk, http } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { serveSite, type Site } from './helpers/site.js';

const server = useServer({ worker: true });
let site: Site;
afterAll(() => site?.close());

const SPEC = (version: string) => `openapi: 3.1.0
info:
  title: Pets
  version: "${version}"
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: The pets
`;

/** The specification once its processing has finished. */
async function processed(token: string, orgId: string, slug: string) {
  let spec: Record<string, any> = {};
  await expect
    .poll(
      async () => {
        spec = (await http(server.url, token, 'GET', `/orgs/${orgId}/openapi/${slug}`)).body;
        return spec.processingState;
      },
      { timeout: 30_000, interval: 200 },
    )
    .toBe('complete');
  return spec;
}

describe('OpenAPI specifications', () => {
  it('processes a specification from a URL into a version; the same content makes no new version, a change does', async () => {
    site = await serveSite({ '/pets.yaml': { type: 'application/yaml', body: SPEC('1.0.0') } });
    const { org, owner } = await createOrg(server.db);
    const created = await http(server.url, owner.token, 'POST', `/orgs/${org.id}/openapi`, { slug: 'pets', source: { url: `${site.url}/pets.yaml` } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'openapi-spec', slug: 'pets', sourceURL: `${site.url}/pets.yaml`, processingState: 'pending', permissions: { view: true, edit: true } });
    const first = await processed(owner.token, org.id, 'pets');
    expect(first).toMatchObject({ lastVersion: expect.stringMatching(/^oasv_/), lastProcessedErrorCount: 0 });
    expect(first.lastProcessErrorCode).toBeUndefined();

    const again = await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/openapi/pets`, { source: { url: `${site.url}/pets.yaml` } });
    expect(again.status).toBe(200);
    expect((await processed(owner.token, org.id, 'pets')).lastVersion).toBe(first.lastVersion);

    expect((await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/openapi/pets`, { source: { text: SPEC('2.0.0') } })).status).toBe(200);
    const changed = await processed(owner.token, org.id, 'pets');
    expect(changed.lastVersion).not.toBe(first.lastVersion);
    const versions = await gqlOk(server.url, owner.token, 'query($id: ID!) { organization(id: $id) { openAPISpec(slug: "pets") { versions { totalCount edges { node { version title operations } } } processingJob { state kind } } } }', { id: org.id });
    expect(versions.organization.openAPISpec.versions.totalCount).toBe(2);
    expect(versions.organization.openAPISpec.versions.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { version: '2.0.0', title: 'Pets', operations: 1 },
      { version: '1.0.0', title: 'Pets', operations: 1 },
    ]);
    expect(versions.organization.openAPISpec.processingJob).toEqual({ state: 'succeeded', kind: 'openapi_process' });
  });

  it('records PARSE_ERROR and FETCH_ERROR with the problems, keeping the last version; PUT creates a missing slug (201)', async () => {
    const { org, owner } = await createOrg(server.db);
    expect((await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/openapi/api`, { source: { text: SPEC('1.0.0') } })).status).toBe(201);
    const good = await processed(owner.token, org.id, 'api');
    await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/openapi/api`, { source: { text: 'openapi: 3.1.0\ninfo: {title: 1}\n' } });
    const broken = await processed(owner.token, org.id, 'api');
    expect(broken).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastVersion: good.lastVersion });
    expect(broken.lastProcessedErrorCount).toBeGreaterThan(0);
    expect(broken.lastProcessedErrors[0].message).toEqual(expect.any(String));
    await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/openapi/api`, { source: { url: 'http://127.0.0.1:1/spec.yaml' } });
    expect(await processed(owner.token, org.id, 'api')).toMatchObject({ lastProcessErrorCode: 'FETCH_ERROR', lastVersion: good.lastVersion });
  });

  it('validates slugs and sources, refuses a taken slug, lists and deletes', async () => {
    const { org, owner } = await createOrg(server.db);
    const post = (body: unknown) => http(server.url, owner.token, 'POST', `/orgs/${org.id}/openapi`, body);
    expect((await post({ slug: 'Bad Slug', source: { text: 'x' } })).body.error.message).toContain('"slug"');
    expect((await post({ slug: 'ok', source: { url: 'ftp://x' } })).body.error.message).toContain('"source');
    expect((await post({ slug: 'ok' })).body.error.message).toContain('"source"');
    expect((await post({ slug: 'ok', source: { text: SPEC('1') } })).status).toBe(201);
    expect((await post({ slug: 'ok', source: { text: SPEC('1') } })).status).toBe(409);
    const list = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/openapi`);
    expect(list.body).toMatchObject({ count: 1, items: [{ slug: 'ok' }] });
    expect((await http(server.url, owner.token, 'DELETE', `/orgs/${org.id}/openapi/ok`)).status).toBe(205);
    expect((await http(server.url, owner.token, 'GET', `/orgs/${org.id}/openapi/ok`)).status).toBe(404);
  });

  it('lets members with a role read and the create role write; guests get 403 (like member lists), other organizations 404', async () => {
    const { org, owner } = await createOrg(server.db);
    await http(server.url, owner.token, 'POST', `/orgs/${org.id}/openapi`, { slug: 'api', source: { text: SPEC('1') } });
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const creator = await createActor(server.db, { org: org.id, role: 'create' });
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    const stranger = await createOrg(server.db);
    expect((await http(server.url, reader.token, 'GET', `/orgs/${org.id}/openapi/api`)).body.permissions).toEqual({ view: true, edit: false });
    expect((await http(server.url, reader.token, 'PUT', `/orgs/${org.id}/openapi/api`, { source: { text: SPEC('2') } })).status).toBe(403);
    expect((await http(server.url, creator.token, 'PUT', `/orgs/${org.id}/openapi/api`, { source: { text: SPEC('2') } })).status).toBe(200);
    for (const [token, status] of [
      [guest.token, 403],
      [stranger.owner.token, 404],
    ] as const) {
      for (const [method, path, body] of [
        ['GET', `/orgs/${org.id}/openapi`],
        ['GET', `/orgs/${org.id}/openapi/api`],
        ['POST', `/orgs/${org.id}/openapi`, { slug: 'x', source: { text: SPEC('1') } }],
        ['PUT', `/orgs/${org.id}/openapi/api`, { source: { text: SPEC('3') } }],
        ['DELETE', `/orgs/${org.id}/openapi/api`],
      ] as [string, string, unknown?][]) {
        expect((await http(server.url, token, method, path, body)).status, `${method} ${path}`).toBe(status);
      }
    }
  });
});
