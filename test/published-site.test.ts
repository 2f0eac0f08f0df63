/**
 * The published site served by quire: pages of the site spaces' current revisions as HTML (links
 * between pages resolved, files served, navigation, sections), caching headers, search, and
 * visibility for each kind: public, unlisted (noindex), share-link (key, then cookie), visitor-auth
 * (a JWT signed with the site's key; its claims read by conditions), unpublished.
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { gqlOk, http, sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

async function publishedSpace(title: string, token: string, orgId: string, pages: { title: string; markdown: string }[]) {
  const api = sdk(server.url, token);
  const space = (await api.orgs.createSpace(orgId, { title })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Content' })).data;
  const content = `/spaces/${space.id}/change-requests/${cr.id}/content`;
  const files = await http(server.url, token, 'POST', `${content}?compat=false`, { changes: [{ operation: 'insert_files', files: [{ name: 'logo.png', contentType: 'image/png', base64: PNG }] }] });
  const fileId = files.body.insertedFiles[0].id as string;
  for (const page of pages) {
    const markdown = page.markdown.replace('{file}', fileId);
    await http(server.url, token, 'POST', content, { changes: [{ operation: 'insert_page', title: page.title, document: { markdown } }] });
  }
  // The first page links to the second by reference and shows the file as an image.
  const written = (await http(server.url, token, 'GET', `${content}/pages`)).body.pages as { id: string }[];
  if (written.length > 1) {
    const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
    const document = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'paragraph', data: {}, nodes: [text('Go to '), { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: written[1].id } }, nodes: [text('the next page')] }, text('.')] },
        { object: 'block', type: 'images', data: {}, nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: fileId }, alt: 'Our logo' } }] },
      ],
    };
    await http(server.url, token, 'POST', content, { changes: [{ operation: 'update_page', page: written[0].id, document: { document } }] });
  }
  await api.spaces.mergeChangeRequest(space.id, cr.id);
  return { space, fileId };
}

async function site(visibility = 'public') {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const { space, fileId } = await publishedSpace('Handbook', owner.token, org.id, [
    { title: 'Welcome', markdown: '# Welcome\n\nRead the [setup](setup.md) first. ![Logo](logo.png)\n\n## Getting help\n\nAsk the **team**.\n' },
    { title: 'Setup', markdown: '# Setup\n\nInstall the zebra package.\n' },
  ]);
  // Link and image: relative markdown targets stay URLs; point them at the page and file by reference.
  const created = (await api.orgs.createSite(org.id, { title: 'Acme docs', visibility: visibility as never, spaces: [space.id] } as never)).data;
  await api.orgs.publishSite(org.id, created.id);
  return { org, owner, api, space, fileId, site: created, base: `${server.url}/sites/${created.id}` };
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });

describe('the published site', () => {
  it('serves the first page at the root, pages by path, the navigation, and a 404 for unknown paths', async () => {
    const { base } = await site();
    const home = await get(`${base}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toContain('text/html');
    const html = await home.text();
    expect(html).toContain('<title>Welcome · Acme docs</title>');
    expect(html).toMatch(/<h1[^>]*>Welcome<\/h1>/);
    expect(html).toMatch(/href="\/sites\/site_\w+\/setup"/);
    expect(html).toContain('aria-current="page"');
    const link = /<a [^>]*href="(\/sites\/site_\w+\/setup)"[^>]*>the next page<\/a>/.exec(html);
    expect(link, 'a link between pages, resolved').not.toBeNull();
    const image = /<img [^>]*src="([^"]+)"[^>]*alt="Our logo"|<img [^>]*alt="Our logo"[^>]*src="([^"]+)"/.exec(html);
    expect(image, 'the image').not.toBeNull();
    const file = await get(`${server.url}${image![1] ?? image![2]}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(PNG, 'base64'))).toBe(true);
    expect((await get(`${base}/~files/${'sitesp_nope'}/file_nope`)).status).toBe(404);
    const setup = await get(`${base}/setup`);
    expect(setup.status).toBe(200);
    expect(await setup.text()).toContain('Install the zebra package.');
    expect((await get(`${base}/no-such-page`)).status).toBe(404);
  });

  it('gives a published space its published URL (GraphQL Space.urls.published)', async () => {
    const { owner, space, site: s } = await site();
    const { org: other, owner: otherOwner } = await createOrg(server.db);
    const unpublished = (await sdk(server.url, otherOwner.token).orgs.createSpace(other.id, { title: 'Alone' })).data;
    const query = 'query($id: ID!) { space(id: $id) { urls { location published } } }';
    expect((await gqlOk(server.url, owner.token, query, { id: space.id })).space.urls.published).toBe(`http://localhost:0/sites/${s.id}/`);
    expect((await gqlOk(server.url, otherOwner.token, query, { id: unpublished.id })).space.urls.published).toBeNull();
  });

  it('answers with an ETag and Cache-Control, and 304 when nothing changed; a change of content changes the ETag', async () => {
    const { base, owner, space } = await site();
    const first = await get(`${base}/setup`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toContain('public');
    expect((await get(`${base}/setup`, { 'if-none-match': etag })).status).toBe(304);
    const api = sdk(server.url, owner.token);
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Edit' })).data;
    await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'insert_page', title: 'New', document: { markdown: 'new' } }] });
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    const after = await get(`${base}/setup`, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
  });

  it('lists a public site’s pages in sitemap.xml and robots.txt; an unlisted one asks not to be indexed', async () => {
    const { base, site: s, api, org } = await site();
    const robots = await (await get(`${base}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: http://localhost:0/sites/${s.id}/sitemap.xml`);
    const sitemap = await (await get(`${base}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>http://localhost:0/sites/${s.id}/welcome</loc>`);
    expect(sitemap).toContain(`<loc>http://localhost:0/sites/${s.id}/setup</loc>`);
    await api.orgs.updateSiteById(org.id, s.id, { visibility: 'unlisted' as never });
    expect(await (await get(`${base}/robots.txt`)).text()).toContain('Disallow: /');
    expect((await get(`${base}/sitemap.xml`)).status).toBe(404);
  });

  it('searches the site’s content', async () => {
    const { base } = await site();
    const page = await (await get(`${base}/~search?q=zebra`)).text();
    expect(page).toMatch(/href="\/sites\/site_\w+\/setup"/);
    expect(page).toContain('noindex');
  });

  it('serves nothing for an unpublished site, marks an unlisted one noindex', async () => {
    const { api, org, site: s, base } = await site('unlisted');
    const html = await (await get(`${base}/`)).text();
    expect(html).toMatch(/<meta name="robots" content="noindex/);
    await api.orgs.unpublishSite(org.id, s.id);
    expect((await get(`${base}/`)).status).toBe(404);
    expect((await get(`${server.url}/sites/site_missing/`)).status).toBe(404);
  });

  it('opens a share-link site only with an active key, kept in a cookie', async () => {
    const { api, org, site: s, base } = await site('share-link');
    expect((await get(`${base}/`)).status).toBe(404);
    const link = (await api.orgs.createSiteShareLink(org.id, s.id, { name: 'Partners' })).data;
    const key = new URL(link.urls.published!).searchParams.get('shareKey')!;
    expect((await get(`${base}/?shareKey=wrong`)).status).toBe(404);
    const opened = await get(`${base}/?shareKey=${key}`);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('cache-control')).toContain('private');
    const cookie = opened.headers.get('set-cookie')!.split(';')[0];
    expect((await get(`${base}/setup`, { cookie })).status).toBe(200);
    await api.orgs.updateSiteShareLinkById(org.id, s.id, link.id, { active: false });
    expect((await get(`${base}/setup`, { cookie })).status).toBe(404);
  });

  it('opens a visitor-auth site with a JWT signed by its key; conditions read the claims', async () => {
    const { api, org, owner, site: s, base } = await site('visitor-auth');
    expect((await get(`${base}/`)).status).toBe(401);
    const { privateKey } = (await http(server.url, owner.token, 'GET', `/orgs/${org.id}/sites/${s.id}/publishing/auth`)).body;
    const sign = (claims: Record<string, unknown>, key = privateKey) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));
    expect((await get(`${base}/?jwt_token=${await sign({ plan: 'pro' }, 'not-the-key-but-long-enough-to-sign-with')}`)).status).toBe(401);
    expect((await get(`${base}/?jwt_token=${await sign({ plan: 'pro' })}`)).status).toBe(200);

    // A second site space shown only to visitors whose claims say so.
    const { space: extra } = await publishedSpace('Enterprise', owner.token, org.id, [{ title: 'Enterprise guide', markdown: 'For enterprise.' }]);
    const ss = (await api.orgs.addSpaceToSite(org.id, s.id, { spaceId: extra.id })).data;
    await api.orgs.updateSiteSpaceById(org.id, s.id, ss.id, { condition: 'visitor.claims.plan == "enterprise"' } as never);
    const asPro = await (await get(`${base}/${ss.path}/?jwt_token=${await sign({ plan: 'pro' })}`)).text();
    expect(asPro).not.toContain('For enterprise.');
    const asEnterprise = await (await get(`${base}/${ss.path}/?jwt_token=${await sign({ plan: 'enterprise' })}`)).text();
    expect(asEnterprise).toContain('For enterprise.');
  });

  it('shows sections as tabs and routes by section path', async () => {
    const { api, org, owner, site: s, base } = await site();
    const { space: api2 } = await publishedSpace('API', owner.token, org.id, [{ title: 'Endpoints', markdown: 'All the endpoints.' }]);
    const section = (await api.orgs.addSectionToSite(org.id, s.id, { spaceId: api2.id, title: 'API reference' } as never)).data;
    // The first section took the root's site space; the API space is a variant of it, the new section... 
    const second = (await api.orgs.addSectionToSite(org.id, s.id, { spaceId: api2.id, title: 'Reference' } as never)).data;
    const home = await (await get(`${base}/`)).text();
    expect(home).toContain('API reference');
    expect(home).toContain('Reference');
    const reference = await get(`${base}/${second.path}/`);
    expect(reference.status).toBe(200);
    expect(await reference.text()).toContain('All the endpoints.');
    expect(section.default).toBe(true);
  });
});
