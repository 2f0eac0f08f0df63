/**
 * Through the public SDK, answers validated against the public document: a site's visitor
 * attributes schema (404 before one is set, PUT validated against `SiteAdaptiveJSONSchema` with
 * 400s naming the field, the condition templates derived from it, which the condition evaluator
 * accepts), `prewarmSiteSearch` (204 after the search's access check), and quire's default
 * template applied to a space's content, a change request and an empty site; roles, another
 * organization's token (404), events.
 */
import { describe, expect, it } from 'vitest';
import { evaluateCondition, validateCondition } from '../src/domain/publishing/sites/visitors/condition.js';
import { gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { expectDocumented } from './helpers/documented.js';
import { useServer } from './helpers/server.js';

const server = useServer();
const SCHEMA = '/orgs/{organizationId}/sites/{siteId}/adaptive-schema';

const jsonSchema = {
  type: 'object',
  properties: {
    plan: { type: 'string', enum: ['free', 'pro'], description: 'The visitor\'s plan.' },
    beta: { type: 'boolean', description: 'Beta tester' },
    seats: { type: 'number', description: 'Seats' },
    products: { type: 'array', description: 'Products', items: { type: 'string', enum: ['api', 'cli'], description: 'A product' } },
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { lang: { type: 'string', enum: ['en'], description: 'Language' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Guide' })).data;
  const site = (await api.orgs.createSite(org.id, { title: 'Docs', spaces: [space.id] } as never)).data;
  return { org, owner, api, space, site };
}

const pageTitles = async (api: ReturnType<typeof sdk>, spaceId: string) => ((await api.spaces.listPages(spaceId)).data.pages as { title: string }[]).map((p) => p.title);

describe('adaptive content schema', () => {
  it('is 404 until set, then read and replaced as documented, with condition templates', async () => {
    const { org, owner, api, site } = await setup();
    expect((await sdkError(api.orgs.getSiteAdaptiveSchema(org.id, site.id))).status).toBe(404);
    const none = await api.orgs.listSiteAdaptiveTemplateConditions(org.id, site.id);
    expect(none.data).toEqual({ items: [] });

    const put = await api.orgs.updateSiteAdaptiveSchema(org.id, site.id, { jsonSchema } as never);
    expect(put.status).toBe(200);
    expectDocumented('put', SCHEMA, '200', put.data);
    expect(put.data).toMatchObject({ object: 'site-adaptive-schema', jsonSchema });
    const got = await api.orgs.getSiteAdaptiveSchema(org.id, site.id);
    expectDocumented('get', SCHEMA, '200', got.data);
    expect(got.data).toEqual(put.data);

    const listed = await api.orgs.listSiteAdaptiveTemplateConditions(org.id, site.id);
    expectDocumented('get', `${SCHEMA}/template-conditions`, '200', listed.data);
    expect(listed.data.items.map((i) => i.condition)).toEqual([
      'visitor.claims.plan === "free"',
      'visitor.claims.plan === "pro"',
      'visitor.claims.beta === true',
      'visitor.claims.seats != null',
      'visitor.claims.products.includes("api")',
      'visitor.claims.products.includes("cli")',
      'visitor.claims.unsigned.lang === "en"',
    ]);
    expect(listed.data.items[0].description).toBe("The visitor's plan: free");
    // Each is a condition quire accepts, and decides as it says.
    for (const { condition } of listed.data.items) expect(() => validateCondition(condition, 'condition')).not.toThrow();
    const claims = { plan: 'pro', products: ['cli'], unsigned: { lang: 'en' } };
    expect(listed.data.items.map(({ condition }) => evaluateCondition(condition, { visitor: { claims } }))).toEqual([false, true, false, false, false, true, true]);

    const event = await server.db.outboxEvent.findFirst({ where: { organizationId: org.id, kind: 'siteAdaptiveSchemaUpdated' } });
    expect(event).toMatchObject({ siteId: site.id, subjectId: site.id });

    // GraphQL reads the same.
    const data = await gqlOk(server.url, owner.token, 'query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { adaptiveSchema { jsonSchema } adaptiveTemplateConditions { condition } } } }', { o: org.id, s: site.id });
    expect(data.organization.site.adaptiveSchema.jsonSchema).toEqual(jsonSchema);
    expect(data.organization.site.adaptiveTemplateConditions).toHaveLength(7);
  });

  it('refuses schemas not of the documented shape with a 400 naming the field', async () => {
    const { org, api, site } = await setup();
    const bad = async (body: unknown) => {
      const error = await sdkError(api.orgs.updateSiteAdaptiveSchema(org.id, site.id, body as never));
      expect(error.status).toBe(400);
      return error.message;
    };
    expect(await bad({})).toContain('"jsonSchema"');
    expect(await bad({ jsonSchema: { ...jsonSchema, extra: 1 } })).toContain('"jsonSchema"');
    expect(await bad({ jsonSchema: { ...jsonSchema, properties: { plan: { type: 'string', enum: ['a'] } } } })).toContain('"jsonSchema.properties.plan"');
    expect(await bad({ jsonSchema: { ...jsonSchema, properties: { when: { type: 'date', description: 'x' } } } })).toContain('"jsonSchema.properties.when.type"');
    expect(await bad({ jsonSchema, other: true })).toContain('"other"');
    const huge = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`claim${i}`, { type: 'boolean', description: 'x'.repeat(30) }]));
    expect(await bad({ jsonSchema: { ...jsonSchema, properties: huge } })).toContain('bytes');
    let deep: Record<string, unknown> = { type: 'boolean', description: 'leaf' };
    for (let i = 0; i < 12; i++) deep = { type: 'object', description: 'level', properties: { next: deep }, additionalProperties: false };
    expect(await bad({ jsonSchema: { ...jsonSchema, properties: { deep } } })).toContain('deep');
    expect((await sdkError(api.orgs.getSiteAdaptiveSchema(org.id, site.id))).status).toBe(404);
  });

  it('lets members read, admins write; another organization 404', async () => {
    const { org, api, site } = await setup();
    await api.orgs.updateSiteAdaptiveSchema(org.id, site.id, { jsonSchema } as never);
    const editor = sdk(server.url, (await createActor(server.db, { org: org.id, role: 'edit' })).token);
    expect((await editor.orgs.getSiteAdaptiveSchema(org.id, site.id)).status).toBe(200);
    expect((await editor.orgs.listSiteAdaptiveTemplateConditions(org.id, site.id)).data.items.length).toBe(7);
    expect((await sdkError(editor.orgs.updateSiteAdaptiveSchema(org.id, site.id, { jsonSchema } as never))).status).toBe(403);
    // The site's permissions say who may edit the schema.
    expect((await api.orgs.getSiteById(org.id, site.id)).data.permissions).toMatchObject({ viewAdaptiveSchema: true, editAdaptiveSchema: true });
    expect((await editor.orgs.getSiteById(org.id, site.id)).data.permissions).toMatchObject({ viewAdaptiveSchema: true, editAdaptiveSchema: false });
    const guest = sdk(server.url, (await createActor(server.db, { org: org.id, role: 'guest' })).token);
    expect([403, 404]).toContain((await sdkError(guest.orgs.getSiteAdaptiveSchema(org.id, site.id))).status);

    const other = await createOrg(server.db, 'Other');
    const stranger = sdk(server.url, other.owner.token);
    for (const call of [
      () => stranger.orgs.getSiteAdaptiveSchema(org.id, site.id),
      () => stranger.orgs.listSiteAdaptiveTemplateConditions(org.id, site.id),
      () => stranger.orgs.updateSiteAdaptiveSchema(org.id, site.id, { jsonSchema } as never),
      () => stranger.orgs.getSiteAdaptiveSchema(other.org.id, site.id),
      () => stranger.orgs.updateSiteAdaptiveSchema(other.org.id, site.id, { jsonSchema } as never),
      () => stranger.orgs.prewarmSiteSearch(org.id, site.id),
      () => stranger.orgs.applyTemplateToSite(org.id, site.id),
    ]) expect((await sdkError(call())).status).toBe(404);
  });
});

describe('site search prewarm', () => {
  it('answers 204 to who may search the site', async () => {
    const { org, api, site } = await setup();
    const answer = await api.orgs.prewarmSiteSearch(org.id, site.id);
    expect(answer.status).toBe(204);
    const reader = sdk(server.url, (await createActor(server.db, { org: org.id, role: 'read' })).token);
    expect((await reader.orgs.prewarmSiteSearch(org.id, site.id)).status).toBe(204);
    const guest = sdk(server.url, (await createActor(server.db, { org: org.id, role: 'guest' })).token);
    expect([403, 404]).toContain((await sdkError(guest.orgs.prewarmSiteSearch(org.id, site.id))).status);
    expect((await sdkError(api.orgs.prewarmSiteSearch(org.id, 'nosuchsite'))).status).toBe(404);
  });
});

describe('content templates', () => {
  it("applies the default template to a space's content and to a change request", async () => {
    const { org, owner, api, space } = await setup();
    const applied = await api.spaces.applyTemplateToSpace(space.id, { id: 'default' });
    expect(applied.status).toBe(201);
    const titles = await pageTitles(api, space.id);
    expect(titles).toEqual(['Welcome', 'Getting started', 'Guides', 'Reference', 'FAQ']);
    const welcome = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/content/path/welcome?format=markdown`);
    expect(welcome.status).toBe(200);
    expect(JSON.stringify(welcome.body)).toContain('Getting started');
    const event = await server.db.outboxEvent.findFirst({ where: { organizationId: org.id, kind: 'spaceTemplateApplied' } });
    expect(event).toMatchObject({ spaceId: space.id, data: { templateId: 'default' } });

    // Again: the pages are added after the ones there, with slugs of their own.
    await api.spaces.applyTemplateToSpace(space.id, { id: 'default' });
    const pages = (await api.spaces.listPages(space.id)).data.pages as { title: string; slug: string }[];
    expect(pages.length).toBe(10);
    expect(new Set(pages.map((p) => p.slug)).size).toBe(10);

    // Into a change request: the space's content stays as it is until merged.
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Template' })).data;
    expect((await api.spaces.applyTemplateToSpace(space.id, { id: 'default', changeRequestId: cr.id })).status).toBe(201);
    expect((await api.spaces.listPages(space.id)).data.pages.length).toBe(10);
    const crPages = (await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages;
    expect(crPages.length).toBe(15);
  });

  it('refuses unknown templates and parameters (400 naming the field), honours roles and organizations', async () => {
    const { org, api, space } = await setup();
    const bad = async (body: unknown, field: string) => {
      const error = await sdkError(api.spaces.applyTemplateToSpace(space.id, body as never));
      expect(error.status).toBe(400);
      expect(error.message).toContain(`"${field}"`);
    };
    await bad({ id: 'product-docs' }, 'id');
    await bad({}, 'id');
    await bad({ id: 'default', params: { contentRefs: { logo: { kind: 'file', file: 'x' } } } }, 'params.contentRefs');
    await bad({ id: 'default', other: 1 }, 'other');
    expect((await sdkError(api.spaces.applyTemplateToSpace(space.id, { id: 'default', changeRequestId: 'nosuchcr' }))).status).toBe(404);
    expect((await api.spaces.listPages(space.id)).data.pages.length).toBe(0);

    const reader = sdk(server.url, (await createActor(server.db, { org: org.id, role: 'read' })).token);
    expect((await sdkError(reader.spaces.applyTemplateToSpace(space.id, { id: 'default' }))).status).toBe(403);
    const editor = sdk(server.url, (await createActor(server.db, { org: org.id, role: 'edit' })).token);
    expect((await editor.spaces.applyTemplateToSpace(space.id, { id: 'default' })).status).toBe(201);
    const stranger = sdk(server.url, (await createOrg(server.db, 'Other')).owner.token);
    expect((await sdkError(stranger.spaces.applyTemplateToSpace(space.id, { id: 'default' }))).status).toBe(404);
  });

  it('fills an empty site with a new space holding the template, and only an empty one', async () => {
    const { org, api, site } = await setup();
    // Not empty: it publishes a space.
    expect((await sdkError(api.orgs.applyTemplateToSite(org.id, site.id))).status).toBe(409);

    const empty = (await api.orgs.createSite(org.id, { title: 'Help center' } as never)).data;
    const editor = sdk(server.url, (await createActor(server.db, { org: org.id, role: 'edit' })).token);
    expect((await sdkError(editor.orgs.applyTemplateToSite(org.id, empty.id))).status).toBe(403);
    const applied = await api.orgs.applyTemplateToSite(org.id, empty.id);
    expect(applied.status).toBe(200);
    const siteSpaces = (await api.orgs.listSiteSpaces(org.id, empty.id)).data;
    expectDocumented('get', '/orgs/{organizationId}/sites/{siteId}/site-spaces', '200', siteSpaces);
    expect(siteSpaces.items).toHaveLength(1);
    const spaceId = siteSpaces.items[0].space.id;
    expect((await api.spaces.getSpaceById(spaceId)).data).toMatchObject({ title: 'Help center', organization: org.id });
    expect(await pageTitles(api, spaceId)).toEqual(['Welcome', 'Getting started', 'Guides', 'Reference', 'FAQ']);
    const kinds = (await server.db.outboxEvent.findMany({ where: { organizationId: org.id, OR: [{ spaceId }, { siteId: empty.id }] }, orderBy: { seq: 'asc' } })).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['spaceCreated', 'spaceTemplateApplied', 'siteSpaceAdded']));
    // Now it is not empty.
    expect((await sdkError(api.orgs.applyTemplateToSite(org.id, empty.id))).status).toBe(409);
  });
});
