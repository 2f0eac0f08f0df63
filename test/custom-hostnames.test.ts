/**
 * Custom hostnames (`/custom-hostnames/{hostname}`), subdomains and `GET /`: a site's hostname is a
 * claim, served only once a DNS TXT record proves it — checked here against a local DNS server
 * (QUIRE_DNS_SERVERS); a hostname another site verified cannot be claimed; another organization's
 * token finds nothing.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlOk, http as rest, sdk, sdkError } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { startDnsServer, type DnsServer } from './helpers/dns-server.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { checkPendingClaims } from '../src/domain/publishing/hostnames/custom-hostnames.js';

let dns: DnsServer;
beforeAll(async () => void (dns = await startDnsServer()));
afterAll(() => dns.close());
const server = useServer({ env: () => ({ QUIRE_DNS_SERVERS: dns.address }) });

/** A request to the server as if made to `host` (the `Host` header a browser sends). */
function onHost(host: string, path = '/'): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: res.statusCode!, body }));
      })
      .on('error', reject);
  });
}

async function publishedSite(title: string) {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: `${title} space` })).data;
  const site = (await api.orgs.createSite(org.id, { title, spaces: [space.id] } as never)).data;
  await api.orgs.publishSite(org.id, site.id);
  return { org, owner, api, site };
}

/** The title of the site answering on `host` (its pages are empty: its "Page not found" frame), or null when none does. */
async function siteOnHost(host: string): Promise<string | null> {
  const { body } = await onHost(host);
  return /<title>Page not found · ([^<]+)<\/title>/.exec(body)?.[1] ?? null;
}

const claim = (token: string, orgId: string, siteId: string, hostname: string | null) => rest(server.url, token, 'PATCH', `/orgs/${orgId}/sites/${siteId}`, { hostname });
const newHostname = () => `docs-${randomUUID().slice(0, 8)}.example.com`;

describe('custom hostnames', () => {
  it('serves a claimed hostname only once its DNS record proves the claim; another site cannot take it then', async () => {
    const a = await publishedSite('Alpha docs');
    const b = await publishedSite('Bravo docs');
    const hostname = newHostname();
    expect((await claim(a.owner.token, a.org.id, a.site.id, hostname)).status).toBe(200);
    // Another organization may claim a hostname nobody proved: its claim captures nothing either.
    expect((await claim(b.owner.token, b.org.id, b.site.id, hostname)).status).toBe(200);

    const pending = (await a.api.customHostnames.getCustomHostname(hostname)).data;
    expectDocumented('GET', '/custom-hostnames/{hostname}', '200', pending);
    expect(pending).toMatchObject({ object: 'custom-hostname', hostname, target: { type: 'site', site: a.site.id }, isActive: false });
    expect(pending.urls.location).toBe(`${server.config.publicUrl}/v1/custom-hostnames/${hostname}`);
    const challenge = (pending as unknown as { challenge: { type: string; name: string; value: string } }).challenge;
    expect(challenge).toMatchObject({ type: 'TXT', name: `_quire-challenge.${hostname}` });
    expect(challenge.value).toMatch(/^quire-verification=[\w-]{20,}$/);
    // Each organization sees its own claim, with its own token.
    const bClaim = (await b.api.customHostnames.getCustomHostname(hostname)).data as unknown as { target: { site: string }; challenge: { value: string } };
    expect(bClaim.target.site).toBe(b.site.id);
    expect(bClaim.challenge.value).not.toBe(challenge.value);

    // Not proven: neither site answers on the hostname, and the site's URLs do not use it.
    expect(await siteOnHost(hostname)).toBeNull();
    expect((await a.api.orgs.getSiteById(a.org.id, a.site.id)).data.urls.published).toContain(`/sites/${a.site.id}`);

    // No record yet, then a record holding another claim's token: the check says so and verifies nothing.
    expect((await a.api.customHostnames.dnsRevalidateCustomHostname(hostname)).status).toBe(204);
    expect((await a.api.customHostnames.getCustomHostname(hostname)).data).toMatchObject({ isActive: false, status: 'dns_no_cname' });
    dns.txt.set(challenge.name, [bClaim.challenge.value.replace(/.$/, 'x')]);
    await a.api.customHostnames.dnsRevalidateCustomHostname(hostname);
    expect((await a.api.customHostnames.getCustomHostname(hostname)).data).toMatchObject({ isActive: false, status: 'dns_wrong_cname' });
    expect(await siteOnHost(hostname)).toBeNull();

    // The record holds A's token: A's claim is verified and served.
    dns.txt.set(challenge.name, ['v=spf1 -all', challenge.value]);
    expect((await a.api.customHostnames.dnsRevalidateCustomHostname(hostname)).status).toBe(204);
    const live = (await a.api.customHostnames.getCustomHostname(hostname)).data;
    expectDocumented('GET', '/custom-hostnames/{hostname}', '200', live);
    expect(live).toMatchObject({ isActive: true, status: 'live' });
    // The check wrote through the outbox, like every write.
    const events = await server.db.outboxEvent.findMany({ where: { subjectId: a.site.id, kind: 'siteUpdated' } });
    expect(events.map((e) => e.data)).toContainEqual({ fields: ['hostnameStatus'], hostname, hostnameStatus: 'live', verified: true });
    expect(await siteOnHost(hostname)).toBe('Alpha docs');
    expect((await a.api.orgs.getSiteById(a.org.id, a.site.id)).data.urls.published).toBe(`http://${hostname}/`);

    // B's claim cannot take it while A's record is there beside B's (409); a new claim of it serves nothing.
    dns.txt.set(challenge.name, [challenge.value, bClaim.challenge.value]);
    expect(await sdkError(b.api.customHostnames.dnsRevalidateCustomHostname(hostname))).toMatchObject({ status: 409 });
    const other = (await b.api.orgs.createSite(b.org.id, { title: 'Other' } as never)).data;
    expect((await claim(b.owner.token, b.org.id, other.id, hostname)).status).toBe(200);
    expect(await siteOnHost(hostname)).toBe('Alpha docs');
    // A check that finds the record gone keeps a verified hostname served (a DNS outage takes no site down), and says so.
    dns.txt.delete(challenge.name);
    await a.api.customHostnames.dnsRevalidateCustomHostname(hostname);
    expect((await a.api.customHostnames.getCustomHostname(hostname)).data).toMatchObject({ isActive: true, status: 'dns_no_cname' });
    expect(await siteOnHost(hostname)).toBe('Alpha docs');

    // Removed: it stops being served at once, and B may claim and verify it.
    const removed = await rest(server.url, a.owner.token, 'DELETE', `/custom-hostnames/${hostname}`);
    expect(removed.status).toBe(205);
    expect((await rest(server.url, a.owner.token, 'DELETE', `/custom-hostnames/${hostname}`)).status).toBe(204);
    expect(await siteOnHost(hostname)).toBeNull();
    expect((await sdkError(a.api.customHostnames.getCustomHostname(hostname))).status).toBe(404);
    dns.txt.set(challenge.name, [bClaim.challenge.value]);
    await b.api.customHostnames.dnsRevalidateCustomHostname(hostname);
    expect(await siteOnHost(hostname)).toBe('Bravo docs');
  });

  it('moves a verified hostname to another claim once the DNS holds that claim\'s record instead of the holder\'s', async () => {
    const a = await publishedSite('Delta docs');
    const b = await publishedSite('Echo docs');
    const hostname = newHostname();
    await claim(a.owner.token, a.org.id, a.site.id, hostname);
    const aChallenge = ((await a.api.customHostnames.getCustomHostname(hostname)).data as unknown as { challenge: { name: string; value: string } }).challenge;
    dns.txt.set(aChallenge.name, [aChallenge.value]);
    await a.api.customHostnames.dnsRevalidateCustomHostname(hostname);
    expect(await siteOnHost(hostname)).toBe('Delta docs');
    // The domain changes hands: its DNS now names B's claim only. B's check takes the hostname.
    await claim(b.owner.token, b.org.id, b.site.id, hostname);
    const bChallenge = ((await b.api.customHostnames.getCustomHostname(hostname)).data as unknown as { challenge: { value: string } }).challenge;
    dns.txt.set(aChallenge.name, [bChallenge.value]);
    expect((await b.api.customHostnames.dnsRevalidateCustomHostname(hostname)).status).toBe(204);
    expect(await siteOnHost(hostname)).toBe('Echo docs');
    expect((await b.api.customHostnames.getCustomHostname(hostname)).data).toMatchObject({ isActive: true, status: 'live' });
    expect((await a.api.customHostnames.getCustomHostname(hostname)).data).toMatchObject({ isActive: false, status: 'dns_wrong_cname' });
    expect((await a.api.orgs.getSiteById(a.org.id, a.site.id)).data.urls.published).toContain(`/sites/${a.site.id}`);
    // A's check finds its record gone: nothing comes back to it.
    await a.api.customHostnames.dnsRevalidateCustomHostname(hostname);
    expect(await siteOnHost(hostname)).toBe('Echo docs');
  });

  it('another organization finds nothing; members without the admin role may read but not check or remove; GraphQL agrees', async () => {
    const a = await publishedSite('Charlie docs');
    const hostname = newHostname();
    await claim(a.owner.token, a.org.id, a.site.id, hostname);
    const stranger = await createOrg(server.db);
    expect((await sdkError(sdk(server.url, stranger.owner.token).customHostnames.getCustomHostname(hostname))).status).toBe(404);
    expect((await sdkError(sdk(server.url, stranger.owner.token).customHostnames.dnsRevalidateCustomHostname(hostname))).status).toBe(404);
    // Removing a hostname the caller's organizations do not claim: "did not exist", and the claim stays.
    expect((await rest(server.url, stranger.owner.token, 'DELETE', `/custom-hostnames/${hostname}`)).status).toBe(204);
    expect((await a.api.customHostnames.getCustomHostname(hostname)).status).toBe(200);
    expect((await sdkError(a.api.customHostnames.getCustomHostname('docs.unknown.example.com'))).status).toBe(404);

    const editor = await createActor(server.db, { org: a.org.id, role: 'edit' });
    expect((await sdk(server.url, editor.token).customHostnames.getCustomHostname(hostname)).data.hostname).toBe(hostname);
    expect((await sdkError(sdk(server.url, editor.token).customHostnames.dnsRevalidateCustomHostname(hostname))).status).toBe(403);
    expect((await rest(server.url, editor.token, 'DELETE', `/custom-hostnames/${hostname}`)).status).toBe(403);
    const guest = await createActor(server.db, { org: a.org.id, role: 'guest' });
    expect((await sdkError(sdk(server.url, guest.token).customHostnames.getCustomHostname(hostname))).status).toBe(404);

    const query = `query($h: String!, $site: ID!) { customHostname(hostname: $h) { hostname isActive status challenge { name value } site { id } }
      site(id: $site) { hostname customHostname { hostname isActive } } }`;
    const read = await gqlOk(server.url, a.owner.token, query, { h: hostname, site: a.site.id });
    expect(read.customHostname).toMatchObject({ hostname, isActive: false, status: null, site: { id: a.site.id } });
    expect(read.site.customHostname).toEqual({ hostname, isActive: false });
    dns.txt.set(read.customHostname.challenge.name, [read.customHostname.challenge.value]);
    const verified = await gqlOk(server.url, a.owner.token, 'mutation($h: String!) { verifyCustomHostname(hostname: $h) { isActive status verifiedAt } }', { h: hostname });
    expect(verified.verifyCustomHostname).toMatchObject({ isActive: true, status: 'live' });
    expect(await siteOnHost(hostname)).toBe('Charlie docs');
    expect((await gql(server.url, stranger.owner.token, query, { h: hostname, site: a.site.id })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    // A new hostname is a new claim: not served until proven, with a new token.
    const next = newHostname();
    await claim(a.owner.token, a.org.id, a.site.id, next);
    expect(await siteOnHost(hostname)).toBeNull();
    expect(await siteOnHost(next)).toBeNull();
    expect((await gqlOk(server.url, a.owner.token, 'mutation($h: String!) { removeCustomHostname(hostname: $h) }', { h: next })).removeCustomHostname).toBe(true);
    expect((await a.api.orgs.getSiteById(a.org.id, a.site.id)).data.hostname).toBeUndefined();
  });
});

describe("the worker's round of unproven claims", () => {
  it('verifies a claim once its record appears, with nobody asking; leaves claims older than a week alone', async () => {
    const a = await publishedSite('Delta docs');
    const hostname = newHostname();
    await claim(a.owner.token, a.org.id, a.site.id, hostname);
    const { challenge } = (await a.api.customHostnames.getCustomHostname(hostname)).data as unknown as { challenge: { name: string; value: string } };
    const round = () => checkPendingClaims(server.db, { servers: [dns.address] });
    await round();
    expect((await a.api.customHostnames.getCustomHostname(hostname)).data).toMatchObject({ isActive: false, status: 'dns_no_cname' });
    dns.txt.set(challenge.name, [challenge.value]);
    // Checked a moment ago: not again in this round.
    await round();
    expect(await siteOnHost(hostname)).toBeNull();
    await server.db.site.update({ where: { id: a.site.id }, data: { hostnameCheckedAt: new Date(Date.now() - 10 * 60_000) } });
    await round();
    expect(await siteOnHost(hostname)).toBe('Delta docs');
    const events = await server.db.outboxEvent.findMany({ where: { subjectId: a.site.id, kind: 'siteUpdated', actorId: null } });
    expect(events.map((e) => e.data)).toContainEqual({ fields: ['hostnameStatus'], hostname, hostnameStatus: 'live', verified: true });

    const old = await publishedSite('Echo docs');
    const stale = newHostname();
    await claim(old.owner.token, old.org.id, old.site.id, stale);
    await server.db.site.update({ where: { id: old.site.id }, data: { hostnameClaimedAt: new Date(Date.now() - 8 * 86_400_000) } });
    const staleChallenge = ((await old.api.customHostnames.getCustomHostname(stale)).data as unknown as { challenge: { name: string; value: string } }).challenge;
    dns.txt.set(staleChallenge.name, [staleChallenge.value]);
    await round();
    expect(await siteOnHost(stale)).toBeNull();
    // Asking still works for it.
    await old.api.customHostnames.dnsRevalidateCustomHostname(stale);
    expect(await siteOnHost(stale)).toBe('Echo docs');
  });
});

describe('subdomains and API information', () => {
  it("answers an organization's subdomain to its members, 404 to others, 400 for a malformed one", async () => {
    const { org, owner } = await createOrg(server.db);
    const subdomain = `sub-${randomUUID().slice(0, 8)}`;
    expect((await rest(server.url, owner.token, 'PATCH', `/orgs/${org.id}`, { hostname: subdomain })).status).toBe(200);
    const found = (await sdk(server.url, owner.token).subdomains.getSubdomain(subdomain)).data;
    expectDocumented('GET', '/subdomains/{subdomain}', '200', found);
    expect(found).toEqual({ object: 'subdomain', subdomain, target: { type: 'organization', organization: org.id }, isActive: true });
    const stranger = await createOrg(server.db);
    expect((await sdkError(sdk(server.url, stranger.owner.token).subdomains.getSubdomain(subdomain))).status).toBe(404);
    expect((await sdkError(sdk(server.url, owner.token).subdomains.getSubdomain('free-one-nobody-has'))).status).toBe(404);
    const bad = await rest(server.url, owner.token, 'GET', '/subdomains/-bad-');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('"subdomain"');
  });

  it('answers the version and build date (GET /), to any signed-in caller', async () => {
    const { owner } = await createOrg(server.db);
    const info = (await sdk(server.url, owner.token).getApiInformation()).data;
    expectDocumented('GET', '/', '200', info);
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(new Date(info.build).toISOString()).toBe(info.build);
    expect((await rest(server.url, undefined, 'GET', '/')).status).toBe(401);
  });
});
