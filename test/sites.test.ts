/**
 * Sites through the public SDK: creating, listing, updating, publishing and deleting them; site
 * spaces and sections with their rules (one default each, kept true on add, move and delete;
 * where a space goes; unique paths; conditions); share links; customization (the full record,
 * and a site space's override); and access — members read, admins manage, another organization
 * gets 404 on every path.
 */
import { describe, expect, it } from 'vitest';
import { http, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

async function setup(spaceTitles = ['Guide', 'API', 'Changelog']) {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const spaces = [];
  for (const title of spaceTitles) spaces.push((await api.orgs.createSpace(org.id, { title })).data);
  return { org, owner, api, spaces };
}

describe('sites', () => {
  it('creates a site with spaces at its root, lists, updates, publishes, unpublishes and deletes it', async () => {
    const { org, api, spaces } = await setup();
    const created = await api.orgs.createSite(org.id, { title: 'Docs', visibility: 'unlisted' as never, spaces: [spaces[0].id, spaces[1].id] } as never);
    expect(created.status).toBe(201);
    const site = created.data;
    expect(site).toMatchObject({ object: 'site', title: 'Docs', visibility: 'unlisted', published: false, siteSpaces: 2, permissions: { admin: true, view: true } });
    expect(site.urls.published).toBeUndefined();

    const list = (await api.orgs.listSites(org.id)).data;
    expect(list.items.map((s) => s.id)).toEqual([site.id]);
    expect(list.count).toBe(1);

    const updated = (await api.orgs.updateSiteById(org.id, site.id, { title: 'Handbook', visibility: 'share-link' as never })).data;
    expect(updated).toMatchObject({ title: 'Handbook', visibility: 'share-link' });
    const published = (await api.orgs.publishSite(org.id, site.id)).data as { published: boolean; urls: { published?: string } };
    expect(published.published).toBe(true);
    expect(published.urls.published).toMatch(new RegExp(`/sites/${site.id}/$`));
    expect(((await api.orgs.unpublishSite(org.id, site.id)).data as { published: boolean }).published).toBe(false);

    const structure = (await api.orgs.getSiteStructure(org.id, site.id)).data;
    expect(structure.type).toBe('siteSpaces');
    expect((structure.structure as { space: { id: string }; default: boolean }[]).map((s) => [s.space.id, s.default])).toEqual([
      [spaces[0].id, true],
      [spaces[1].id, false],
    ]);

    expect((await api.orgs.deleteSiteById(org.id, site.id)).status).toBe(205);
    expect((await sdkError(api.orgs.getSiteById(org.id, site.id))).status).toBe(404);
  });

  it('keeps exactly one default site space at the root and in each section, on add, move and delete', async () => {
    const { org, api, spaces } = await setup();
    const site = (await api.orgs.createSite(org.id, { title: 'Docs' })).data;
    const a = (await api.orgs.addSpaceToSite(org.id, site.id, { spaceId: spaces[0].id })).data;
    const b = (await api.orgs.addSpaceToSite(org.id, site.id, { spaceId: spaces[1].id })).data;
    expect([a.default, b.default]).toEqual([true, false]);
    expect(a.path).toBe('guide');
    expect(b.path).toBe('api');
    // Moved before the default, B stays second in rank but order changes; deleting the default hands it on.
    const moved = (await api.orgs.moveSiteSpace(org.id, site.id, b.id, { position: { before: { type: 'site-space', siteSpace: a.id } } })).data;
    expect(moved.id).toBe(b.id);
    const order = (await api.orgs.listSiteSpaces(org.id, site.id)).data.items.map((s) => s.id);
    expect(order).toEqual([b.id, a.id]);
    await api.orgs.deleteSiteSpaceById(org.id, site.id, a.id);
    const left = (await api.orgs.listSiteSpaces(org.id, site.id)).data.items;
    expect(left.map((s) => [s.id, s.default])).toEqual([[b.id, true]]);
    expect((await api.orgs.listSiteSpaces(org.id, site.id, { default: false })).data.items).toEqual([]);
  });

  it('turns the root into the first section; later spaces go to the default section; one default section always', async () => {
    const { org, api, spaces } = await setup();
    const site = (await api.orgs.createSite(org.id, { title: 'Docs', spaces: [spaces[0].id] } as never)).data;
    const first = (await api.orgs.addSectionToSite(org.id, site.id, { spaceId: spaces[1].id, title: 'Reference' } as never)).data;
    expect(first).toMatchObject({ object: 'site-section', title: 'Reference', default: true, path: 'reference' });
    // The root site space moved into it (and stays its default); the section's space was added after it.
    expect(first.siteSpaces.map((s) => [s.space.id, s.default])).toEqual([
      [spaces[0].id, true],
      [spaces[1].id, false],
    ]);
    const second = (await api.orgs.addSectionToSite(org.id, site.id, { spaceId: spaces[2].id } as never)).data;
    expect(second).toMatchObject({ title: 'Changelog', default: false });
    const added = (await api.orgs.addSpaceToSite(org.id, site.id, { spaceId: spaces[2].id })).data;
    expect(added.section).toBe(first.id); // no sectionId: the default section
    const into = (await api.orgs.addSpaceToSite(org.id, site.id, { spaceId: spaces[0].id, sectionId: second.id } as never)).data;
    expect(into.section).toBe(second.id);

    const structure = (await api.orgs.getSiteStructure(org.id, site.id)).data;
    expect(structure.type).toBe('sections');
    await api.orgs.moveSiteSection(org.id, site.id, second.id, { position: { before: { type: 'site-section', siteSection: first.id } } });
    expect((await api.orgs.listSiteSections(org.id, site.id)).data.items.map((s) => s.id)).toEqual([second.id, first.id]);
    await api.orgs.deleteSiteSectionById(org.id, site.id, first.id);
    const sections = (await api.orgs.listSiteSections(org.id, site.id)).data.items;
    expect(sections.map((s) => [s.id, s.default])).toEqual([[second.id, true]]);
  });

  it('groups sections: create with sections, rename, move, delete (the sections stay); no nesting', async () => {
    const { org, api, spaces } = await setup();
    const site = (await api.orgs.createSite(org.id, { title: 'Docs' })).data;
    const a = (await api.orgs.addSectionToSite(org.id, site.id, { spaceId: spaces[0].id } as never)).data;
    const b = (await api.orgs.addSectionToSite(org.id, site.id, { spaceId: spaces[1].id } as never)).data;
    const products = (await api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'Products', sections: [a.id, b.id] } as never)).data;
    expect(products).toMatchObject({ object: 'site-section-group', title: 'Products' });
    expect(products.sections.map((s) => s.id)).toEqual([a.id, b.id]);
    const tools = (await api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'Tools' } as never)).data;
    await api.orgs.moveSiteSectionGroup(org.id, site.id, tools.id, { position: { before: { type: 'site-section-group', siteSectionGroup: products.id } } } as never);
    expect((await api.orgs.listSiteSectionGroups(org.id, site.id)).data.items.map((g) => g.id)).toEqual([tools.id, products.id]);
    expect((await api.orgs.updateSiteSectionGroupById(org.id, site.id, products.id, { title: 'Our products' } as never)).data.title).toBe('Our products');
    expect((await sdkError(api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'Nested', parent: products.id } as never))).message).toContain('"parent"');
    expect((await sdkError(api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'Bad', sections: ['sitesc_nope'] } as never))).message).toContain('"sections"');
    expect((await api.orgs.deleteSiteSectionGroupById(org.id, site.id, products.id)).status).toBe(205);
    expect((await api.orgs.listSiteSections(org.id, site.id)).data.items.map((s) => [s.id, s.sectionGroup])).toEqual([
      [a.id, undefined],
      [b.id, undefined],
    ]);
  });

  it('validates paths, conditions and titles with a 400 naming the field', async () => {
    const { org, api, spaces } = await setup();
    const site = (await api.orgs.createSite(org.id, { title: 'Docs' })).data;
    const a = (await api.orgs.addSpaceToSite(org.id, site.id, { spaceId: spaces[0].id })).data;
    const b = (await api.orgs.addSpaceToSite(org.id, site.id, { spaceId: spaces[1].id })).data;
    const patch = (id: string, body: unknown) => api.orgs.updateSiteSpaceById(org.id, site.id, id, body as never);
    expect((await sdkError(patch(b.id, { path: a.path }))).message).toContain('"path"');
    expect((await sdkError(patch(b.id, { path: 'has/slash' }))).message).toContain('"path"');
    expect((await sdkError(patch(b.id, { condition: 'process.exit()' }))).message).toContain('"condition"');
    const withCondition = (await patch(b.id, { condition: 'visitor.claims.plan == "pro"' })).data;
    expect(withCondition.condition).toBe('visitor.claims.plan == "pro"');
    expect((await patch(b.id, { path: 'reference' })).data).toMatchObject({ path: 'reference', condition: 'visitor.claims.plan == "pro"' }); // omitted keeps
    expect((await patch(b.id, { condition: null })).data.condition).toBeUndefined(); // null removes
    expect((await sdkError(api.orgs.updateSiteById(org.id, site.id, { title: 'x' }))).message).toContain('"title"');
    expect((await sdkError(api.orgs.createSiteShareLink(org.id, site.id, { name: 'n'.repeat(51) }))).message).toContain('"name"');
  });

  it('manages share links: create, list, deactivate, rename, delete; the published URL carries the key', async () => {
    const { org, api } = await setup([]);
    const site = (await api.orgs.createSite(org.id, { title: 'Docs', visibility: 'share-link' as never })).data;
    await api.orgs.publishSite(org.id, site.id);
    const link = (await api.orgs.createSiteShareLink(org.id, site.id, { name: 'Partners' })).data;
    expect(link).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
    expect(link.urls.published).toMatch(/\?shareKey=[\w-]{20,}$/);
    const off = (await api.orgs.updateSiteShareLinkById(org.id, site.id, link.id, { active: false, name: 'Old partners' })).data;
    expect(off).toMatchObject({ active: false, name: 'Old partners' });
    expect((await api.orgs.listSiteShareLinks(org.id, site.id)).data.items.map((l) => l.id)).toEqual([link.id]);
    // Lists resolve published URLs for a share-link visitor when given the key.
    const key = new URL(link.urls.published!).searchParams.get('shareKey')!;
    const spaceOfOrg = (await api.orgs.createSpace(org.id, { title: 'Shared' })).data;
    await api.orgs.addSpaceToSite(org.id, site.id, { spaceId: spaceOfOrg.id });
    const listed = (await api.orgs.listSiteSpaces(org.id, site.id, { shareKey: key } as never)).data.items;
    expect(listed[0].urls.published).toContain(`?shareKey=${key}`);
    expect((await api.orgs.listSiteSpaces(org.id, site.id)).data.items[0].urls.published).not.toContain('shareKey');
    expect((await api.orgs.deleteSiteShareLinkById(org.id, site.id, link.id)).status).toBe(205);
    expect((await api.orgs.listSiteShareLinks(org.id, site.id)).data.items).toEqual([]);
  });

  it('reads and replaces the customization; a site space overrides it field by field', async () => {
    const { org, api, spaces } = await setup(['Guide']);
    const site = (await api.orgs.createSite(org.id, { title: 'Docs' })).data;
    const ss = (await api.orgs.addSpaceToSite(org.id, site.id, { spaceId: spaces[0].id })).data;
    const current = (await api.orgs.getSiteCustomizationById(org.id, site.id)).data as Record<string, any>;
    expect(current.styling).toBeDefined();
    const replaced = (await api.orgs.updateSiteCustomizationById(org.id, site.id, { ...current, title: 'Custom title', styling: { ...current.styling, primaryColor: { light: '#ff0000', dark: '#00ff00' } } } as never)).data as Record<string, any>;
    expect(replaced.styling.primaryColor).toEqual({ light: '#ff0000', dark: '#00ff00' });
    const bad = await sdkError(api.orgs.updateSiteCustomizationById(org.id, site.id, { ...current, styling: { ...current.styling, theme: 'no-such-theme' } } as never));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('styling.theme');

    const overridden = (await api.orgs.overrideSiteSpaceCustomizationById(org.id, site.id, ss.id, { title: 'Guide site' } as never)).data as Record<string, any>;
    expect(overridden.title).toBe('Guide site');
    expect(overridden.styling.primaryColor).toEqual({ light: '#ff0000', dark: '#00ff00' });
    const unset = (await api.orgs.overrideSiteSpaceCustomizationById(org.id, site.id, ss.id, { title: null } as never)).data as Record<string, any>;
    expect(unset.title).toBe('Custom title'); // falls back to the site's
    expect((await api.orgs.deleteSiteSpaceCustomizationById(org.id, site.id, ss.id)).status).toBe(205);
    expect(((await api.orgs.getSiteSpaceCustomizationById(org.id, site.id, ss.id)).data as Record<string, any>).title).toBe('Custom title');
  });

  it('lets members with a role read sites and admins manage them; guests and other organizations get 404 on every path', async () => {
    const { org, api, spaces } = await setup(['Guide']);
    const site = (await api.orgs.createSite(org.id, { title: 'Docs', spaces: [spaces[0].id] } as never)).data;
    const ss = (await api.orgs.listSiteSpaces(org.id, site.id)).data.items[0];
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    const stranger = await createOrg(server.db);
    const asReader = sdk(server.url, reader.token);
    expect((await asReader.orgs.getSiteById(org.id, site.id)).data.permissions.admin).toBe(false);
    expect((await sdkError(asReader.orgs.updateSiteById(org.id, site.id, { title: 'Mine' }))).status).toBe(403);
    expect((await sdkError(asReader.orgs.createSite(org.id, { title: 'Mine' }))).status).toBe(403);

    const base = `/orgs/${org.id}/sites/${site.id}`;
    const section = (await api.orgs.addSectionToSite(org.id, site.id, { spaceId: spaces[0].id } as never)).data;
    const group = (await api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'Group' } as never)).data;
    const link = (await api.orgs.createSiteShareLink(org.id, site.id, { name: 'Link' })).data;
    const customization = (await api.orgs.getSiteCustomizationById(org.id, site.id)).data;
    const team = (await api.orgs.createOrganizationTeam(org.id, { title: 'Crew' })).data;
    const external = { kind: 'external' as const, url: 'https://example.com' };
    const redirect = (await api.orgs.createSiteRedirect(org.id, site.id, { source: '/old', destination: external })).data;
    const externalLink = (await api.orgs.addExternalLinkToSite(org.id, site.id, { title: 'Blog', url: 'https://blog.example.com' })).data;
    // Every site path of the route table, with a body that would succeed for an admin.
    const paths: [string, string, unknown?][] = [
      ['GET', base],
      ['PATCH', base, { title: 'Stolen' }],
      ['DELETE', base],
      ['POST', `${base}/publish`],
      ['POST', `${base}/unpublish`],
      ['GET', `${base}/structure`],
      ['GET', `${base}/published`],
      ['GET', `${base}/publishing/auth`],
      ['GET', `${base}/customization`],
      ['PUT', `${base}/customization`, customization],
      ['GET', `${base}/share-links`],
      ['POST', `${base}/share-links`, { name: 'x' }],
      ['PATCH', `${base}/share-links/${link.id}`, { active: false }],
      ['DELETE', `${base}/share-links/${link.id}`],
      ['GET', `${base}/sections`],
      ['POST', `${base}/sections`, { spaceId: spaces[0].id }],
      ['PATCH', `${base}/sections/${section.id}`, { title: 'Stolen' }],
      ['POST', `${base}/sections/${section.id}/move`, {}],
      ['DELETE', `${base}/sections/${section.id}`],
      ['GET', `${base}/section-groups`],
      ['POST', `${base}/section-groups`, { title: 'x' }],
      ['PATCH', `${base}/section-groups/${group.id}`, { title: 'Stolen' }],
      ['POST', `${base}/section-groups/${group.id}/move`, {}],
      ['DELETE', `${base}/section-groups/${group.id}`],
      ['GET', `${base}/site-spaces`],
      ['POST', `${base}/site-spaces`, { spaceId: spaces[0].id }],
      ['PATCH', `${base}/site-spaces/${ss.id}`, { path: 'stolen' }],
      ['POST', `${base}/site-spaces/${ss.id}/move`, {}],
      ['DELETE', `${base}/site-spaces/${ss.id}`],
      ['GET', `${base}/site-spaces/${ss.id}/customization`],
      ['PATCH', `${base}/site-spaces/${ss.id}/customization`, { title: 'Stolen' }],
      ['DELETE', `${base}/site-spaces/${ss.id}/customization`],
      ['POST', `${base}/permissions`, { role: 'admin', users: [reader.id] }],
      ['GET', `${base}/permissions/users`],
      ['PATCH', `${base}/permissions/users/${reader.id}`, { role: 'admin' }],
      ['DELETE', `${base}/permissions/users/${reader.id}`],
      ['GET', `${base}/permissions/teams`],
      ['PATCH', `${base}/permissions/teams/${team.id}`, { role: 'admin' }],
      ['DELETE', `${base}/permissions/teams/${team.id}`],
      ['GET', `${base}/permissions/aggregate`],
      ['POST', `${base}/search`, { query: 'docs' }],
      ['PATCH', `${base}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://example.com/login' }],
      ['POST', `${base}/publishing/auth/regenerate`],
      ['GET', `${base}/publishing/preview`],
      ['PATCH', `${base}/structure/sort`, { item: { type: 'site-space', id: ss.id }, position: {} }],
      ['POST', `${base}/site-spaces/${ss.id}/duplicate`, {}],
      ['GET', `${base}/redirects`],
      ['POST', `${base}/redirects`, { source: '/new', destination: external }],
      ['PUT', `${base}/redirects`, { redirects: [{ source: '/old', destination: null }] }],
      ['GET', `${base}/redirect?source=%2Fold`],
      ['PATCH', `${base}/redirects/${redirect.id}`, { permanent: true }],
      ['DELETE', `${base}/redirects/${redirect.id}`],
      ['POST', `${base}/external-links`, { title: 'Mine', url: 'https://example.com' }],
      ['PATCH', `${base}/external-links/${externalLink.id}`, { title: 'Stolen' }],
      ['DELETE', `${base}/external-links/${externalLink.id}`],
      ['POST', `${base}/search/prewarm`],
      ['GET', `${base}/adaptive-schema`],
      ['PUT', `${base}/adaptive-schema`, { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } }],
      ['GET', `${base}/adaptive-schema/template-conditions`],
      ['POST', `${base}/template`],
    ];
    const routes = (await import('../src/rest/routes/index.js')).routes.filter((r) => r.path.startsWith('/orgs/{organizationId}/sites/{siteId}'));
    expect(paths.length).toBe(routes.length);
    for (const token of [guest.token, stranger.owner.token]) {
      for (const [method, path, body] of paths) expect((await http(server.url, token, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    // The stranger's own organization does not reach it either.
    expect((await http(server.url, stranger.owner.token, 'GET', `/orgs/${stranger.org.id}/sites/${site.id}`)).status).toBe(404);
    expect((await http(server.url, stranger.owner.token, 'PATCH', `/orgs/${stranger.org.id}/sites/${site.id}`, { title: 'Mine' })).status).toBe(404);
    expect((await api.orgs.getSiteById(org.id, site.id)).data.title).toBe('Docs');
    expect((await api.orgs.listSiteShareLinks(org.id, site.id)).data.items.map((l) => [l.id, l.active])).toEqual([[link.id, true]]);
    expect((await api.orgs.listSiteSpaces(org.id, site.id)).data.items.map((s) => s.path)).not.toContain('stolen');
  });
});
