/**
 * SAML single sign-on through the API and the browser endpoints (4.13): providers CRUD with their
 * limits and `service`, `GET /orgs/{id}/sso`, and a sign-in end to end — the start URL redirects
 * with an AuthnRequest, a response signed by the test identity provider signs the user in
 * (provisioned with the default role and team, SSO flag set) and answers a working API token;
 * replayed, forged and wrong-audience responses are refused; another organization gets 404.
 */
import { verify, X509Certificate } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { gql, http } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { issueToken } from '../src/domain/people/identity/tokens.js';
import { createActor, createOrg } from './helpers/factories.js';
import { makeKeyPair, TestIdp } from './helpers/saml-idp.js';
import { useServer } from './helpers/server.js';

const server = useServer();
let idp: TestIdp;
beforeAll(() => {
  idp = new TestIdp();
});

/** The public URL names port 0: the same path on the test server. */
const local = (url: string) => `${server.url}${new URL(url).pathname}${new URL(url).search}`;

async function providerOf(token: string, orgId: string, extra: Record<string, unknown> = {}) {
  const created = await http(server.url, token, 'POST', `/orgs/${orgId}/saml`, { label: 'Okta', entityID: idp.entityId, ssoURL: idp.ssoUrl, certificate: idp.keys.certificate, ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function requestIdOf(startUrl: string): Promise<string> {
  const started = await fetch(local(startUrl), { redirect: 'manual' });
  expect(started.status).toBe(302);
  const location = started.headers.get('location')!;
  expect(location.startsWith('https://idp.example.test/sso?tenant=t1')).toBe(true);
  await expectSignedByUs(startUrl, location);
  const xml = inflateRawSync(Buffer.from(new URL(location).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  return /\sID="([^"]+)"/.exec(xml)![1];
}

/**
 * The AuthnRequest's redirect is signed (SAML bindings §3.4.4.1: the query's SAMLRequest, RelayState
 * and SigAlg, as sent) with the key whose certificate our metadata publishes.
 */
async function expectSignedByUs(startUrl: string, location: string): Promise<void> {
  const query = new URL(location).search.slice(1).split('&');
  const signature = query.find((p) => p.startsWith('Signature='));
  expect(signature, 'Signature parameter').toBeDefined();
  expect(query.find((p) => p.startsWith('SigAlg='))).toBe(`SigAlg=${encodeURIComponent('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256')}`);
  const signed = query.filter((p) => /^(SAMLRequest|RelayState|SigAlg)=/.test(p)).join('&');
  const metadata = await (await fetch(local(startUrl.replace(/\/start$/, '')))).text();
  expect(metadata).toContain('AuthnRequestsSigned="true"');
  const certificate = /<(?:ds:)?X509Certificate>([^<]+)</.exec(metadata)![1].replace(/\s+/g, '');
  const pem = `-----BEGIN CERTIFICATE-----\n${certificate.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  expect(verify('RSA-SHA256', Buffer.from(signed), new X509Certificate(pem).publicKey, Buffer.from(decodeURIComponent(signature!.slice('Signature='.length)), 'base64'))).toBe(true);
}

const post = (acsUrl: string, response: string) =>
  fetch(local(acsUrl), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ SAMLResponse: response, RelayState: 'quire' }).toString() });

describe('SAML providers', () => {
  it('answers the documented shape: status pending until ssoURL and certificate are set, then active; an unset certificate is empty', async () => {
    const { org, owner } = await createOrg(server.db);
    const created = await http(server.url, owner.token, 'POST', `/orgs/${org.id}/saml`, { label: 'Later', entityID: idp.entityId, ssoURL: idp.ssoUrl });
    expect(created.status).toBe(201);
    expectDocumented('post', '/orgs/{organizationId}/saml', '201', created.body);
    expect(created.body).toMatchObject({ status: 'pending', certificate: '' });
    const path = `/orgs/${org.id}/saml/${created.body.id}`;
    expectDocumented('get', '/orgs/{organizationId}/saml/{samlProviderId}', '200', (await http(server.url, owner.token, 'GET', path)).body);
    const ready = await http(server.url, owner.token, 'PATCH', path, { certificate: idp.keys.certificate });
    expectDocumented('patch', '/orgs/{organizationId}/saml/{samlProviderId}', '200', ready.body);
    expect(ready.body.status).toBe('active');
    const list = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/saml`);
    expectDocumented('get', '/orgs/{organizationId}/saml', '200', list.body);
    expect(list.body.items.map((p: { status: string }) => p.status)).toEqual(['active']);
  });

  it('creates, reads, updates and deletes providers, with their service URLs and limits', async () => {
    const { org, owner } = await createOrg(server.db);
    const provider = await providerOf(owner.token, org.id);
    expect(provider).toMatchObject({ object: 'saml-provider', label: 'Okta', ssoURL: idp.ssoUrl, service: { acsURL: `http://localhost:0/sso/saml/${provider.id}/acs`, startURL: `http://localhost:0/sso/saml/${provider.id}/start`, entityID: `http://localhost:0/sso/saml/${provider.id}` } });
    expect((await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}/saml/${provider.id}`, { label: 'Okta EU', defaultRole: 'edit' })).body).toMatchObject({ label: 'Okta EU', defaultRole: 'edit' });
    for (const [body, field] of [
      [{ label: 'x'.repeat(31) }, 'label'],
      [{ label: 'ok', certificate: 'not a certificate' }, 'certificate'],
      [{ label: 'ok', ssoURL: 'ftp://x' }, 'ssoURL'],
      [{ label: 'ok', defaultTeam: 'team_nope' }, 'defaultTeam'],
    ] as [unknown, string][]) {
      const answer = await http(server.url, owner.token, 'POST', `/orgs/${org.id}/saml`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toContain(`"${field}"`);
    }
    const member = await createActor(server.db, { org: org.id, role: 'read' });
    expect((await http(server.url, member.token, 'GET', `/orgs/${org.id}/sso`)).body).toEqual({ items: [{ id: provider.id, label: 'Okta EU', startURL: provider.service.startURL }] });
    expect((await http(server.url, member.token, 'GET', `/orgs/${org.id}/saml`)).status).toBe(403);
    const stranger = await createOrg(server.db);
    for (const [method, path] of [['GET', `/orgs/${org.id}/saml`], ['GET', `/orgs/${org.id}/saml/${provider.id}`], ['DELETE', `/orgs/${org.id}/saml/${provider.id}`], ['GET', `/orgs/${org.id}/sso`]]) {
      expect((await http(server.url, stranger.owner.token, method, path)).status, `${method} ${path}`).toBe(404);
    }
    expect((await http(server.url, owner.token, 'DELETE', `/orgs/${org.id}/saml/${provider.id}`)).status).toBe(205);
    expect((await http(server.url, owner.token, 'GET', `/orgs/${org.id}/saml/${provider.id}`)).status).toBe(404);
  });

  it('signs a new user in: provisioned with the default role and team, the SSO flag set, and a working API token', async () => {
    const { org, owner } = await createOrg(server.db);
    const team = (await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/teams`, { title: 'Engineering' })).body;
    const provider = await providerOf(owner.token, org.id, { defaultRole: 'edit', defaultTeam: team.id });
    const email = `ada-${Date.now()}@example.test`;
    const requestId = await requestIdOf(provider.service.startURL);
    const response = idp.response({ audience: provider.service.entityID, destination: provider.service.acsURL, inResponseTo: requestId, nameId: email, attributes: { firstName: 'Ada', lastName: 'Lovelace' } });
    const signedIn = await post(provider.service.acsURL, response);
    expect(signedIn.status, await signedIn.clone().text()).toBe(200);
    const login = await signedIn.json();
    expect(login).toMatchObject({ object: 'sso-login', user: { email }, organization: org.id, token: expect.stringMatching(/^quire_/) });
    const member = await http(server.url, login.token, 'GET', `/orgs/${org.id}/members/${login.user.id}`);
    expect(member.body).toMatchObject({ role: 'edit', sso: true, user: { displayName: 'Ada Lovelace' } });
    const teams = await http(server.url, login.token, 'GET', `/orgs/${org.id}/members/${login.user.id}/teams`);
    expect(JSON.stringify(teams.body.items)).toContain(team.id);
    expect(teams.body.items).toHaveLength(1);
    // Joining the organization and its default team are announced, once each.
    const events = await server.db.outboxEvent.findMany({ where: { organizationId: org.id, kind: { in: ['memberUpdated', 'teamUpdated'] }, actorId: login.user.id } });
    expect(events.map((e) => [e.kind, e.subjectId]).sort()).toEqual([['memberUpdated', login.user.id], ['teamUpdated', team.id]]);
    // Made through quire's own sign-in page (`ui`), by the posting client.
    expect(events.map((e) => [e.source, e.clientAddress])).toEqual([['ui', '127.0.0.1'], ['ui', '127.0.0.1']]);

    // The same response again: refused (replay), and so are a forged one and one for another audience.
    expect((await post(provider.service.acsURL, response)).status).toBe(401);
    const forged = idp.response({ audience: provider.service.entityID, destination: provider.service.acsURL, inResponseTo: await requestIdOf(provider.service.startURL), nameId: email, signWith: makeKeyPair('forger') });
    const refused = await post(provider.service.acsURL, forged);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toMatch(/INVALID_SIGNATURE/);
    const elsewhere = idp.response({ audience: 'https://other.example.test', destination: provider.service.acsURL, inResponseTo: await requestIdOf(provider.service.startURL), nameId: email });
    expect((await (await post(provider.service.acsURL, elsewhere)).json()).error.message).toMatch(/WRONG_AUDIENCE/);
    expect((await fetch(local(provider.service.acsURL), { method: 'POST', body: '' })).status).toBe(400);
  });

  it('enforces SSO for the SSO members of an organization with sso on: other tokens of theirs get 403 there, admins are exempt', async () => {
    const { org, owner } = await createOrg(server.db);
    const other = await createOrg(server.db);
    const provider = await providerOf(owner.token, org.id, { defaultRole: 'edit' });
    const space = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { title: 'Handbook' })).body;
    const email = `grace-${Date.now()}@example.test`;
    const response = idp.response({ audience: provider.service.entityID, destination: provider.service.acsURL, inResponseTo: await requestIdOf(provider.service.startURL), nameId: email });
    const login = await (await post(provider.service.acsURL, response)).json();
    // The same user in another organization, as an ordinary member.
    await server.db.member.create({ data: { organizationId: other.org.id, userId: login.user.id, role: 'read' } });
    const plainToken = () => issueToken(server.db, login.user.id, { name: 'not through SSO' });
    const before = await plainToken();
    expect((await http(server.url, before, 'GET', `/orgs/${org.id}`)).status).toBe(200);

    expect((await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}`, { sso: true })).body.sso).toBe(true);
    const plain = await plainToken(); // (a token an instance already knows learns of the change within QUIRE_TOKEN_CACHE_SECONDS)
    for (const path of [`/orgs/${org.id}`, `/orgs/${org.id}/spaces`, `/spaces/${space.id}`, `/orgs/${org.id}/members`]) {
      const refused = await http(server.url, plain, 'GET', path);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.message).toContain('single sign-on');
    }
    const graph = await gql(server.url, plain, `query($id: ID!) { space(id: $id) { title } }`, { id: space.id });
    expect(graph.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    // How to sign in stays visible; the organization's own SSO token works; elsewhere the plain token works.
    expect((await http(server.url, plain, 'GET', `/orgs/${org.id}/sso`)).body.items).toEqual([{ id: provider.id, label: 'Okta', startURL: provider.service.startURL }]);
    expect((await http(server.url, login.token, 'GET', `/spaces/${space.id}`)).body.title).toBe('Handbook');
    expect((await http(server.url, plain, 'GET', `/orgs/${other.org.id}`)).status).toBe(200);
    // Admins are not bound (a broken identity provider cannot lock the organization out), nor are non-SSO members.
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}`)).status).toBe(200);
    const contractor = await createActor(server.db, { org: org.id, role: 'edit' });
    expect((await http(server.url, contractor.token, 'GET', `/spaces/${space.id}`)).status).toBe(200);

    // Enforcement off again: plain tokens work.
    await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}`, { sso: false });
    expect((await http(server.url, await plainToken(), 'GET', `/spaces/${space.id}`)).status).toBe(200);
  });
});
