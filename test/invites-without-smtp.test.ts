/**
 * E-mail invites on a server without SMTP_URL: nothing is sent, the message is logged, and the
 * admin gets each invite's link in GraphQL to pass on; the link works like an e-mailed one.
 * Also: a link invite to content that moved to another organization reaches nothing. (With an SMTP
 * server: invites.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gql, gqlOk, http } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

const INVITE = `mutation($org: ID!, $emails: [InviteeInput!]!, $role: Role) {
  inviteMembers(organizationId: $org, emails: $emails, role: $role) { users invited failedSSOEmails invites { id email role delivered link expiresAt } }
}`;

const address = (label: string) => `${label}-${randomUUID().slice(0, 8)}@Example.test`;

/** The secret part of an invitation link. */
const secretOf = (link: string) => new URL(link).pathname.split('/').pop()!;

const USER_AGENT = 'invite-page-test/1';

async function accept(secret: string, accept = 'application/json') {
  const response = await fetch(`${server.url}/invites/${secret}`, { method: 'POST', headers: { accept, 'user-agent': USER_AGENT } });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('e-mail invites without an SMTP server', () => {
  it('hands the admin each link, which a new user accepts for a first API token', async () => {
    const { org, owner } = await createOrg(server.db, 'Acme Docs');
    const email = address('new');
    const { inviteMembers } = await gqlOk(server.url, owner.token, INVITE, { org: org.id, emails: [{ email }], role: 'edit' });
    expect(inviteMembers).toMatchObject({ invited: 1, failedSSOEmails: [], invites: [{ email: email.toLowerCase(), role: 'edit', delivered: false }] });
    const [invite] = inviteMembers.invites;
    expect(invite.link).toMatch(new RegExp(`^${server.config.publicUrl}/invites/[A-Za-z0-9_-]{40,}$`));
    const userId = inviteMembers.users[0];
    // Pending: not a member yet, listed as an invite.
    expect((await http(server.url, owner.token, 'GET', `/orgs/${org.id}/members/${userId}`)).status).toBe(404);
    const pending = await gqlOk(server.url, owner.token, `query($org: ID!) { organization(id: $org) { memberInvites(first: 5) { totalCount edges { node { id email role user { id } } } } } }`, { org: org.id });
    expect(pending.organization.memberInvites).toMatchObject({ totalCount: 1, edges: [{ node: { id: invite.id, email: email.toLowerCase(), role: 'edit', user: { id: userId } } }] });

    const page = await fetch(`${server.url}/invites/${secretOf(invite.link)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('Acme Docs');
    expect(html).toContain('<form method="post"');

    const accepted = await accept(secretOf(invite.link));
    expect(accepted.status).toBe(200);
    const body = JSON.parse(accepted.text);
    expect(body).toMatchObject({ object: 'invite-acceptance', organization: org.id, user: { id: userId, email: email.toLowerCase() }, role: 'edit', token: expect.any(String) });
    expect((await http(server.url, body.token, 'GET', `/orgs/${org.id}`)).status).toBe(200);
    expect((await http(server.url, owner.token, 'GET', `/orgs/${org.id}/members/${userId}`)).body).toMatchObject({ role: 'edit', sso: false });
    // The joining is recorded as made through quire's own page (`ui`), by the accepting client.
    const joined = await server.db.outboxEvent.findMany({ where: { organizationId: org.id, kind: 'memberUpdated', subjectId: userId }, select: { source: true, clientAddress: true, userAgent: true } });
    expect(joined).toEqual([{ source: 'ui', clientAddress: '127.0.0.1', userAgent: USER_AGENT }]);
    // Used once; the pending list is empty again.
    expect((await accept(secretOf(invite.link))).status).toBe(404);
    expect((await gqlOk(server.url, owner.token, `query($org: ID!) { organization(id: $org) { memberInvites(first: 5) { totalCount } } }`, { org: org.id })).organization.memberInvites.totalCount).toBe(0);
  });

  it('joins an existing user only signed in as themself, without giving them a token, through the HTML page', async () => {
    const { org, owner } = await createOrg(server.db);
    const existing = await createActor(server.db);
    const { inviteMembers } = await gqlOk(server.url, owner.token, INVITE, { org: org.id, emails: [{ email: existing.email.toUpperCase() }], role: null });
    expect(inviteMembers.users).toEqual([existing.id]);
    const secret = secretOf(inviteMembers.invites[0].link);
    // The page asks an existing account for its API token; the link alone does nothing.
    expect(await (await fetch(`${server.url}/invites/${secret}`)).text()).toContain('name="token"');
    const refused = await accept(secret, 'text/html');
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('existing account');
    expect((await http(server.url, owner.token, 'GET', `/orgs/${org.id}/members/${existing.id}`)).status).toBe(404);
    const form = (token: string) =>
      fetch(`${server.url}/invites/${secret}`, { method: 'POST', headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }).toString() });
    expect((await form('quire_not-a-token')).status).toBe(401);
    const accepted = await form(existing.token);
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('content-type')).toContain('text/html');
    expect(await accepted.text()).not.toContain('API token —');
    expect((await http(server.url, existing.token, 'GET', `/orgs/${org.id}/members/${existing.id}`)).body).toMatchObject({ role: null });
  });

  it('refuses non-admins and other organizations, and validates with a 400 naming the field', async () => {
    const { org, owner } = await createOrg(server.db);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const stranger = await createOrg(server.db);
    expect((await gql(server.url, reader.token, INVITE, { org: org.id, emails: [{ email: address('x') }] })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await gql(server.url, stranger.owner.token, INVITE, { org: org.id, emails: [{ email: address('x') }] })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const bad = await gql(server.url, owner.token, INVITE, { org: org.id, emails: [{ email: address('ok') }, { email: 'nope' }] });
    expect(bad.errors?.[0].message).toContain('"emails.1.email"');
    // Nothing was written by the refused request.
    expect((await gqlOk(server.url, owner.token, `query($org: ID!) { organization(id: $org) { memberInvites(first: 5) { totalCount } } }`, { org: org.id })).organization.memberInvites.totalCount).toBe(0);
  });

  it('drops the link invites of a space or collection moved to another organization', async () => {
    const { org, owner } = await createOrg(server.db);
    const other = await createOrg(server.db);
    await server.db.member.create({ data: { organizationId: other.org.id, userId: owner.id, role: 'admin' } });
    const space = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { title: 'Moving' })).body;
    const invite = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/link-invites`, { level: 'edit', space: space.id })).body;
    expect((await http(server.url, owner.token, 'POST', `/spaces/${space.id}/transfer`, { organization: other.org.id })).status).toBe(200);
    // The invite went with the grants the space had there.
    expect((await http(server.url, owner.token, 'GET', `/orgs/${org.id}/link-invites/${invite.id}`)).status).toBe(404);
    const newcomer = await createActor(server.db);
    expect((await http(server.url, newcomer.token, 'POST', `/orgs/${org.id}/invites/${invite.id}`)).status).toBe(404);
    // Nothing was written: no membership, no grant.
    expect((await http(server.url, newcomer.token, 'GET', `/orgs/${org.id}`)).status).toBe(404);
    expect((await http(server.url, newcomer.token, 'GET', `/spaces/${space.id}`)).status).toBe(404);
    // Likewise a collection's.
    const collection = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/collections`, { title: 'Shelf' })).body;
    const toCollection = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/link-invites`, { level: 'read', collection: collection.id })).body;
    expect((await http(server.url, owner.token, 'POST', `/collections/${collection.id}/transfer`, { organization: other.org.id })).status).toBe(200);
    expect((await http(server.url, newcomer.token, 'POST', `/orgs/${org.id}/invites/${toCollection.id}`)).status).toBe(404);
    expect((await http(server.url, owner.token, 'GET', `/orgs/${org.id}/link-invites/${toCollection.id}`)).status).toBe(404);
  });
});
