/**
 * A credential never crosses organizations (README, Access model). Tried as the admin of one
 * organization attacking another, through the real server: an identity provider of the attacker's
 * own (its key and certificate made here) vouching for another organization's owner; invitation
 * links (no SMTP: the link comes back to the inviting admin) for an existing account and for an
 * address another organization invited first. And the other side: a legitimate SAML sign-in, and a
 * new invitee joining with the link, still work — within their organization only.
 */
import { randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../src/domain/people/identity/tokens.js';
import { routes } from '../src/rest/routes/index.js';
import { gql, gqlOk, http } from './helpers/clients.js';
import { createActor, createOrg, type Actor } from './helpers/factories.js';
import { TestIdp } from './helpers/saml-idp.js';
import { useServer } from './helpers/server.js';

const server = useServer();
let attackerIdp: TestIdp;
beforeAll(() => {
  attackerIdp = new TestIdp();
});

const local = (url: string) => `${server.url}${new URL(url).pathname}${new URL(url).search}`;

/** The organization's admin configures a provider whose certificate they hold. */
async function providerOf(admin: Actor, orgId: string) {
  const created = await http(server.url, admin.token, 'POST', `/orgs/${orgId}/saml`, { label: 'Own IdP', entityID: attackerIdp.entityId, ssoURL: attackerIdp.ssoUrl, certificate: attackerIdp.keys.certificate });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: string; service: { entityID: string; acsURL: string; startURL: string } };
}

/** A response the provider signs for `email`, answering a fresh AuthnRequest; posted to the ACS. */
async function signIn(provider: { service: { entityID: string; acsURL: string; startURL: string } }, email: string) {
  const location = (await fetch(local(provider.service.startURL), { redirect: 'manual' })).headers.get('location')!;
  const request = inflateRawSync(Buffer.from(new URL(location).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  const inResponseTo = /\sID="([^"]+)"/.exec(request)![1];
  const response = attackerIdp.response({ audience: provider.service.entityID, destination: provider.service.acsURL, inResponseTo, nameId: email });
  const answer = await fetch(local(provider.service.acsURL), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ SAMLResponse: response }).toString() });
  return { status: answer.status, body: await answer.json() };
}

const INVITE = `mutation($org: ID!, $emails: [InviteeInput!]!, $role: Role) {
  inviteMembers(organizationId: $org, emails: $emails, role: $role) { users invites { id link } }
}`;

/** An e-mail invite of `orgId` for `email`, as its admin gets it back without SMTP: the invite ID and the link's secret. */
async function invite(admin: Actor, orgId: string, email: string, role: string | null = 'admin') {
  const { inviteMembers } = await gqlOk(server.url, admin.token, INVITE, { org: orgId, emails: [{ email }], role });
  return { id: inviteMembers.invites[0].id as string, secret: new URL(inviteMembers.invites[0].link).pathname.split('/').pop()!, userId: inviteMembers.users[0] as string };
}

async function acceptLink(secret: string, token?: string) {
  const response = await fetch(`${server.url}/invites/${secret}`, { method: 'POST', headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return { status: response.status, body: await response.json() };
}

/** An organization with content of every kind a GET route names, and the IDs to fill its paths with. */
async function victimOrganization() {
  const { org, owner } = await createOrg(server.db, 'Victim');
  const space = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { title: 'Secret plans' })).body;
  const collection = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/collections`, { title: 'Shelf' })).body;
  const changeRequest = (await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests`, { subject: 'Draft' })).body;
  const team = (await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/teams`, { title: 'Core' })).body;
  const site = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites`, { title: 'Docs' })).body;
  for (const made of [space, collection, changeRequest, team, site]) expect(made.id, JSON.stringify(made)).toBeTruthy();
  const ids: Record<string, string> = {
    organizationId: org.id, spaceId: space.id, collectionId: collection.id, changeRequestId: changeRequest.id, teamId: team.id, siteId: site.id, userId: owner.id,
  };
  return { org, owner, space, ids };
}

/** Every documented GET path whose parameters the victim's IDs fill, with them filled in. */
function getPathsOf(ids: Record<string, string>): string[] {
  return routes
    .filter((r) => {
      const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      return r.method === 'GET' && params.length > 0 && params.every((name) => name in ids);
    })
    .map((r) => r.path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name]));
}

const ok = (status: number) => status >= 200 && status < 300;

describe('a credential one organization vouched for reaches that organization only', () => {
  it("refuses an attacker's SAML assertion for another organization's owner: no token, no membership", async () => {
    const victim = await createOrg(server.db, 'Victim');
    const attacker = await createOrg(server.db, 'Attacker');
    const provider = await providerOf(attacker.owner, attacker.org.id);
    const attempt = await signIn(provider, victim.owner.email);
    expect(attempt.status).toBe(403);
    expect(attempt.body.token).toBeUndefined();
    expect(attempt.body.error.message).toContain('exists and is not a member of this organization');
    expect(await server.db.member.findUnique({ where: { organizationId_userId: { organizationId: attacker.org.id, userId: victim.owner.id } } })).toBeNull();
    expect(await server.db.apiToken.count({ where: { userId: victim.owner.id } })).toBe(1);
  });

  it("confines a legitimate SAML sign-in's token, and every token made with it, to the provider's organization", async () => {
    const victim = await victimOrganization();
    const other = await createOrg(server.db, 'Uses SAML');
    // One person, admin of the victim organization and member of the other, signs in through the other's provider.
    const person = await createActor(server.db, { org: other.org.id, role: 'edit' });
    await server.db.member.create({ data: { organizationId: victim.org.id, userId: person.id, role: 'admin' } });
    const provider = await providerOf(other.owner, other.org.id);
    const login = await signIn(provider, person.email);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const sso = login.body.token as string;
    expect((await http(server.url, sso, 'GET', `/orgs/${other.org.id}`)).status).toBe(200);

    // Every GET path of the victim organization: the person's own token reaches most; the SSO token none.
    const paths = getPathsOf(victim.ids);
    expect(paths.length).toBeGreaterThan(40);
    let reachedWithOwnToken = 0;
    for (const path of paths) {
      if (ok((await http(server.url, person.token, 'GET', path)).status)) reachedWithOwnToken++;
      const answer = await http(server.url, sso, 'GET', path);
      expect(ok(answer.status), `GET ${path}: ${answer.status}`).toBe(false);
      expect([404, 400, 405], `GET ${path}: ${answer.status}`).toContain(answer.status);
    }
    expect(reachedWithOwnToken).toBeGreaterThan(30);
    for (const [query, id] of [[`query($id: ID!) { organization(id: $id) { title } }`, victim.org.id], [`query($id: ID!) { space(id: $id) { title } }`, victim.space.id], [`query($id: ID!) { node(id: $id) { id } }`, victim.space.id]]) {
      expect((await gql(server.url, sso, query, { id })).errors?.[0].extensions?.code, query).toBe('NOT_FOUND');
    }
    const lists = await gqlOk(server.url, sso, `{ organizations(first: 10) { totalCount edges { node { id } } } apiTokens { id organizationId } }`);
    expect(lists.organizations).toEqual({ totalCount: 1, edges: [{ node: { id: other.org.id } }] });
    expect(lists.apiTokens.every((t: { organizationId: string }) => t.organizationId === other.org.id)).toBe(true);
    expect((await http(server.url, sso, 'GET', '/orgs')).body.items.map((o: { id: string }) => o.id)).toEqual([other.org.id]);

    // A token made with it is confined too; the person's wider tokens can be neither listed nor revoked with it.
    const minted = await gqlOk(server.url, sso, `mutation { createApiToken(input: { name: "laptop" }) { token apiToken { organizationId } } }`);
    expect(minted.createApiToken.apiToken.organizationId).toBe(other.org.id);
    expect((await http(server.url, minted.createApiToken.token, 'GET', `/orgs/${victim.org.id}/members`)).status).toBe(404);
    expect((await http(server.url, minted.createApiToken.token, 'GET', `/spaces/${victim.space.id}`)).status).toBe(404);
    const wide = await server.db.apiToken.findFirstOrThrow({ where: { userId: person.id, organizationId: null } });
    expect((await gql(server.url, sso, `mutation($id: ID!) { revokeApiToken(id: $id) }`, { id: wide.id })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await http(server.url, person.token, 'GET', `/spaces/${victim.space.id}`)).status).toBe(200);
  });

  it("gives no credential for an existing account through another organization's invitation link", async () => {
    const victim = await createOrg(server.db, 'Victim');
    const attacker = await createOrg(server.db, 'Attacker');
    // The victim's owner revoked every token of theirs: the account has no live credential.
    await server.db.apiToken.deleteMany({ where: { userId: victim.owner.id } });
    const link = await invite(attacker.owner, attacker.org.id, victim.owner.email);
    const opened = await acceptLink(link.secret);
    expect(opened.status).toBe(403);
    expect(opened.body.token).toBeUndefined();
    expect(opened.body.error.message).toContain('existing account');
    expect(await server.db.apiToken.count({ where: { userId: victim.owner.id } })).toBe(0);
    expect(await server.db.member.count({ where: { organizationId: attacker.org.id, userId: victim.owner.id } })).toBe(0);

    // The account itself accepts, signed in: it joins, and gets no new token.
    const own = await createActor(server.db, { email: `someone-${randomUUID().slice(0, 8)}@example.test` });
    expect((await acceptLink(link.secret, own.token)).status).toBe(403);
    const token = await issueToken(server.db, victim.owner.id, { name: 'signed in again' });
    const accepted = await acceptLink(link.secret, token);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ organization: attacker.org.id, user: { id: victim.owner.id } });
    expect(accepted.body.token).toBeUndefined();
  });

  it('confines what an address squatted through one organization\'s link reaches: nothing in the organization that invited it first', async () => {
    const victim = await victimOrganization();
    const attacker = await createOrg(server.db, 'Attacker');
    const email = `newcomer-${randomUUID().slice(0, 8)}@example.test`;
    const victimInvite = await invite(victim.owner, victim.org.id, email, 'edit');
    // The attacker invites the same pending address and accepts first.
    const squat = await acceptLink((await invite(attacker.owner, attacker.org.id, email)).secret);
    expect(squat.status).toBe(200);
    const squatted = squat.body.token as string;
    expect((await http(server.url, squatted, 'GET', `/orgs/${attacker.org.id}`)).status).toBe(200);
    // The squatted credential cannot take the victim's invite…
    expect((await http(server.url, squatted, 'POST', `/orgs/${victim.org.id}/invites/${victimInvite.id}`)).status).toBe(404);
    // …the genuine invitee still joins with the victim's link, with a credential of the victim's organization…
    const genuine = await acceptLink(victimInvite.secret);
    expect(genuine.status, JSON.stringify(genuine.body)).toBe(200);
    expect((await http(server.url, genuine.body.token, 'GET', `/spaces/${victim.space.id}`)).status).toBe(200);
    expect((await http(server.url, genuine.body.token, 'GET', `/orgs/${attacker.org.id}`)).status).toBe(404);
    // …and the squatted credential reads nothing of the victim's, though its account is a member there now.
    for (const path of getPathsOf(victim.ids)) {
      const answer = await http(server.url, squatted, 'GET', path);
      expect(ok(answer.status), `GET ${path}: ${answer.status}`).toBe(false);
    }
    const changeRequests = await http(server.url, squatted, 'GET', `/spaces/${victim.space.id}/change-requests`);
    expect(changeRequests.status).toBe(404);
  });

  it('lets a confined credential join no other organization through a link invite', async () => {
    const victim = await createOrg(server.db, 'Victim');
    const attacker = await createOrg(server.db, 'Attacker');
    const linkInvite = (await http(server.url, victim.owner.token, 'POST', `/orgs/${victim.org.id}/link-invites`, { role: 'read' })).body;
    expect(linkInvite.id).toBeTruthy();
    const newcomer = await acceptLink((await invite(attacker.owner, attacker.org.id, `fresh-${randomUUID().slice(0, 8)}@example.test`)).secret);
    expect(newcomer.status).toBe(200);
    expect((await http(server.url, newcomer.body.token, 'POST', `/orgs/${victim.org.id}/invites/${linkInvite.id}`)).status).toBe(404);
    expect(await server.db.member.count({ where: { organizationId: victim.org.id, userId: newcomer.body.user.id } })).toBe(0);
  });
});
