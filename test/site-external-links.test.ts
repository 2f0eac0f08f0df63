/**
 * External links of a site's navigation through the public SDK, answers validated against the
 * public document: add (root, section group), update (move to the root, draft), delete
 * (205/204); shown in the structure, the published structure (drafts left out) and a section
 * group's children; validation (a 400 naming the field; a site without sections); roles; another
 * organization (404); events; and the published site's section tabs (plain HTTP).
 */
import { describe, expect, it } from 'vitest';
import { gql, http, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { expectDocumented } from './helpers/documented.js';
import { useServer } from './helpers/server.js';

const server = useServer();
const LINKS = '/orgs/{organizationId}/sites/{siteId}/external-links';

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const spaces = [];
  for (const title of ['Guide', 'API']) {
    const space = (await api.orgs.createSpace(org.id, { title })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Content' })).data;
    await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: `# Intro\n\nAbout ${title}.\n` } }] });
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    spaces.push(space);
  }
  const site = (await api.orgs.createSite(org.id, { title: 'Docs', spaces: [spaces[0].id] } as never)).data;
  return { org, owner, api, spaces, site };
}

describe('site external links', () => {
  it('answers the Location of a new link, honours Prefer: return=minimal, and sorts links among their siblings', async () => {
    const { org, api, spaces, site, owner } = await setup();
    await api.orgs.addSectionToSite(org.id, site.id, { spaceId: spaces[1].id, title: 'API' } as never);
    const add = async (title: string) => {
      const response = await fetch(`${server.url}/v1/orgs/${org.id}/sites/${site.id}/external-links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title, url: `https://${title.toLowerCase()}.example.com` }),
      });
      const link = await response.json();
      expect(response.status, JSON.stringify(link)).toBe(201);
      expect(response.headers.get('location')).toMatch(new RegExp(`/v1/orgs/${org.id}/sites/${site.id}/external-links/${link.id}$`));
      return link as { id: string };
    };
    const [a, b, c] = [await add('Alpha'), await add('Beta'), await add('Gamma')];
    const minimal = await fetch(`${server.url}/v1/orgs/${org.id}/sites/${site.id}/external-links/${b.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', prefer: 'return=minimal' },
      body: JSON.stringify({ title: 'Bee' }),
    });
    expect(minimal.status).toBe(204);
    expect(minimal.headers.get('preference-applied')).toBe('return=minimal');
    const order = async () =>
      ((await api.orgs.getSiteStructure(org.id, site.id)).data.structure as { object: string; id: string }[]).filter((i) => i.object === 'site-external-link').map((i) => i.id);
    expect(await order()).toEqual([a.id, b.id, c.id]);
    const sorted = await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}/sites/${site.id}/structure/sort`, {
      item: { type: 'site-external-link', id: c.id },
      position: { before: { type: 'site-external-link', id: a.id } },
    });
    expect(sorted.status).toBe(200);
    expect(sorted.body).toMatchObject({ object: 'site-external-link', id: c.id });
    expect(await order()).toEqual([c.id, a.id, b.id]);
    // At the end when no position is given; a section is not a sibling of a link.
    await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}/sites/${site.id}/structure/sort`, { item: { type: 'site-external-link', id: c.id } });
    expect(await order()).toEqual([a.id, b.id, c.id]);
    const sections = (await api.orgs.listSiteSections(org.id, site.id)).data.items;
    const mixed = await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}/sites/${site.id}/structure/sort`, {
      item: { type: 'site-external-link', id: a.id },
      position: { after: { type: 'site-section', id: sections[0].id } },
    });
    expect(mixed.status).toBe(400);
    expect((await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}/sites/${site.id}/structure/sort`, { item: { type: 'site-external-link', id: 'sitelink_nope' } })).status).toBe(404);
  });

  it('adds, updates and deletes links, shown in the structure and in section groups, as documented', async () => {
    const { org, api, spaces, site, owner } = await setup();
    // A site with site spaces at its root has no navigation beside sections: 400.
    const flat = await sdkError(api.orgs.addExternalLinkToSite(org.id, site.id, { title: 'Blog', url: 'https://blog.example.com' }));
    expect(flat.status).toBe(400);
    await api.orgs.addSectionToSite(org.id, site.id, { spaceId: spaces[1].id, title: 'API' } as never);
    const group = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites/${site.id}/section-groups`, { title: 'More' })).body;

    const created = await api.orgs.addExternalLinkToSite(org.id, site.id, { title: 'Blog', url: 'https://blog.example.com', description: 'News', icon: 'newspaper' });
    expect(created.status).toBe(201);
    expectDocumented('post', LINKS, '201', created.data);
    expect(created.data).toMatchObject({ object: 'site-external-link', title: 'Blog', url: 'https://blog.example.com', draft: false, description: 'News' });
    const grouped = (await api.orgs.addExternalLinkToSite(org.id, site.id, { title: 'Status', url: 'https://status.example.com', parent: group.id, condition: 'visitor.claims.staff == true' })).data;
    expect(grouped.sectionGroup).toBe(group.id);

    const structure = (await api.orgs.getSiteStructure(org.id, site.id)).data;
    expectDocumented('get', '/orgs/{organizationId}/sites/{siteId}/structure', '200', structure);
    const items = structure.structure as { object: string; id: string }[];
    expect(items.filter((i) => i.object === 'site-external-link').map((i) => i.id)).toEqual([created.data.id, grouped.id]);
    const groups = (await http(server.url, owner.token, 'GET', `/orgs/${org.id}/sites/${site.id}/section-groups`)).body;
    expectDocumented('get', '/orgs/{organizationId}/sites/{siteId}/section-groups', '200', groups);
    expect(groups.items[0].children.map((c: { id: string }) => c.id)).toEqual([grouped.id]);

    const updated = await api.orgs.updateSiteExternalLinkById(org.id, site.id, grouped.id, { parent: null, draft: true, title: 'Status page' });
    expectDocumented('patch', `${LINKS}/{siteExternalLinkId}`, '200', updated.data);
    expect(updated.data).toMatchObject({ title: 'Status page', draft: true });
    expect(updated.data.sectionGroup).toBeUndefined();
    // The published structure leaves drafts out.
    const published = (await http(server.url, owner.token, 'GET', `/orgs/${org.id}/sites/${site.id}/published`)).body;
    expect(published.structure.structure.filter((i: { object: string }) => i.object === 'site-external-link').map((i: { id: string }) => i.id)).toEqual([created.data.id]);

    expect((await api.orgs.deleteSiteExternalLinkById(org.id, site.id, grouped.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteExternalLinkById(org.id, site.id, grouped.id)).status).toBe(204);
    expect((await sdkError(api.orgs.updateSiteExternalLinkById(org.id, site.id, grouped.id, { title: 'Gone' }))).status).toBe(404);

    const events = await server.db.outboxEvent.findMany({ where: { organizationId: org.id, kind: { startsWith: 'siteExternalLink' } }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => [e.kind, e.subjectId, e.siteId])).toEqual([
      ['siteExternalLinkCreated', created.data.id, site.id],
      ['siteExternalLinkCreated', grouped.id, site.id],
      ['siteExternalLinkUpdated', grouped.id, site.id],
      ['siteExternalLinkDeleted', grouped.id, site.id],
    ]);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const { org, api, spaces, site } = await setup();
    await api.orgs.addSectionToSite(org.id, site.id, { spaceId: spaces[1].id, title: 'API' } as never);
    const bad = async (body: unknown) => sdkError(api.orgs.addExternalLinkToSite(org.id, site.id, body as never));
    expect(await bad({ title: 'Blog' })).toMatchObject({ status: 400, message: expect.stringContaining('"url"') });
    expect(await bad({ title: 'Blog', url: 'ftp://example.com' })).toMatchObject({ status: 400, message: expect.stringContaining('"url"') });
    expect(await bad({ title: 'B', url: 'https://example.com' })).toMatchObject({ status: 400, message: expect.stringContaining('"title"') });
    expect(await bad({ title: 'Blog', url: 'https://example.com', parent: 'sitesg_nope' })).toMatchObject({ status: 400, message: expect.stringContaining('"parent"') });
    expect(await bad({ title: 'Blog', url: 'https://example.com', condition: 'constructor.constructor("x")()' })).toMatchObject({ status: 400, message: expect.stringContaining('condition') });
    expect(await bad({ title: 'Blog', url: 'https://example.com', localizedTitle: { fr: 'Blogue' } })).toMatchObject({ status: 400, message: expect.stringContaining('localizedTitle') });
    expect((await api.orgs.getSiteStructure(org.id, site.id)).data.structure.some((i) => (i as { object: string }).object === 'site-external-link')).toBe(false);
  });

  it('lets admins write; other members get 403; another organization 404', async () => {
    const { org, api, spaces, site } = await setup();
    await api.orgs.addSectionToSite(org.id, site.id, { spaceId: spaces[1].id, title: 'API' } as never);
    const link = (await api.orgs.addExternalLinkToSite(org.id, site.id, { title: 'Blog', url: 'https://blog.example.com' })).data;
    const editorToken = (await createActor(server.db, { org: org.id, role: 'edit' })).token;
    const editor = sdk(server.url, editorToken);
    const node = 'query($id: ID!) { node(id: $id) { ... on SiteExternalLink { url } } }';
    expect((await gql(server.url, editorToken, node, { id: link.id })).data?.node).toEqual({ url: 'https://blog.example.com' });
    expect((await sdkError(editor.orgs.addExternalLinkToSite(org.id, site.id, { title: 'Mine', url: 'https://example.com' }))).status).toBe(403);
    expect((await sdkError(editor.orgs.updateSiteExternalLinkById(org.id, site.id, link.id, { title: 'Mine' }))).status).toBe(403);
    expect((await sdkError(editor.orgs.deleteSiteExternalLinkById(org.id, site.id, link.id))).status).toBe(403);
    const strangerToken = (await createOrg(server.db)).owner.token;
    const stranger = sdk(server.url, strangerToken);
    expect((await gql(server.url, strangerToken, node, { id: link.id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    for (const call of [
      () => stranger.orgs.addExternalLinkToSite(org.id, site.id, { title: 'Mine', url: 'https://example.com' }),
      () => stranger.orgs.updateSiteExternalLinkById(org.id, site.id, link.id, { title: 'Mine' }),
      () => stranger.orgs.deleteSiteExternalLinkById(org.id, site.id, link.id),
    ]) expect((await sdkError(call())).status).toBe(404);
    expect(((await api.orgs.getSiteStructure(org.id, site.id)).data.structure as { id: string; title: string }[]).find((i) => i.id === link.id)?.title).toBe('Blog');
  });

  it('shows live links among the published site\'s section tabs, by the visitor\'s conditions', async () => {
    const { org, api, spaces, site } = await setup();
    await api.orgs.addSectionToSite(org.id, site.id, { spaceId: spaces[1].id, title: 'API' } as never);
    await api.orgs.addExternalLinkToSite(org.id, site.id, { title: 'Our blog', url: 'https://blog.example.com/' });
    await api.orgs.addExternalLinkToSite(org.id, site.id, { title: 'Draft link', url: 'https://draft.example.com/', draft: true });
    await api.orgs.addExternalLinkToSite(org.id, site.id, { title: 'Staff only', url: 'https://staff.example.com/', condition: 'visitor.claims.staff == true' });
    await api.orgs.publishSite(org.id, site.id);
    const page = await (await fetch(`${server.url}/sites/${site.id}/`)).text();
    expect(page).toContain('href="https://blog.example.com/"');
    expect(page).toContain('Our blog');
    expect(page).not.toContain('draft.example.com');
    expect(page).not.toContain('staff.example.com');
  });
});
