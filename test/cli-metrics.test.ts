/**
 * /metrics as an operator scrapes it: published-site requests labelled by the kind of answer
 * under a route template (`GET /sites/{siteId}/{pagePath}`…), never "unmatched", never an ID.
 */
import { describe, expect, it } from 'vitest';
import { siteRouteTemplate } from '../src/observability/site-route.js';
import { http, sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

/** A public site of one space with two pages, published. */
async function publishedSite() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Content' })).data;
  const content = `/spaces/${space.id}/change-requests/${cr.id}/content`;
  for (const [title, markdown] of [['Welcome', '# Welcome\n\nHello.\n'], ['Setup', '# Setup\n\nInstall it.\n']]) {
    await http(server.url, owner.token, 'POST', content, { changes: [{ operation: 'insert_page', title, document: { markdown } }] });
  }
  await api.spaces.mergeChangeRequest(space.id, cr.id);
  const site = (await api.orgs.createSite(org.id, { title: 'Acme docs', visibility: 'public', spaces: [space.id] } as never)).data;
  await api.orgs.publishSite(org.id, site.id);
  return site;
}

/** The request counts of `/metrics`, by route label (`GET /sites/{siteId}/`: it names the method too). */
async function requestCounts(): Promise<Map<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const counts = new Map<string, number>();
  for (const [, route, value] of text.matchAll(/^quire_http_request_duration_seconds_count\{method="[^"]+",route="([^"]+)",status="\d+"\} (\d+)$/gm)) {
    counts.set(route, (counts.get(route) ?? 0) + Number(value));
  }
  return counts;
}

/** GET `url` (redirects not followed), its answer read whole: its status. */
async function statusOf(url: string): Promise<number> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Expects each route's count to have gained `expected[route]` since `before`. A request is counted
 * once its response has ended on the server, which may come a moment after the client read it:
 * the counts are read until they are all in.
 */
async function expectAdded(before: Map<string, number>, expected: Record<string, number>): Promise<void> {
  const added = async () => {
    const after = await requestCounts();
    return Object.fromEntries(Object.keys(expected).map((route) => [route, (after.get(route) ?? 0) - (before.get(route) ?? 0)]));
  };
  await expect.poll(added, { timeout: 5000, interval: 50 }).toEqual(expected);
}

describe('/metrics', () => {
  it('labels published-site requests by route template and kind, with no site ID or page path', async () => {
    const site = await publishedSite();
    const base = `${server.url}/sites/${site.id}`;
    const before = await requestCounts();
    const paths = ['/', '/setup', '/setup', '/~search?q=install', '/~assets/favicon.svg', '/robots.txt', '/sitemap.xml', '/no/such/page'];
    for (const path of paths) expect(await statusOf(`${base}${path}`), path).toBeLessThan(500);
    expect(await statusOf(`${server.url}/sites/site_unknown/intro`)).toBe(404);
    await expectAdded(before, {
      'GET /sites/{siteId}/': 1,
      'GET /sites/{siteId}/{pagePath}': 4,
      'GET /sites/{siteId}/~search': 1,
      'GET /sites/{siteId}/~assets/{asset}': 1,
      'GET /sites/{siteId}/robots.txt': 1,
      'GET /sites/{siteId}/sitemap.xml': 1,
      unmatched: 0,
    });
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).not.toContain(site.id);
    expect(text).not.toContain('setup');
  }, 60_000);

  it('labels the other paths routed by prefix (files, uploads, fonts, invitations, SSO) by template; an unknown path stays unmatched', async () => {
    const before = await requestCounts();
    for (const path of ['/files/not-a-token', '/uploads/not-a-token', '/fonts/font_1/400.woff2', '/invites/not-a-secret', '/sso/saml/sso_1', '/no-such-path']) {
      expect(await statusOf(`${server.url}${path}`), path).toBeLessThan(500);
    }
    const routes = ['GET /files/{token}', 'GET /uploads/{token}', 'GET /fonts/{fontId}/{face}', 'GET /invites/{secret}', 'GET /sso/saml/{providerId}/…', 'unmatched'];
    await expectAdded(before, Object.fromEntries(routes.map((route) => [route, 1])));
  }, 60_000);

  it('labels a site on its own hostname by kind, without the hostname', () => {
    expect(siteRouteTemplate('GET', '/', 'hostname')).toBe('GET {siteHostname}/');
    expect(siteRouteTemplate('GET', '/guide/install', 'hostname')).toBe('GET {siteHostname}/{pagePath}');
    expect(siteRouteTemplate('GET', '/~files/ss_1/file_2', 'hostname')).toBe('GET {siteHostname}/~files/{siteSpaceId}/{fileId}');
    expect(siteRouteTemplate('HEAD', '/sites/site_1/~search', 'prefix')).toBe('HEAD /sites/{siteId}/~search');
    expect(siteRouteTemplate('GET', '/sites/site_1/docs/robots.txt', 'prefix')).toBe('GET /sites/{siteId}/{pagePath}');
  });
});
