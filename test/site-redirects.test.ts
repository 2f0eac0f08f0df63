/**
 * Site redirects through the public SDK, each answer validated against the public document: create
 * (destinations: a section, a site space, a page — by ID or by its space and path —, an external
 * URL), list (draft filter, search, orders, paging), get by source, update, delete (205/204), bulk
 * upsert (created, updated, deleted, published, per-item errors, limits); validation (400 naming
 * the field), a taken source (409), roles (members read, admins write), another organization
 * (404), the outbox events — and the published site following a redirect over plain HTTP: only
 * where no page answers, 307/308, to a page's current URL (after a rename too), wildcards.
 */
import { describe, expect, it } from 'vitest';
import { gql, gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { expectDocumented } from './helpers/documented.js';
import { useServer } from './helpers/server.js';

const server = useServer();
const REDIRECTS = '/orgs/{organizationId}/sites/{siteId}/redirects';

/** A space with merged pages (`Welcome`, `Setup`, …), published in a new public site. */
async function setup(visibility = 'public') {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Content' })).data;
  const content = `/spaces/${space.id}/change-requests/${cr.id}/content`;
  for (const title of ['Welcome', 'Setup', 'Install']) await http(server.url, owner.token, 'POST', content, { changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n\nText of ${title}.\n` } }] });
  await api.spaces.mergeChangeRequest(space.id, cr.id);
  const pages = (await http(server.url, owner.token, 'GET', `/spaces/${space.id}/content/pages`)).body.pages as { id: string; path: string; title: string }[];
  const site = (await api.orgs.createSite(org.id, { title: 'Docs', visibility: visibility as never, spaces: [space.id] } as never)).data;
  await api.orgs.publishSite(org.id, site.id);
  const siteSpace = (await api.orgs.listSiteSpaces(org.id, site.id)).data.items[0];
  const page = (title: string) => pages.find((p) => p.title === title)!;
  return { org, owner, api, space, site, siteSpace, page, base: `${server.url}/sites/${site.id}`, path: `/sites/${site.id}` };
}

const get = (url: string) => fetch(url, { redirect: 'manual' });

describe('site redirects', () => {
  it('creates, lists, reads by source, updates and deletes redirects, in their documented shapes', async () => {
    const { org, api, site, siteSpace, page, space } = await setup();
    const created = await api.orgs.createSiteRedirect(org.id, site.id, { source: '/old/setup', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: page('Setup').id } });
    expect(created.status).toBe(201);
    expectDocumented('post', REDIRECTS, '201', created.data);
    expect(created.data).toMatchObject({ object: 'site-redirect', source: '/old/setup', draft: false, permanent: false, captureWildcard: false });
    expect(created.data.updatedAt).toBeUndefined();

    // A page named by its space and path is stored as that page.
    const byPath = (await api.orgs.createSiteRedirect(org.id, site.id, { source: '/install-guide', permanent: true, destination: { kind: 'path', spaceId: space.id, path: 'install' } })).data;
    expect(byPath.destination).toEqual({ kind: 'site-page', siteSpaceId: siteSpace.id, pageId: page('Install').id });
    const external = (await api.orgs.createSiteRedirect(org.id, site.id, { source: '/blog/*', captureWildcard: true, destination: { kind: 'external', url: 'https://blog.example.com/posts' } })).data;
    const draft = (await api.orgs.createSiteRedirect(org.id, site.id, { source: '/old/setup', draft: true, destination: { kind: 'site-space', siteSpaceId: siteSpace.id } })).data;
    expect(draft.draft).toBe(true);

    const list = await api.orgs.listSiteRedirects(org.id, site.id);
    expectDocumented('get', REDIRECTS, '200', list.data);
    expect(list.data.items.map((r) => r.id)).toEqual([external.id, byPath.id, created.data.id]);
    expect(list.data.count).toBe(3);
    expect((await api.orgs.listSiteRedirects(org.id, site.id, { draft: true })).data.items.map((r) => r.id)).toEqual([draft.id]);
    expect((await api.orgs.listSiteRedirects(org.id, site.id, { orderBy: 'source' as never })).data.items.map((r) => r.source)).toEqual(['/blog/*', '/install-guide', '/old/setup']);
    expect((await api.orgs.listSiteRedirects(org.id, site.id, { search: 'install' })).data.items.map((r) => r.id)).toEqual([byPath.id]);
    const first = (await api.orgs.listSiteRedirects(org.id, site.id, { limit: 2 })).data;
    expect(first.items).toHaveLength(2);
    const second = (await api.orgs.listSiteRedirects(org.id, site.id, { limit: 2, page: first.next!.page })).data;
    expect(second.items.map((r) => r.id)).toEqual([created.data.id]);

    const bySource = await api.orgs.getSiteRedirectBySource(org.id, site.id, { source: '/old/setup' });
    expectDocumented('get', '/orgs/{organizationId}/sites/{siteId}/redirect', '200', bySource.data);
    expect(bySource.data.redirect.id).toBe(created.data.id);
    expect(bySource.data.target).toBe(`${server.config.publicUrl}/sites/${site.id}/setup`);
    expect((await sdkError(api.orgs.getSiteRedirectBySource(org.id, site.id, { source: '/nothing' }))).status).toBe(404);

    const updated = await api.orgs.updateSiteRedirectById(org.id, site.id, created.data.id, { permanent: true, source: '/older/setup' });
    expectDocumented('patch', `${REDIRECTS}/{siteRedirectId}`, '200', updated.data);
    expect(updated.data).toMatchObject({ permanent: true, source: '/older/setup' });
    expect(updated.data.updatedAt).toBeDefined();
    expect((await api.orgs.listSiteRedirects(org.id, site.id, { orderBy: 'updatedAt' as never })).data.items[0].id).toBe(created.data.id);

    expect((await api.orgs.deleteSiteRedirectById(org.id, site.id, created.data.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteRedirectById(org.id, site.id, created.data.id)).status).toBe(204);
    expect((await api.orgs.listSiteRedirects(org.id, site.id)).data.count).toBe(2);

    // GraphQL: the same redirects, with the URL each sends readers to.
    const data = await gqlOk(server.url, (await createActor(server.db, { org: org.id, role: 'admin' })).token, 'query($id: ID!) { site(id: $id) { redirects(first: 10, orderBy: source) { totalCount edges { node { source target } } } } }', { id: site.id });
    expect(data.site.redirects.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { source: '/blog/*', target: 'https://blog.example.com/posts' },
      { source: '/install-guide', target: `${server.config.publicUrl}/sites/${site.id}/install` },
    ]);
  });

  it('refuses bad input with a 400 naming the field, and a taken source with 409', async () => {
    const { org, api, site, siteSpace } = await setup();
    const other = await setup();
    const bad = async (body: unknown) => sdkError(api.orgs.createSiteRedirect(org.id, site.id, body as never));
    const external = { kind: 'external' as const, url: 'https://example.com' };
    expect(await bad({ source: 'no-slash', destination: external })).toMatchObject({ status: 400, message: expect.stringContaining('"source"') });
    expect(await bad({ source: '/a/*/b', destination: external })).toMatchObject({ status: 400, message: expect.stringContaining('"source"') });
    expect(await bad({ source: `/${'a'.repeat(512)}`, destination: external })).toMatchObject({ status: 400, message: expect.stringContaining('"source"') });
    expect(await bad({ source: '/a', destination: { kind: 'external', url: 'javascript:alert(1)' } })).toMatchObject({ status: 400, message: expect.stringContaining('destination') });
    expect(await bad({ source: '/a', destination: { kind: 'site-space', siteSpaceId: other.siteSpace.id } })).toMatchObject({ status: 400, message: expect.stringContaining('"destination.siteSpaceId"') });
    expect(await bad({ source: '/a', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: 'page_nope' } })).toMatchObject({ status: 400, message: expect.stringContaining('"destination.pageId"') });
    expect(await bad({ source: '/a', destination: { kind: 'path', spaceId: other.space.id, path: 'setup' } })).toMatchObject({ status: 400, message: expect.stringContaining('"destination.spaceId"') });
    expect(await bad({ source: '/a', destination: external, extra: 1 })).toMatchObject({ status: 400 });
    await api.orgs.createSiteRedirect(org.id, site.id, { source: '/a', destination: external });
    expect(await bad({ source: '/a', destination: external })).toMatchObject({ status: 409 });
    expect((await api.orgs.listSiteRedirects(org.id, site.id)).data.count).toBe(1);
    expect((await sdkError(api.orgs.listSiteRedirects(org.id, site.id, { orderBy: 'title' as never }))).status).toBe(400);
  });

  it('bulk upserts in one request: each item answered, malformed requests refused whole', async () => {
    const { org, api, site, siteSpace, page, owner } = await setup();
    const to = (title: string) => ({ kind: 'site-page' as const, siteSpaceId: siteSpace.id, pageId: page(title).id });
    const existing = (await api.orgs.createSiteRedirect(org.id, site.id, { source: '/x', destination: to('Setup') })).data;
    await api.orgs.createSiteRedirect(org.id, site.id, { source: '/gone', destination: to('Setup') });
    await api.orgs.createSiteRedirect(org.id, site.id, { source: '/soon', draft: true, destination: to('Install') });
    const answer = await api.orgs.bulkUpsertSiteRedirects(org.id, site.id, {
      redirects: [
        { source: '/new', destination: to('Welcome') },
        { source: '/x', destination: to('Install'), permanent: true },
        { source: '/gone', destination: null },
        { source: '/soon', intent: 'publish' },
        { source: '/draft-only', intent: 'draft', destination: { kind: 'external', url: 'https://example.com' } },
        { source: '/broken', destination: { kind: 'site-space', siteSpaceId: 'sitesp_nope' } },
        { source: '/never', intent: 'publish' },
      ],
    } as never);
    expect(answer.status).toBe(200);
    expectDocumented('put', REDIRECTS, '200', answer.data);
    expect(answer.data.results.map((r) => [r.status, r.source, r.draft])).toEqual([
      ['created', '/new', false],
      ['updated', '/x', false],
      ['deleted', '/gone', false],
      ['published', '/soon', false],
      ['created', '/draft-only', true],
      ['error', '/broken', false],
      ['error', '/never', false],
    ]);
    expect((answer.data.results[1] as { id: string }).id).toBe(existing.id);
    const live = (await api.orgs.listSiteRedirects(org.id, site.id, { orderBy: 'source' as never })).data.items;
    expect(live.map((r) => [r.source, r.permanent])).toEqual([['/new', false], ['/soon', false], ['/x', true]]);
    expect((await api.orgs.listSiteRedirects(org.id, site.id, { draft: true })).data.items.map((r) => r.source)).toEqual(['/draft-only']);

    const whole = async (body: unknown) => http(server.url, owner.token, 'PUT', `/orgs/${org.id}/sites/${site.id}/redirects`, body);
    expect((await whole({ redirects: [] })).status).toBe(400);
    const tooMany = await whole({ redirects: Array.from({ length: 501 }, (_, i) => ({ source: `/p${i}`, destination: null })) });
    expect(tooMany.status).toBe(400);
    const malformed = await whole({ redirects: [{ source: '/ok', destination: to('Setup') }, { source: 'bad', destination: null }] });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toContain('redirects.1.source');
    // Nothing of a refused request applied.
    expect((await sdkError(api.orgs.getSiteRedirectBySource(org.id, site.id, { source: '/ok' }))).status).toBe(404);
  });

  it('lets members with a role read and admins write; another organization gets 404; writes are recorded in the outbox', async () => {
    const { org, api, site } = await setup();
    const external = { kind: 'external' as const, url: 'https://example.com' };
    const made = (await api.orgs.createSiteRedirect(org.id, site.id, { source: '/r', destination: external })).data;
    const readerToken = (await createActor(server.db, { org: org.id, role: 'edit' })).token;
    const reader = sdk(server.url, readerToken);
    expect((await reader.orgs.listSiteRedirects(org.id, site.id)).data.count).toBe(1);
    expect((await reader.orgs.getSiteRedirectBySource(org.id, site.id, { source: '/r' })).data.redirect.id).toBe(made.id);
    expect((await sdkError(reader.orgs.createSiteRedirect(org.id, site.id, { source: '/s', destination: external }))).status).toBe(403);
    expect((await sdkError(reader.orgs.updateSiteRedirectById(org.id, site.id, made.id, { permanent: true }))).status).toBe(403);
    expect((await sdkError(reader.orgs.deleteSiteRedirectById(org.id, site.id, made.id))).status).toBe(403);
    expect((await sdkError(reader.orgs.bulkUpsertSiteRedirects(org.id, site.id, { redirects: [{ source: '/r', destination: null }] } as never))).status).toBe(403);
    const guest = sdk(server.url, (await createActor(server.db, { org: org.id, role: 'guest' })).token);
    expect((await sdkError(guest.orgs.listSiteRedirects(org.id, site.id))).status).toBe(404);

    const stranger = await createOrg(server.db);
    const outsider = sdk(server.url, stranger.owner.token);
    for (const call of [
      () => outsider.orgs.listSiteRedirects(org.id, site.id),
      () => outsider.orgs.getSiteRedirectBySource(org.id, site.id, { source: '/r' }),
      () => outsider.orgs.createSiteRedirect(org.id, site.id, { source: '/s', destination: external }),
      () => outsider.orgs.updateSiteRedirectById(org.id, site.id, made.id, { permanent: true }),
      () => outsider.orgs.deleteSiteRedirectById(org.id, site.id, made.id),
      () => outsider.orgs.bulkUpsertSiteRedirects(org.id, site.id, { redirects: [{ source: '/r', destination: null }] } as never),
      // Their own organization's path with this site: not found either.
      () => outsider.orgs.listSiteRedirects(stranger.org.id, site.id),
    ]) expect((await sdkError(call())).status).toBe(404);
    expect((await api.orgs.listSiteRedirects(org.id, site.id)).data.items.map((r) => [r.id, r.permanent])).toEqual([[made.id, false]]);
    // node(id): to who may read the site, not found to anyone else.
    const node = 'query($id: ID!) { node(id: $id) { ... on SiteRedirect { source } } }';
    expect((await gql(server.url, readerToken, node, { id: made.id })).data?.node).toEqual({ source: '/r' });
    expect((await gql(server.url, stranger.owner.token, node, { id: made.id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    await api.orgs.updateSiteRedirectById(org.id, site.id, made.id, { permanent: true });
    await api.orgs.deleteSiteRedirectById(org.id, site.id, made.id);
    const events = await server.db.outboxEvent.findMany({ where: { organizationId: org.id, kind: { startsWith: 'siteRedirect' } }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => [e.kind, e.subjectId, e.siteId])).toEqual([
      ['siteRedirectCreated', made.id, site.id],
      ['siteRedirectUpdated', made.id, site.id],
      ['siteRedirectDeleted', made.id, site.id],
    ]);
  });

  it('is followed by the published site where no page answers: 307, 308 when permanent, to the page\'s current URL', async () => {
    const { org, api, site, siteSpace, page, space, base, path, owner } = await setup();
    const to = (title: string) => ({ kind: 'site-page' as const, siteSpaceId: siteSpace.id, pageId: page(title).id });
    await api.orgs.bulkUpsertSiteRedirects(org.id, site.id, {
      redirects: [
        { source: '/old-setup', destination: to('Setup') },
        { source: '/moved', permanent: true, destination: to('Install') },
        // A page that exists is served: the redirect from its path never answers.
        { source: '/welcome', destination: to('Setup') },
        { source: '/ext/*', captureWildcard: true, destination: { kind: 'external', url: 'https://example.com/docs' } },
        { source: '/any*', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } },
        { source: '/later', intent: 'draft', destination: to('Setup') },
      ],
    } as never);

    const old = await get(`${base}/old-setup`);
    expect(old.status).toBe(307);
    expect(old.headers.get('location')).toBe(`${path}/setup`);
    const moved = await get(`${base}/moved/`);
    expect(moved.status).toBe(308);
    expect(moved.headers.get('location')).toBe(`${path}/install`);
    const welcome = await get(`${base}/welcome`);
    expect(welcome.status).toBe(200);
    expect(await welcome.text()).toContain('Text of Welcome');
    const ext = await get(`${base}/ext/a/b`);
    expect([ext.status, ext.headers.get('location')]).toEqual([307, 'https://example.com/docs/a/b']);
    expect((await get(`${base}/anything/here`)).headers.get('location')).toBe(`${path}/`);
    expect((await get(`${base}/later`)).status).toBe(404);
    expect((await get(`${base}/unknown`)).status).toBe(404);

    // The page renamed: the redirect follows it to its new path.
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Rename' })).data;
    const renamed = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'update_page', page: page('Setup').id, title: 'Getting started', slug: 'getting-started' }] });
    expect(renamed.status).toBeLessThan(300);
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    expect((await get(`${base}/old-setup`)).headers.get('location')).toBe(`${path}/getting-started`);

    // A site that is not public: no redirect without the key (nothing of the site is told), and a permanent redirect answers 307.
    await api.orgs.updateSiteById(org.id, site.id, { visibility: 'share-link' as never });
    const link = (await api.orgs.createSiteShareLink(org.id, site.id, { name: 'Friends' })).data;
    const key = new URL(link.urls.published!).searchParams.get('shareKey')!;
    expect((await get(`${base}/moved`)).status).toBe(404);
    const shared = await get(`${base}/moved?shareKey=${encodeURIComponent(key)}`);
    expect([shared.status, shared.headers.get('location')]).toEqual([307, `${path}/install`]);
  });
});
