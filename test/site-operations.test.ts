/**
 * The site operations beyond plain structure writes, through the public SDK and validated against
 * the public document: searching a site's content (scopes, paging, only the site's spaces),
 * publishing auth (update, rotation — a token signed with the old key is refused by the
 * published site at once —, the fallback URL), preview links (an unpublished site opened, claims
 * read by conditions, refused when tampered with or once the user may no longer preview), sorting
 * the structure (kinds, levels, `Prefer: return=minimal`) and duplicating a site space (a new
 * section, or a variant beside it); roles, and another organization's token (404) on each.
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { gql, gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { expectDocumented, expectSchema } from './helpers/documented.js';
import { createActor, createOrg, spaceWithPages } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer({ worker: true });

const SITE = '/orgs/{organizationId}/sites/{siteId}';
const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });
/** A URL the API made (under QUIRE_PUBLIC_URL), on the test server. */
const local = (url: string) => new URL(`${new URL(url).pathname}${new URL(url).search}`, server.url).toString();

const spaceWith = (token: string, orgId: string, title: string, pages: { title: string; markdown: string }[]) => spaceWithPages(server.url, token, orgId, title, pages);

async function setup(visibility = 'public') {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const guide = await spaceWith(owner.token, org.id, 'Guide', [{ title: 'Zebras', markdown: '# Zebras\n\nStripes of the zebra herd.\n' }]);
  const api2 = await spaceWith(owner.token, org.id, 'Reference', [{ title: 'Zebra API', markdown: '# Zebra API\n\nCall the zebra endpoint.\n' }]);
  const outside = await spaceWith(owner.token, org.id, 'Internal', [{ title: 'Zebra secrets', markdown: 'Zebra notes not in the site.\n' }]);
  const site = (await api.orgs.createSite(org.id, { title: 'Docs', visibility: visibility as never, spaces: [guide.id] } as never)).data;
  await api.orgs.publishSite(org.id, site.id);
  const structure = (await api.orgs.getSiteStructure(org.id, site.id)).data.structure as { id: string }[];
  return { org, owner, api, site, guide, reference: api2, outside, guideSiteSpace: structure[0].id, base: `${server.url}/sites/${site.id}` };
}

async function roles(orgId: string) {
  const editor = await createActor(server.db, { org: orgId, role: 'edit' });
  const stranger = (await createOrg(server.db)).owner;
  return { editor, stranger };
}

describe('site search', () => {
  it('searches only the spaces the site publishes, by scope, paged, as documented', async () => {
    const { org, owner, api, site, guide, reference, outside, guideSiteSpace } = await setup();
    // Two sections: the first takes the root's guide (its default) and a variant of the reference;
    // the second holds the reference alone.
    await api.orgs.addSectionToSite(org.id, site.id, { spaceId: reference.id, title: 'Guide' } as never);
    const section = (await api.orgs.addSectionToSite(org.id, site.id, { spaceId: reference.id, title: 'Reference' } as never)).data;
    const refSiteSpace = section.siteSpaces[0].id;

    const all = await api.orgs.searchSiteContent(org.id, site.id, { query: 'zebra', scope: { mode: 'all' } } as never);
    expectDocumented('post', `${SITE}/search`, '200', all.data);
    const ids = (r: { data: { items: { id: string }[] } }) => r.data.items.map((i) => i.id).sort();
    expect(ids(all)).toEqual([guide.id, reference.id].sort());
    expect(ids(all)).not.toContain(outside.id);
    expect(all.data.items[0]).toMatchObject({ type: 'space', pages: [expect.objectContaining({ title: expect.stringContaining('Zebra') })] });

    const specific = await api.orgs.searchSiteContent(org.id, site.id, { query: 'zebra', scope: { mode: 'specific', siteSpaceIds: [refSiteSpace] } } as never);
    expect(ids(specific)).toEqual([reference.id]);
    // The deprecated forms still work.
    expect(ids(await api.orgs.searchSiteContent(org.id, site.id, { query: 'zebra', siteSpaceIds: [guideSiteSpace] } as never))).toEqual([guide.id]);
    const current = await api.orgs.searchSiteContent(org.id, site.id, { query: 'zebra', scope: { mode: 'default', currentSiteSpace: refSiteSpace, restrictTo: 'otherSiteSpaces' } } as never);
    expect(ids(current)).toEqual([guide.id]);
    expect(ids(await api.orgs.searchSiteContent(org.id, site.id, { query: 'zebra', scope: { mode: 'default', currentSiteSpace: refSiteSpace, restrictTo: 'currentSiteSpace' } } as never))).toEqual([reference.id]);
    expect(ids(await api.orgs.searchSiteContent(org.id, site.id, { query: 'zebra', scope: { mode: 'default' } } as never))).toEqual([guide.id, reference.id].sort());

    // Paged: one space a page, the next page holds the other.
    const first = await api.orgs.searchSiteContent(org.id, site.id, { query: 'zebra' } as never, { limit: 1 } as never);
    expect(first.data.items).toHaveLength(1);
    expect(first.data.count).toBe(2);
    const second = await api.orgs.searchSiteContent(org.id, site.id, { query: 'zebra' } as never, { limit: 1, page: first.data.next!.page } as never);
    expect([first.data.items[0].id, second.data.items[0].id].sort()).toEqual([guide.id, reference.id].sort());
    expect(second.data.next).toBeUndefined();

    // Documented failures: a 400 naming the field.
    const bad = async (body: unknown, field: string) => {
      const r = await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites/${site.id}/search`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(`"${field}"`);
    };
    await bad({ scope: { mode: 'all' } }, 'query');
    await bad({ query: 'x'.repeat(513) }, 'query');
    await bad({ query: 'zebra', scope: { mode: 'specific', siteSpaceIds: ['sitesp_nope'] } }, 'scope.siteSpaceIds.0');
    await bad({ query: 'zebra', scope: { mode: 'anything' } }, 'scope.mode');
    await bad({ query: 'zebra', scope: { mode: 'default', restrictTo: 'currentSiteSpace' } }, 'scope.currentSiteSpace');

    // GraphQL: the same search on the site.
    const data = await gqlOk(server.url, owner.token, 'query($id: ID!) { site(id: $id) { search(query: "zebra", scope: {mode: "specific", siteSpaceIds: ["' + refSiteSpace + '"]}) { totalCount edges { node { id pages { title } } } } } }', { id: site.id });
    expect(data.site.search.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([reference.id]);
  });

  it('lets who sees the site search it; another organization gets 404', async () => {
    const { org, site } = await setup();
    const { editor, stranger } = await roles(org.id);
    expect((await sdk(server.url, editor.token).orgs.searchSiteContent(org.id, site.id, { query: 'zebra' } as never)).status).toBe(200);
    expect((await sdkError(sdk(server.url, stranger.token).orgs.searchSiteContent(org.id, site.id, { query: 'zebra' } as never))).status).toBe(404);
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    expect((await sdkError(sdk(server.url, guest.token).orgs.searchSiteContent(org.id, site.id, { query: 'zebra' } as never))).status).toBe(404);
  });
});

describe('site publishing auth', () => {
  it('rotates the key: a visitor token signed with the old key is refused by the published site at once, cookie included', async () => {
    const { org, api, site, base } = await setup('visitor-auth');
    const before = (await api.orgs.getSitePublishingAuthById(org.id, site.id)).data;
    expectDocumented('get', `${SITE}/publishing/auth`, '200', before);
    const sign = (key: string) => new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));
    const oldToken = await sign(before.privateKey);
    const opened = await get(`${base}/?jwt_token=${oldToken}`);
    expect(opened.status).toBe(200);
    const cookie = opened.headers.get('set-cookie')!.split(';')[0];
    expect((await get(`${base}/`, { cookie })).status).toBe(200);

    const rotated = await api.orgs.regenerateSitePublishingAuthById(org.id, site.id);
    expectDocumented('post', `${SITE}/publishing/auth/regenerate`, '200', rotated.data);
    expect(rotated.data.privateKey).not.toBe(before.privateKey);
    expect((await get(`${base}/?jwt_token=${oldToken}`)).status).toBe(401);
    expect((await get(`${base}/`, { cookie })).status).toBe(401);
    expect((await get(`${base}/?jwt_token=${await sign(rotated.data.privateKey)}`)).status).toBe(200);
    expect((await api.orgs.getSitePublishingAuthById(org.id, site.id)).data.privateKey).toBe(rotated.data.privateKey);
    const events = await server.db.outboxEvent.findMany({ where: { organizationId: org.id, kind: 'sitePublishingAuthUpdated' } });
    expect(events.map((e) => [e.subjectId, e.siteId, e.data])).toEqual([[site.id, site.id, { fields: ['privateKey'], rotated: true }]]);
  });

  it('updates the fallback and sign-out URLs; a visitor without a token is sent to the fallback with the path asked for', async () => {
    const { org, owner, api, site, base } = await setup('visitor-auth');
    const updated = await api.orgs.updateSitePublishingAuthById(org.id, site.id, { backend: 'custom', fallbackURL: 'https://auth.example.com/login', logoutURL: 'https://auth.example.com/logout' });
    expectDocumented('patch', `${SITE}/publishing/auth`, '200', updated.data);
    expect(updated.data).toMatchObject({ object: 'publishing-auth', backend: 'custom', fallbackURL: 'https://auth.example.com/login', logoutURL: 'https://auth.example.com/logout' });
    // A signed-in visitor is shown the way out.
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(updated.data.privateKey));
    expect(await (await get(`${base}/?jwt_token=${token}`)).text()).toContain('href="https://auth.example.com/logout"');
    const sent = await get(`${base}/some/page`);
    expect(sent.status).toBe(302);
    expect(sent.headers.get('location')).toBe('https://auth.example.com/login?location=%2Fsome%2Fpage');

    // Omitted keeps, null unsets.
    const kept = (await api.orgs.updateSitePublishingAuthById(org.id, site.id, { backend: 'custom', logoutURL: null } as never)).data;
    expect(kept.fallbackURL).toBe('https://auth.example.com/login');
    expect(kept.logoutURL).toBeUndefined();
    await api.orgs.updateSitePublishingAuthById(org.id, site.id, { backend: 'custom', fallbackURL: null } as never);
    expect((await get(`${base}/`)).status).toBe(401);

    const bad = async (body: unknown, field: string) => {
      const r = await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}/sites/${site.id}/publishing/auth`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toEqual({ error: { code: 400, message: expect.any(String) } });
      expect(r.body.error.message).toContain(`"${field}"`);
    };
    await bad({ fallbackURL: 'https://a.example.com' }, 'backend');
    await bad({ backend: 'integration' }, 'backend');
    await bad({ backend: 'custom', fallbackURL: 'javascript:alert(1)' }, 'fallbackURL');
    await bad({ backend: 'custom', other: 1 }, 'other');
  });

  it('is for organization admins; members get 403, another organization 404; rotations are events for admins', async () => {
    const { org, site } = await setup('visitor-auth');
    const { editor, stranger } = await roles(org.id);
    const asEditor = sdk(server.url, editor.token).orgs;
    expect((await sdkError(asEditor.getSitePublishingAuthById(org.id, site.id))).status).toBe(403);
    expect((await sdkError(asEditor.regenerateSitePublishingAuthById(org.id, site.id))).status).toBe(403);
    expect((await sdkError(asEditor.updateSitePublishingAuthById(org.id, site.id, { backend: 'custom' }))).status).toBe(403);
    const asStranger = sdk(server.url, stranger.token).orgs;
    expect((await sdkError(asStranger.getSitePublishingAuthById(org.id, site.id))).status).toBe(404);
    expect((await sdkError(asStranger.regenerateSitePublishingAuthById(org.id, site.id))).status).toBe(404);
    expect((await sdkError(asStranger.updateSitePublishingAuthById(org.id, site.id, { backend: 'custom' }))).status).toBe(404);
    // Refused writes announce nothing.
    expect(await server.db.outboxEvent.count({ where: { organizationId: org.id, kind: 'sitePublishingAuthUpdated' } })).toBe(0);
  });
});

describe('site preview', () => {
  it('gives admins a signed link that opens the unpublished site, with the claims given, and nothing once tampered with', async () => {
    const { org, owner, api, site, reference, base } = await setup('visitor-auth');
    await api.orgs.unpublishSite(org.id, site.id);
    expect((await get(`${base}/`)).status).toBe(404);
    // A site space only visitors whose claims say so see.
    const extra = (await api.orgs.addSpaceToSite(org.id, site.id, { spaceId: reference.id })).data;
    await api.orgs.updateSiteSpaceById(org.id, site.id, extra.id, { condition: 'visitor.claims.plan == "pro"' } as never);

    const preview = await api.orgs.getSitePublishingPreviewById(org.id, site.id, { siteSpace: extra.id, claims: "(plan:pro,name:'Jane Doe')" });
    expectDocumented('get', `${SITE}/publishing/preview`, '200', preview.data);
    const url = new URL(local(preview.data.url));
    expect(url.pathname).toBe(`/sites/${site.id}/${extra.path}/`);
    const opened = await get(url.toString());
    expect(opened.status).toBe(200);
    expect(opened.headers.get('cache-control')).toBe('private, no-cache');
    const html = await opened.text();
    expect(html).toContain('Call the zebra endpoint.');
    expect(html).toContain('noindex');
    // The cookie carries the preview to the site's other pages.
    const cookie = opened.headers.get('set-cookie')!.split(';')[0];
    expect((await get(`${base}/`, { cookie })).status).toBe(200);

    // Without the claims, the conditional site space is not shown: its path falls to the default's pages.
    const plain = await api.orgs.getSitePublishingPreviewById(org.id, site.id, { siteSpace: extra.id });
    expect(await (await get(local(plain.data.url))).text()).not.toContain('Call the zebra endpoint.');

    const token = url.searchParams.get('preview')!;
    const tampered = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    expect((await get(`${base}/?preview=${tampered}`)).status).toBe(404);
    // Another site's preview does not open this one.
    const other = (await api.orgs.createSite(org.id, { title: 'Other' })).data;
    const otherLink = (await api.orgs.getSitePublishingPreviewById(org.id, other.id)).data.url;
    expect((await get(`${base}/?preview=${new URL(otherLink).searchParams.get('preview')}`)).status).toBe(404);

    // A target inside the site is kept; one outside is a 400.
    const siteUrl = `${server.config.publicUrl}/sites/${site.id}`;
    const targeted = (await api.orgs.getSitePublishingPreviewById(org.id, site.id, { target: `${siteUrl}/zebras?x=1` })).data.url;
    expect(targeted.startsWith(`${siteUrl}/zebras?x=1&preview=`)).toBe(true);
    const bad = async (query: string, field: string) => {
      const r = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/sites/${site.id}/publishing/preview?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body).toEqual({ error: { code: 400, message: expect.any(String) } });
      expect(r.body.error.message).toContain(`"${field}"`);
    };
    await bad(`target=${encodeURIComponent('https://evil.example.com/')}`, 'target');
    await bad('claims=(plan:', 'claims');
    await bad('claims=!(a,b)', 'claims');
    await bad('siteSpace=sitesp_nope', 'siteSpace');
  });

  it('is for the site\'s admins; a link stops working once its user may no longer preview', async () => {
    const { org, owner, site, base } = await setup();
    const { editor, stranger } = await roles(org.id);
    expect((await sdkError(sdk(server.url, editor.token).orgs.getSitePublishingPreviewById(org.id, site.id))).status).toBe(403);
    expect((await sdkError(sdk(server.url, stranger.token).orgs.getSitePublishingPreviewById(org.id, site.id))).status).toBe(404);
    const admin = await createActor(server.db, { org: org.id, role: 'admin' });
    const link = local((await sdk(server.url, admin.token).orgs.getSitePublishingPreviewById(org.id, site.id)).data.url);
    await sdk(server.url, owner.token).orgs.unpublishSite(org.id, site.id);
    expect((await get(link)).status).toBe(200);
    await sdk(server.url, owner.token).orgs.updateMemberInOrganizationById(org.id, admin.id, { role: 'read' as never });
    expect((await get(link)).status).toBe(404);
    expect((await get(`${base}/`)).status).toBe(404);
  });
});

describe('site structure sort', () => {
  it('moves site spaces, sections and section groups among siblings of their kind and level', async () => {
    const { org, owner, api, site, reference, outside } = await setup();
    const sectionA = (await api.orgs.addSectionToSite(org.id, site.id, { spaceId: reference.id, title: 'Alpha' } as never)).data;
    const sectionB = (await api.orgs.addSectionToSite(org.id, site.id, { spaceId: outside.id, title: 'Beta' } as never)).data;
    const [ssGuide, ssRef] = sectionA.siteSpaces.map((s) => s.id);

    const moved = await api.orgs.sortSiteStructure(org.id, site.id, { item: { type: 'site-section', id: sectionB.id }, position: { before: { type: 'site-section', id: sectionA.id } } });
    expectDocumented('patch', `${SITE}/structure/sort`, '200', moved.data);
    expect(moved.data).toMatchObject({ object: 'site-section', id: sectionB.id });
    expect((await api.orgs.listSiteSections(org.id, site.id)).data.items.map((s) => s.id)).toEqual([sectionB.id, sectionA.id]);

    const ss = await api.orgs.sortSiteStructure(org.id, site.id, { item: { type: 'site-space', id: ssRef }, position: { before: { type: 'site-space', id: ssGuide } } });
    expectSchema('SiteSpace', ss.data);
    const sectionNow = (await api.orgs.listSiteSections(org.id, site.id)).data.items.find((s) => s.id === sectionA.id)!;
    expect(sectionNow.siteSpaces.map((s) => s.id)).toEqual([ssRef, ssGuide]);

    // To the end when no sibling is named (the SDK's type asks for a position: an empty one).
    await api.orgs.sortSiteStructure(org.id, site.id, { item: { type: 'site-section', id: sectionB.id }, position: {} });
    expect((await api.orgs.listSiteSections(org.id, site.id)).data.items.map((s) => s.id)).toEqual([sectionA.id, sectionB.id]);

    // Groups among groups.
    const g1 = (await api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'One' } as never)).data;
    const g2 = (await api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'Two' } as never)).data;
    const group = await api.orgs.sortSiteStructure(org.id, site.id, { item: { type: 'site-section-group', id: g2.id }, position: { before: { type: 'site-section-group', id: g1.id } } });
    expectSchema('SiteSectionGroup', group.data);
    expect((await api.orgs.listSiteSectionGroups(org.id, site.id)).data.items.map((g) => g.id)).toEqual([g2.id, g1.id]);

    // Prefer: return=minimal answers 204 and says so.
    const minimal = await fetch(`${server.url}/v1/orgs/${org.id}/sites/${site.id}/structure/sort`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', prefer: 'return=minimal' },
      body: JSON.stringify({ item: { type: 'site-section', id: sectionA.id }, position: { after: { type: 'site-section', id: sectionB.id } } }),
    });
    expect(minimal.status).toBe(204);
    expect(minimal.headers.get('preference-applied')).toBe('return=minimal');
    expect(await minimal.text()).toBe('');
    expect((await api.orgs.listSiteSections(org.id, site.id)).data.items.map((s) => s.id)).toEqual([sectionB.id, sectionA.id]);

    // Documented failures.
    const fail = async (body: unknown, status: number, field?: string) => {
      const r = await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}/sites/${site.id}/structure/sort`, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body).toEqual({ error: { code: status, message: expect.any(String) } });
      if (field) expect(r.body.error.message).toContain(`"${field}"`);
    };
    await fail({ item: { type: 'site-section', id: sectionA.id }, position: { before: { type: 'site-space', id: ssGuide } } }, 400, 'position.before');
    await fail({ item: { type: 'site-space', id: ssGuide }, position: { after: { type: 'site-space', id: sectionB.siteSpaces[0].id } } }, 400, 'position.after');
    await fail({ item: { type: 'site-section', id: sectionA.id }, position: { before: { type: 'site-section', id: sectionB.id }, after: { type: 'site-section', id: sectionB.id } } }, 400, 'position.before');
    await fail({ item: { type: 'folder', id: sectionA.id }, position: {} }, 400, 'item.type');
    await fail({ position: {} }, 400, 'item');
    await fail({ item: { type: 'site-section', id: 'sitesc_nope' }, position: {} }, 404);
    await fail({ item: { type: 'site-space', id: 'sitesp_nope' }, position: {} }, 404);
  });

  it('is for organization admins; another organization gets 404', async () => {
    const { org, site, guideSiteSpace } = await setup();
    const { editor, stranger } = await roles(org.id);
    const body = { item: { type: 'site-space' as const, id: guideSiteSpace }, position: {} };
    expect((await sdkError(sdk(server.url, editor.token).orgs.sortSiteStructure(org.id, site.id, body))).status).toBe(403);
    expect((await sdkError(sdk(server.url, stranger.token).orgs.sortSiteStructure(org.id, site.id, body))).status).toBe(404);
  });
});

describe('site space duplicate', () => {
  it('copies the space and publishes the copy: in a new section when alone in its section, beside it otherwise', async () => {
    const { org, owner, api, site, guide, reference, guideSiteSpace } = await setup();
    // At the root: the copy goes right after the original.
    const rootCopy = await api.orgs.duplicateSiteSpace(org.id, site.id, guideSiteSpace, {});
    expect(rootCopy.status).toBe(201);
    expectDocumented('post', `${SITE}/site-spaces/{siteSpaceId}/duplicate`, '201', rootCopy.data);
    expect(rootCopy.headers.get('location')).toBe(`${server.config.publicUrl}/v1/orgs/${org.id}/sites/${site.id}/site-spaces/${rootCopy.data.id}`);
    expect(rootCopy.data.space.id).not.toBe(guide.id);
    expect(rootCopy.data.space.title).toBe('Guide (copy)');
    expect(rootCopy.data.default).toBe(false);
    const root = (await api.orgs.listSiteSpaces(org.id, site.id)).data.items.map((s) => s.id);
    expect(root).toEqual([guideSiteSpace, rootCopy.data.id]);

    // Alone in its section: a new section after it, holding the copy as its default.
    await api.orgs.deleteSiteSpaceById(org.id, site.id, rootCopy.data.id);
    const section = (await api.orgs.addSectionToSite(org.id, site.id, { spaceId: reference.id, title: 'Reference' } as never)).data;
    const other = (await api.orgs.addSectionToSite(org.id, site.id, { spaceId: guide.id, title: 'Last' } as never)).data;
    // The first section took the root's site space, then its own: it holds two; the last holds one.
    expect(section.siteSpaces.map((s) => s.space.id)).toEqual([guide.id, reference.id]);
    const lone = section.siteSpaces[1];
    const alone = other.siteSpaces[0].id;
    const copy = (await api.orgs.duplicateSiteSpace(org.id, site.id, alone, {})).data;
    const sections = (await api.orgs.listSiteSections(org.id, site.id)).data.items;
    expect(sections.map((s) => s.id).slice(0, 2)).toEqual([section.id, other.id]);
    const added = sections[2];
    expect(added).toMatchObject({ title: 'Guide (copy)', siteSpaces: [expect.objectContaining({ id: copy.id, default: true })] });

    // Beside it when its section holds others.
    await api.orgs.sortSiteStructure(org.id, site.id, { item: { type: 'site-space', id: lone.id }, position: { before: { type: 'site-space', id: section.siteSpaces[0].id } } });
    const variant = (await api.orgs.duplicateSiteSpace(org.id, site.id, lone.id, {})).data;
    const inSection = (await api.orgs.listSiteSections(org.id, site.id)).data.items.find((s) => s.id === section.id)!;
    expect(inSection.siteSpaces.map((s) => s.id)).toEqual([lone.id, variant.id, section.siteSpaces[0].id]);
    expect(variant.section).toBe(section.id);

    // The copies are real spaces with the content.
    const pages = (await http(server.url, owner.token, 'GET', `/spaces/${variant.space.id}/content`)).body.pages as { title: string }[];
    expect(pages.map((p) => p.title)).toEqual(['Zebra API']);

    // Events: the site space added (a copy), the section created.
    const kinds = (await server.db.outboxEvent.findMany({ where: { organizationId: org.id, subjectId: { in: [copy.id, added.id] } } })).map((e) => e.kind).sort();
    expect(kinds).toEqual(['siteSectionCreated', 'siteSpaceAdded']);

    const bad = await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites/${site.id}/site-spaces/${copy.id}/duplicate`, { draft: true });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('"draft"');
    expect((await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites/${site.id}/site-spaces/sitesp_nope/duplicate`, {})).status).toBe(404);
  });

  it('is for organization admins; another organization gets 404, and nothing is copied', async () => {
    const { org, site, guideSiteSpace } = await setup();
    const { editor, stranger } = await roles(org.id);
    const spaces = await server.db.space.count({ where: { organizationId: org.id } });
    expect((await sdkError(sdk(server.url, editor.token).orgs.duplicateSiteSpace(org.id, site.id, guideSiteSpace, {}))).status).toBe(403);
    expect((await sdkError(sdk(server.url, stranger.token).orgs.duplicateSiteSpace(org.id, site.id, guideSiteSpace, {}))).status).toBe(404);
    expect(await server.db.space.count({ where: { organizationId: org.id } })).toBe(spaces);
  });
});

describe('site operations in GraphQL', () => {
  it('reads and rotates the publishing auth, previews, sorts and duplicates with the same rules', async () => {
    const { org, owner, api, site, guideSiteSpace } = await setup('visitor-auth');
    const q = (query: string, variables: Record<string, unknown> = {}) => gqlOk(server.url, owner.token, query, { org: org.id, site: site.id, ...variables });
    const before = (await q('query($site: ID!) { site(id: $site) { publishingAuth { backend privateKey fallbackURL } } }')).site.publishingAuth;
    expect(before).toMatchObject({ backend: 'custom', fallbackURL: null });
    const updated = (await q('mutation($org: ID, $site: ID!) { updateSitePublishingAuth(organizationId: $org, siteId: $site, input: {backend: "custom", fallbackURL: "https://a.example.com/in"}) { fallbackURL privateKey } }')).updateSitePublishingAuth;
    expect(updated).toEqual({ fallbackURL: 'https://a.example.com/in', privateKey: before.privateKey });
    const rotated = (await q('mutation($org: ID, $site: ID!) { regenerateSitePublishingAuth(organizationId: $org, siteId: $site) { privateKey fallbackURL } }')).regenerateSitePublishingAuth;
    expect(rotated.privateKey).not.toBe(before.privateKey);
    expect(rotated.fallbackURL).toBe('https://a.example.com/in');

    const preview = (await q('query($site: ID!) { site(id: $site) { preview(claims: {plan: "pro"}) { url expiresAt } } }')).site.preview;
    expect(new Date(preview.expiresAt).getTime() - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    expect((await get(local(preview.url))).status).toBe(200);

    const copy = (await q('mutation($org: ID, $site: ID!, $ss: ID!) { duplicateSiteSpace(organizationId: $org, siteId: $site, siteSpaceId: $ss) { id location space { title } } }', { ss: guideSiteSpace })).duplicateSiteSpace;
    expect(copy.space.title).toBe('Guide (copy)');
    const sorted = (await q(
      'mutation($org: ID, $site: ID!, $id: ID!, $before: ID!) { sortSiteStructure(organizationId: $org, siteId: $site, item: {type: "site-space", id: $id}, position: {before: {type: "site-space", id: $before}}) { __typename ... on SiteSpace { id } } }',
      { id: copy.id, before: guideSiteSpace },
    )).sortSiteStructure;
    expect(sorted).toEqual({ __typename: 'SiteSpace', id: copy.id });
    expect((await api.orgs.listSiteSpaces(org.id, site.id)).data.items.map((s) => s.id)).toEqual([copy.id, guideSiteSpace]);

    // Another organization's ID beside the site: not found, nothing changed.
    const stranger = (await createOrg(server.db)).owner;
    const refused = await gql(server.url, owner.token, 'mutation($org: ID, $site: ID!) { regenerateSitePublishingAuth(organizationId: $org, siteId: $site) { privateKey } }', { org: (await createOrg(server.db)).org.id, site: site.id });
    expect(refused.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const asStranger = await gql(server.url, stranger.token, 'query($site: ID!) { site(id: $site) { preview { url } } }', { site: site.id });
    expect(asStranger.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await q('query($site: ID!) { site(id: $site) { publishingAuth { privateKey } } }')).site.publishingAuth.privateKey).toBe(rotated.privateKey);
  });
});
