/**
 * URLs resolved to what they show (`/urls/published`, `/urls/content`, `/urls/embed`,
 * `/spaces/{spaceId}/embed`), through the SDK and validated against the public document: a
 * published site's URL to its site, site space, space, page and anchor as the published server
 * locates them; an app URL to its space, change request, page or collection; embeds as links;
 * another organization's token, unknown and malformed URLs.
 */
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

async function spaceWithPages(token: string, orgId: string, title: string, pages: string[]) {
  const api = sdk(server.url, token);
  const space = (await api.orgs.createSpace(orgId, { title })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Content' })).data;
  for (const page of pages) {
    await http(server.url, token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'insert_page', title: page, document: { markdown: `# ${page}\n\n## Getting help\n\nText.\n` } }] });
  }
  await api.spaces.mergeChangeRequest(space.id, cr.id);
  return space;
}

let fx: Awaited<ReturnType<typeof fixture>>;
async function fixture() {
  const { org, owner } = await createOrg(server.db, 'Acme');
  const api = sdk(server.url, owner.token);
  const guide = await spaceWithPages(owner.token, org.id, 'Guide', ['Welcome', 'Setup']);
  const api2 = await spaceWithPages(owner.token, org.id, 'Reference', ['Endpoints']);
  const site = (await api.orgs.createSite(org.id, { title: 'Acme docs', spaces: [guide.id, api2.id] } as never)).data;
  await api.orgs.publishSite(org.id, site.id);
  const siteSpaces = (await api.orgs.listSiteSpaces(org.id, site.id)).data.items;
  const collection = (await api.orgs.createCollection(org.id, { title: 'Manuals' } as never)).data;
  const stranger = await createOrg(server.db, 'Elsewhere');
  return { org, owner, api, guide, reference: api2, site, siteSpaces, collection, stranger, base: `${server.config.publicUrl}/sites/${site.id}` };
}
beforeAll(async () => void (fx = await fixture()));

describe('published URLs', () => {
  it('resolves a page, a non-default site space and the root, as the published site locates them', async () => {
    const { api, site, siteSpaces, guide, reference, org, base } = fx;
    const [first, second] = siteSpaces;
    const page = (await api.urls.getPublishedContentByUrl({ url: `${base}/setup#getting-help` })).data;
    expectDocumented('GET', '/urls/published', '200', page);
    expect(page).toEqual({
      site: site.id, siteSpace: first.id, space: guide.id, pathname: 'setup', basePath: `/sites/${site.id}/`, siteBasePath: `/sites/${site.id}/`,
      apiToken: '', organization: org.id, complete: true, canonicalUrl: `${base}/setup`,
    });
    const other = (await api.urls.resolvePublishedContentByUrl({ url: `${base}/${second.path}/endpoints` })).data;
    expectDocumented('POST', '/urls/published', '200', other);
    expect(other).toMatchObject({ siteSpace: second.id, space: reference.id, pathname: 'endpoints', basePath: `/sites/${site.id}/${second.path}/`, canonicalUrl: `${base}/${second.path}/endpoints` });
    expect((await api.urls.getPublishedContentByUrl({ url: `${base}/` })).data).toMatchObject({ siteSpace: first.id, pathname: '' });

    const graph = await gqlOk(server.url, fx.owner.token, `query($url: String!) { publishedUrl(url: $url) { site { id } siteSpace { id } space { title } page { title path } anchor pathname } }`, { url: `${base}/setup#getting-help` });
    expect(graph.publishedUrl).toEqual({ site: { id: site.id }, siteSpace: { id: first.id }, space: { title: 'Guide' }, page: { title: 'Setup', path: 'setup' }, anchor: 'getting-help', pathname: 'setup' });
  });

  it("lets the visitor's claims decide conditions, as they do on the published site", async () => {
    const { api, org, site, siteSpaces, base, owner } = fx;
    const second = siteSpaces[1];
    const path = `/orgs/${org.id}/sites/${site.id}/site-spaces/${second.id}`;
    expect((await http(server.url, owner.token, 'PATCH', path, { condition: 'visitor.claims.beta == true' })).status).toBe(200);
    try {
      const url = `${base}/${second.path}/endpoints`;
      // Hidden from this visitor: the default site space answers, the rest of the path is a page path in it.
      expect((await api.urls.getPublishedContentByUrl({ url })).data).toMatchObject({ siteSpace: siteSpaces[0].id, pathname: `${second.path}/endpoints` });
      const key = (await http(server.url, owner.token, 'GET', `/orgs/${org.id}/sites/${site.id}/publishing/auth`)).body.privateKey as string;
      const jwtToken = await new SignJWT({ beta: true }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));
      expect((await api.urls.getPublishedContentByUrl({ url, visitorAuthToken: jwtToken })).data).toMatchObject({ siteSpace: second.id, pathname: 'endpoints' });
      expect((await api.urls.resolvePublishedContentByUrl({ url, visitor: { jwtToken } })).data).toMatchObject({ siteSpace: second.id });
      expect((await api.urls.resolvePublishedContentByUrl({ url, visitor: { unsignedClaims: { beta: true } } })).data).toMatchObject({ siteSpace: second.id });
      // A token signed with another key counts as none.
      const forged = await new SignJWT({ beta: true }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('not the key of this site at all'));
      expect((await api.urls.resolvePublishedContentByUrl({ url, visitor: { jwtToken: forged } })).data).toMatchObject({ siteSpace: siteSpaces[0].id });
    } finally {
      await http(server.url, owner.token, 'PATCH', path, { condition: null });
    }
  });

  it('answers 404 for unknown, unpublished and other organizations\' sites and foreign URLs; 400 for a malformed or missing URL', async () => {
    const { api, base, org, stranger } = fx;
    expect((await sdkError(api.urls.getPublishedContentByUrl({ url: `${server.config.publicUrl}/sites/site_nope/` }))).status).toBe(404);
    expect((await sdkError(api.urls.getPublishedContentByUrl({ url: 'https://example.com/docs' }))).status).toBe(404);
    expect((await sdkError(sdk(server.url, stranger.owner.token).urls.getPublishedContentByUrl({ url: `${base}/setup` }))).status).toBe(404);
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    expect((await sdkError(sdk(server.url, guest.token).urls.getPublishedContentByUrl({ url: `${base}/setup` }))).status).toBe(404);
    const draft = (await api.orgs.createSite(org.id, { title: 'Draft', spaces: [fx.guide.id] } as never)).data;
    expect((await sdkError(api.urls.getPublishedContentByUrl({ url: `${server.config.publicUrl}/sites/${draft.id}/` }))).status).toBe(404);
    for (const url of ['not a url', 'ftp://example.com/x', `${base}/${'x'.repeat(2100)}`]) {
      const bad = await http(server.url, fx.owner.token, 'GET', `/urls/published?url=${encodeURIComponent(url)}`);
      expect(bad.status, url).toBe(400);
      expect(bad.body.error.message).toContain('"url"');
    }
    expect((await http(server.url, fx.owner.token, 'POST', '/urls/published', {})).status).toBe(400);
    expect((await http(server.url, fx.owner.token, 'POST', '/urls/published', { url: `${base}/`, visitor: 'x' })).body.error.message).toContain('"visitor"');
  });
});

describe('content URLs', () => {
  it('resolves app URLs to a space and page, a change request, a collection; a published URL to its space and page', async () => {
    const { api, guide, collection } = fx;
    const app = server.config.appUrl;
    const page = (await api.urls.getContentByUrl({ url: `${app}/s/${guide.id}/setup` })).data as any;
    expectDocumented('GET', '/urls/content', '200', page);
    expect(page.space.id).toBe(guide.id);
    expect(page.page).toMatchObject({ title: 'Setup', path: 'setup', type: 'document', document: { object: 'document' } });
    const space = (await api.urls.getContentByUrl({ url: `${app}/s/${guide.id}` })).data as any;
    expect(space.space.id).toBe(guide.id);
    expect(space.page).toBeUndefined();
    const col = (await api.urls.getContentByUrl({ url: `${app}/c/${collection.id}` })).data as any;
    expectDocumented('GET', '/urls/content', '200', col);
    expect(col.collection.id).toBe(collection.id);
    const cr = (await api.spaces.createChangeRequest(guide.id, { subject: 'Draft' })).data;
    const inRequest = (await api.urls.getContentByUrl({ url: `${app}/s/${guide.id}/~/changes/${cr.number}/welcome` })).data as any;
    expectDocumented('GET', '/urls/content', '200', inRequest);
    expect(inRequest).toMatchObject({ changeRequest: { id: cr.id }, page: { title: 'Welcome' } });
    const published = (await api.urls.getContentByUrl({ url: `${fx.base}/setup` })).data as any;
    expect(published).toMatchObject({ space: { id: guide.id }, page: { title: 'Setup' } });
    expect((await api.urls.getContentByUrl({ url: `${server.config.publicUrl}/v1/spaces/${guide.id}` })).data).toMatchObject({ space: { id: guide.id } });
  });

  it("answers 404 for another organization's content and unknown URLs", async () => {
    const stranger = sdk(server.url, fx.stranger.owner.token);
    expect((await sdkError(stranger.urls.getContentByUrl({ url: `${server.config.appUrl}/s/${fx.guide.id}/setup` }))).status).toBe(404);
    expect((await sdkError(stranger.urls.getContentByUrl({ url: `${server.config.appUrl}/c/${fx.collection.id}` }))).status).toBe(404);
    expect((await sdkError(fx.api.urls.getContentByUrl({ url: `${server.config.appUrl}/s/spc_nope` }))).status).toBe(404);
    expect((await sdkError(fx.api.urls.getContentByUrl({ url: 'https://example.com/' }))).status).toBe(404);
  });
});

describe('embeds', () => {
  it("embeds this server's content as a link titled from it, and any other URL as a plain link, never fetched", async () => {
    const { api, guide, base } = fx;
    const own = (await api.urls.getEmbedByUrl({ url: `${base}/setup` })).data;
    expectDocumented('GET', '/urls/embed', '200', own);
    expect(own).toEqual({ type: 'link', title: 'Setup', site: 'Acme docs' });
    const app = (await api.spaces.getEmbedByUrlInSpace(guide.id, { url: `${server.config.appUrl}/s/${guide.id}` })).data;
    expectDocumented('GET', '/spaces/{spaceId}/embed', '200', app);
    expect(app).toEqual({ type: 'link', title: 'Guide', site: 'Acme' });
    const external = (await api.urls.getEmbedByUrl({ url: 'https://unreachable.invalid/video?id=1' })).data;
    expectDocumented('GET', '/urls/embed', '200', external);
    expect(external).toEqual({ type: 'link', title: 'https://unreachable.invalid/video?id=1', site: 'unreachable.invalid' });
  });

  it("keeps another organization's content out of embeds, and its spaces 404", async () => {
    const stranger = sdk(server.url, fx.stranger.owner.token);
    const url = `${fx.base}/setup`;
    expect((await stranger.urls.getEmbedByUrl({ url })).data).toEqual({ type: 'link', title: url, site: new URL(url).hostname });
    expect((await sdkError(stranger.spaces.getEmbedByUrlInSpace(fx.guide.id, { url: 'https://example.com/' }))).status).toBe(404);
    expect((await http(server.url, fx.owner.token, 'GET', `/spaces/${fx.guide.id}/embed`)).status).toBe(400);
  });
});
