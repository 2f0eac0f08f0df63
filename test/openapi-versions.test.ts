/**
 * OpenAPI specification versions (`openapi-versions`) and visibility (`PATCH …/openapi/{slug}`):
 * every processed version kept, listed newest first, read by ID or as the latest, its content
 * parsed and raw (exactly as submitted, with its format); through the public SDK, validated
 * against the public document; members with a role read, the create role writes, another
 * organization's token gets 404.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { serveSite, type Site } from './helpers/site.js';

const server = useServer({ worker: true });
let site: Site | undefined;
afterAll(() => site?.close());

const PATHS = { '/pets': { get: { operationId: 'listPets', responses: { '200': { description: 'The pets' } } } } };
const YAML = (version: string) =>
  `openapi: 3.1.0\r\ninfo:\r\n  title: Pets\r\n  version: "${version}"\r\npaths:\r\n  /pets:\r\n    get:\r\n      operationId: listPets\r\n      responses:\r\n        "200":\r\n          description: The pets\r\n`;
const YAML_DOCUMENT = (version: string) => ({ openapi: '3.1.0', info: { title: 'Pets', version }, paths: PATHS });
const JSON_SPEC = JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '2.0.0' }, paths: PATHS }, null, 2);

const BASE = '/orgs/{organizationId}/openapi/{specSlug}';

async function processed(token: string, orgId: string, slug: string, lastVersion?: string) {
  let spec: Record<string, any> = {};
  await expect
    .poll(
      async () => {
        spec = (await http(server.url, token, 'GET', `/orgs/${orgId}/openapi/${slug}`)).body;
        return spec.processingState === 'complete' && spec.lastVersion !== lastVersion;
      },
      { timeout: 30_000, interval: 200 },
    )
    .toBe(true);
  return spec;
}

describe('OpenAPI specification versions', () => {
  it("serves a public specification given as text at this server's public URL, without a token; a private one is 404 there", async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const spec = (await api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'pets', { source: { text: YAML('1.0.0') } } as never)).data;
    const first = (await processed(owner.token, org.id, 'pets')).lastVersion as string;
    expect((await fetch(`${server.url}/openapi/${spec.id}`)).status).toBe(404);
    expect((await api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'pets')).data.urls.public).toBeNull();

    const updated = (await api.orgs.updateOpenApiSpecBySlug(org.id, 'pets', { visibility: 'public' as never })).data;
    // Under QUIRE_PUBLIC_URL (the tests' server answers at another address).
    const here = (url: string | null | undefined) => `${server.url}${new URL(url!).pathname}`;
    expect(updated.urls.published).toBe(`${server.config.publicUrl}/openapi/${spec.id}`);
    const content = (await api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'pets')).data;
    expect(content.urls.public).toBe(`${server.config.publicUrl}/openapi/${spec.id}/${first}`);
    const served = await fetch(here(content.urls.public));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(served.headers.get('access-control-allow-origin')).toBe('*');
    expect(await served.text()).toBe(YAML('1.0.0'));
    expect(await (await fetch(here(updated.urls.published))).text()).toBe(YAML('1.0.0'));
    expect((await fetch(`${server.url}/openapi/${spec.id}/oasv_unknown`)).status).toBe(404);
    expect((await fetch(`${server.url}/openapi/${spec.id}`, { method: 'POST' })).status).toBe(405);

    await api.orgs.updateOpenApiSpecBySlug(org.id, 'pets', { visibility: 'private' as never });
    expect((await fetch(`${server.url}/openapi/${spec.id}/${first}`)).status).toBe(404);
  });

  it('keeps every processed version: listed, read by ID and as the latest, content parsed and raw as submitted', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    expect((await sdkError(api.orgs.getLatestOpenApiSpecVersion(org.id, 'pets'))).status).toBe(404);
    await api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'pets', { source: { text: YAML('1.0.0') } } as never);
    // Before processing there is no version yet.
    const first = (await processed(owner.token, org.id, 'pets')).lastVersion as string;
    await api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'pets', { source: { text: JSON_SPEC } } as never);
    const second = (await processed(owner.token, org.id, 'pets', first)).lastVersion as string;
    expect(second).not.toBe(first);

    const list = (await api.orgs.listOpenApiSpecVersions(org.id, 'pets')).data;
    expectDocumented('GET', `${BASE}/versions`, '200', list);
    expect(list.items.map((v) => v.id)).toEqual([second, first]);
    expect(list.count).toBe(2);
    const paged = (await api.orgs.listOpenApiSpecVersions(org.id, 'pets', { limit: 1 })).data;
    expect(paged.items.map((v) => v.id)).toEqual([second]);
    expect((await api.orgs.listOpenApiSpecVersions(org.id, 'pets', { limit: 1, page: paged.next!.page })).data.items.map((v) => v.id)).toEqual([first]);

    const latest = (await api.orgs.getLatestOpenApiSpecVersion(org.id, 'pets')).data;
    expectDocumented('GET', `${BASE}/versions/latest`, '200', latest);
    expect(latest).toMatchObject({ object: 'openapi-spec-version', id: second });
    expect(latest.urls.location).toMatch(new RegExp(`/v1/orgs/${org.id}/openapi/pets/versions/${second}$`));
    const byId = (await api.orgs.getOpenApiSpecVersionById(org.id, 'pets', first)).data;
    expectDocumented('GET', `${BASE}/versions/{versionId}`, '200', byId);
    expect(byId.id).toBe(first);

    const content = (await api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'pets')).data;
    expectDocumented('GET', `${BASE}/versions/latest/content`, '200', content);
    expect(Object.values(content.filesystem)).toEqual([JSON.parse(JSON_SPEC)]);
    expect(content.urls.public).toBeNull();
    const older = (await api.orgs.getOpenApiSpecVersionContentById(org.id, 'pets', first)).data;
    expectDocumented('GET', `${BASE}/versions/{versionId}/content`, '200', older);
    expect(Object.values(older.filesystem)).toEqual([YAML_DOCUMENT('1.0.0')]);

    const raw = await api.orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'pets');
    expectDocumented('GET', `${BASE}/versions/latest/content/raw`, '200', raw.data);
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
    expect(raw.data).toEqual({ text: JSON_SPEC, format: 'json' });
    // The first version's text kept exactly (its line endings too), in GraphQL.
    const data = await gqlOk(server.url, owner.token, 'query($id: ID!, $v: ID!) { organization(id: $id) { openAPISpec(slug: "pets") { version(id: $v) { text format content sourceURL } } } }', { id: org.id, v: first });
    expect(data.organization.openAPISpec.version).toEqual({ text: YAML('1.0.0'), format: 'yaml', content: YAML_DOCUMENT('1.0.0'), sourceURL: null });

    for (const call of [() => api.orgs.getOpenApiSpecVersionById(org.id, 'pets', 'oasv_unknown'), () => api.orgs.getOpenApiSpecVersionContentById(org.id, 'pets', 'oasv_unknown'), () => api.orgs.listOpenApiSpecVersions(org.id, 'nope')]) {
      expect((await sdkError(call())).status).toBe(404);
    }
    // A version of another specification is not one of this one's.
    await api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'cats', { source: { text: YAML('9.0.0') } } as never);
    const cats = (await processed(owner.token, org.id, 'cats')).lastVersion as string;
    expect((await sdkError(api.orgs.getOpenApiSpecVersionById(org.id, 'pets', cats))).status).toBe(404);
  });

  it('changes visibility (create role), shows the public URL of a fetched public specification; readers and other organizations', async () => {
    site = await serveSite({ '/pets.yaml': { type: 'application/yaml', body: YAML('3.0.0') } });
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const url = `${site.url}/pets.yaml`;
    await api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'pets', { source: { url } } as never);
    await processed(owner.token, org.id, 'pets');
    const version = (await api.orgs.getLatestOpenApiSpecVersion(org.id, 'pets')).data;
    expect(version.url).toBe(url);

    const updated = await api.orgs.updateOpenApiSpecBySlug(org.id, 'pets', { visibility: 'public' as never });
    expectDocumented('PATCH', BASE, '200', updated.data);
    expect(updated.data.visibility).toBe('public');
    expect((await api.orgs.getOpenApiSpecBySlug(org.id, 'pets')).data.visibility).toBe('public');
    const content = (await api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'pets')).data;
    expect(content.urls).toEqual({ source: url, public: url });
    expect(updated.data.urls.published).toBe(url);
    expect(await server.db.outboxEvent.count({ where: { organizationId: org.id, kind: 'openApiSpecUpdated' } })).toBe(1);
    // The same visibility again changes nothing (no event).
    await api.orgs.updateOpenApiSpecBySlug(org.id, 'pets', { visibility: 'public' as never });
    expect(await server.db.outboxEvent.count({ where: { organizationId: org.id, kind: 'openApiSpecUpdated' } })).toBe(1);

    for (const body of [{ visibility: 'published' }, {}, { visibility: null }]) {
      const answer = await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}/openapi/pets`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toContain('visibility');
    }
    expect((await sdkError(api.orgs.updateOpenApiSpecBySlug(org.id, 'nope', { visibility: 'private' as never }))).status).toBe(404);

    const editor = await createActor(server.db, { org: org.id, role: 'edit' });
    const editorApi = sdk(server.url, editor.token);
    expect((await editorApi.orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'pets')).data.format).toBe('yaml');
    expect((await sdkError(editorApi.orgs.updateOpenApiSpecBySlug(org.id, 'pets', { visibility: 'private' as never }))).status).toBe(403);
    const creator = await createActor(server.db, { org: org.id, role: 'create' });
    expect((await sdk(server.url, creator.token).orgs.updateOpenApiSpecBySlug(org.id, 'pets', { visibility: 'private' as never })).data.visibility).toBe('private');
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    expect((await sdkError(sdk(server.url, guest.token).orgs.getLatestOpenApiSpecVersion(org.id, 'pets'))).status).toBe(403);

    const other = await createOrg(server.db);
    const stranger = sdk(server.url, other.owner.token);
    for (const call of [
      () => stranger.orgs.listOpenApiSpecVersions(org.id, 'pets'),
      () => stranger.orgs.getLatestOpenApiSpecVersion(org.id, 'pets'),
      () => stranger.orgs.getLatestOpenApiSpecVersionContent(org.id, 'pets'),
      () => stranger.orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'pets'),
      () => stranger.orgs.getOpenApiSpecVersionById(org.id, 'pets', version.id),
      () => stranger.orgs.getOpenApiSpecVersionContentById(org.id, 'pets', version.id),
      () => stranger.orgs.updateOpenApiSpecBySlug(org.id, 'pets', { visibility: 'public' as never }),
    ]) {
      expect((await sdkError(call())).status).toBe(404);
    }
  });
});
