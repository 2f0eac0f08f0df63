/**
 * Invites (4.3) on a server with an SMTP server (smtp-server on 127.0.0.1, started before the
 * quire server so that SMTP_URL names its port):
 * - e-mail invites, `POST /orgs/{id}/invites`: admins only; validation with a 400 naming the field
 *   and nothing written; the answer `{users, invited, failedSSOEmails}`; accounts created for new
 *   addresses; addresses matched case-insensitively; members skipped; roles (the item's, the
 *   request's, the organization's default, null for guests); one e-mail per invitee with the
 *   organization in the subject and the link in the text; re-inviting replaces the link; SSO;
 * - the e-mailed link, `/invites/<secret>` without an API token: a GET shows a page and accepts
 *   nothing, a POST accepts once (JSON, or an HTML page for a browser form), with a first API token
 *   for a new user only;
 * - joining with an invite ID, `POST /orgs/{id}/invites/{inviteId}`: link invites to the
 *   organization (roles raised, never lowered), to a space or a collection (as a guest with a
 *   grant there), while invite links are on and before they expire; one's own pending e-mail invite;
 * - link invites CRUD, `/orgs/{id}/link-invites`: shapes, validation, paging, access and isolation;
 * - GraphQL: `inviteMembers` (delivered, no link), `memberInvites` and `revokeMemberInvite`, `linkInvites`.
 * (Without an SMTP server: invites-without-smtp.test.ts.)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { MemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { gql, gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg, type Actor } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { useSmtpServer, type ReceivedMail } from './helpers/smtp.js';

// The SMTP server's beforeAll is registered first, so its port is known when the server starts.
const smtp = useSmtpServer();
const server = useServer({ env: () => ({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` }) });

type InviteAnswer = { users: string[]; invited: number; failedSSOEmails: string[] };

const tag = () => randomUUID().slice(0, 8);
const address = (label: string) => `${label}-${tag()}@example.test`;
const uniqueTitle = (label = 'Acme') => `${label} ${tag()}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const DAY = 24 * 3600 * 1000;

// ——— e-mail invites and their links ———

const invite = (token: string, orgId: string, body: unknown) => http(server.url, token, 'POST', `/orgs/${orgId}/invites`, body);

async function invited(token: string, orgId: string, body: unknown): Promise<InviteAnswer> {
  const answer = await invite(token, orgId, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const member = (token: string, orgId: string, userId: string) => http(server.url, token, 'GET', `/orgs/${orgId}/members/${userId}`);

/** The secret of an invitation e-mail's link `…/invites/<secret>` (in the decoded text part). */
function secretOf(mail: ReceivedMail): string {
  const match = /\/invites\/([A-Za-z0-9_-]{20,})/.exec(mail.text);
  expect(match, `no invitation link in:\n${mail.text}`).not.toBeNull();
  return match![1];
}

/** The secret of the last of exactly `count` invitations e-mailed to `email`. */
async function secretFor(email: string, count = 1): Promise<string> {
  const mails = await smtp.waitFor(email, count);
  expect(mails, `e-mails to ${email}`).toHaveLength(count);
  return secretOf(mails[count - 1]);
}

/** The e-mailed link, opened on the test server (its public URL names port 0). */
async function openLink(secret: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}/invites/${secret}`, init);
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** Accepts the invitation behind `secret`, asking for JSON. */
/** Accepts with the link; `token`: signed in as the invited account (an existing account must be). */
async function accept(secret: string, token?: string) {
  const answer = await openLink(secret, { method: 'POST', headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return { status: answer.status, type: answer.type, body: answer.type.includes('json') && answer.text ? JSON.parse(answer.text) : answer.text };
}

async function acceptOk(secret: string, token?: string) {
  const answer = await accept(secret, token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

// ——— link invites ———

const links = (orgId: string) => `/orgs/${orgId}/link-invites`;

async function linkInvite(token: string, orgId: string, body: unknown) {
  const created = await http(server.url, token, 'POST', links(orgId), body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

const join = (token: string | undefined, orgId: string, inviteId: string) => http(server.url, token, 'POST', `/orgs/${orgId}/invites/${inviteId}`);

async function spaceOf(owner: Actor, orgId: string, title = 'Handbook') {
  const created = await http(server.url, owner.token, 'POST', `/orgs/${orgId}/spaces`, { title });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function collectionOf(owner: Actor, orgId: string, title = 'Guides') {
  const created = await http(server.url, owner.token, 'POST', `/orgs/${orgId}/collections`, { title });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

const MEMBER_INVITES = `query($org: ID!) { organization(id: $org) { memberInvites(first: 10) { totalCount edges { node { id email role expiresAt } } } } }`;

describe('e-mail invites: POST /orgs/{id}/invites', () => {
  it("answers the invited users' IDs: a new account for an unknown address, an existing user's own ID", async () => {
    const { org, owner } = await createOrg(server.db, uniqueTitle());
    const fresh = address('new');
    const existing = await createActor(server.db);
    const { status, data } = await sdk(server.url, owner.token).orgs.inviteUsersToOrganization(org.id, { emails: [fresh, existing.email] });
    expect(status).toBe(200);
    expect(data).toEqual({ users: expect.any(Array), invited: 2, failedSSOEmails: [] });
    expect(data.users).toHaveLength(2);
    expect(data.users).toContain(existing.id);
    const freshId = data.users.find((id) => id !== existing.id)!;
    expect(freshId).toEqual(expect.any(String));
    // Invited, not members until they accept.
    for (const id of data.users) expect((await member(owner.token, org.id, id)).status).toBe(404);
    expect((await http(server.url, existing.token, 'GET', `/orgs/${org.id}`)).status).toBe(404);
    // The new account is the one whose invitation the link accepts.
    expect((await acceptOk(await secretFor(fresh))).user).toEqual({ id: freshId, email: fresh });
  });

  it("gives each invitee the item's role, else the request's, else the organization's default; null invites a guest", async () => {
    const { org, owner } = await createOrg(server.db);
    expect((await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}`, { defaultRole: 'review' })).body.defaultRole).toBe('review');
    const [own, requested, guest, byDefault, allGuests] = ['own', 'requested', 'guest', 'default', 'guests'].map(address);
    await invited(owner.token, org.id, { emails: [{ email: own, role: 'edit' }, requested, { email: guest, role: null }], role: 'comment' });
    await invited(owner.token, org.id, { emails: [byDefault] });
    await invited(owner.token, org.id, { emails: [allGuests], role: null });
    for (const [email, role] of [[own, 'edit'], [requested, 'comment'], [guest, null], [byDefault, 'review'], [allGuests, null]] as [string, string | null][]) {
      const accepted = await acceptOk(await secretFor(email));
      expect(accepted.role, email).toBe(role);
      const joined = await member(owner.token, org.id, accepted.user.id);
      expect(joined.status, email).toBe(200);
      expect(joined.body.role, email).toBe(role);
    }
  });

  it('matches addresses case-insensitively: one user and one e-mail per address, duplicates counted once', async () => {
    const { org, owner } = await createOrg(server.db);
    const local = `ann-${tag()}`;
    const result = await invited(owner.token, org.id, { emails: [`${local}@Example.test`, `${local.toUpperCase()}@EXAMPLE.TEST`, { email: `${local}@example.test`, role: 'edit' }] });
    expect(result.invited).toBe(1);
    expect(result.users).toHaveLength(1);
    const mails = await smtp.waitFor(`${local}@example.test`);
    expect(mails).toHaveLength(1);
    expect(mails[0].rcptTo).toEqual([`${local}@example.test`]);
    expect((await acceptOk(secretOf(mails[0]))).user).toEqual({ id: result.users[0], email: `${local}@example.test` });
    // An existing user named in capitals: their own account.
    const existing = await createActor(server.db);
    expect((await invited(owner.token, org.id, { emails: [existing.email.toUpperCase()] })).users).toEqual([existing.id]);
  });

  it('skips addresses whose users are already members: not in users, not counted, not e-mailed', async () => {
    const { org, owner } = await createOrg(server.db);
    const editor = await createActor(server.db, { org: org.id, role: 'edit' });
    const fresh = address('new');
    const result = await invited(owner.token, org.id, { emails: [editor.email, fresh], role: 'read' });
    expect(result.invited).toBe(1);
    expect(result.users).toHaveLength(1);
    expect(result.users).not.toContain(editor.id);
    expect(smtp.to(editor.email)).toHaveLength(0);
    expect((await member(owner.token, org.id, editor.id)).body.role).toBe('edit');
    expect(await invited(owner.token, org.id, { emails: [owner.email.toUpperCase()] })).toEqual({ users: [], invited: 0, failedSSOEmails: [] });
    expect(smtp.to(owner.email)).toHaveLength(0);
  });

  it('e-mails each invitee once: to the lower-cased address, the organization in the subject, the link in the text', async () => {
    const title = uniqueTitle('Handbook');
    const { org, owner } = await createOrg(server.db, title);
    const first = address('First');
    const second = address('second');
    await invited(owner.token, org.id, { emails: [first, second] });
    const secrets: string[] = [];
    for (const email of [first.toLowerCase(), second]) {
      const mails = await smtp.waitFor(email);
      expect(mails, email).toHaveLength(1);
      const [mail] = mails;
      expect(mail.rcptTo).toEqual([email]);
      expect(mail.subject).toContain(title);
      const secret = secretOf(mail);
      expect(mail.text).toContain(`${server.config.publicUrl}/invites/${secret}`);
      secrets.push(secret);
    }
    expect(secrets[0]).not.toBe(secrets[1]);
    for (const secret of secrets) expect((await openLink(secret)).status).toBe(200);
  });

  it('re-inviting a pending address e-mails a new link and retires the old one', async () => {
    const { org, owner } = await createOrg(server.db);
    const email = address('again');
    const before = await invited(owner.token, org.id, { emails: [email], role: 'read' });
    const old = await secretFor(email, 1);
    const after = await invited(owner.token, org.id, { emails: [email], role: 'edit' });
    expect(after).toEqual({ users: before.users, invited: 1, failedSSOEmails: [] });
    const renewed = await secretFor(email, 2);
    expect(renewed).not.toBe(old);
    expect((await openLink(old)).status).toBe(404);
    expect((await accept(old)).status).toBe(404);
    expect(await acceptOk(renewed)).toMatchObject({ user: { id: before.users[0] }, role: 'edit' });
  });

  it('is for organization admins: 403 for other members, 404 for another organization; nothing is sent', async () => {
    const { org } = await createOrg(server.db);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const editor = await createActor(server.db, { org: org.id, role: 'edit' });
    const stranger = await createOrg(server.db);
    const fresh = address('refused');
    expect((await invite(reader.token, org.id, { emails: [fresh] })).status).toBe(403);
    expect((await invite(editor.token, org.id, { emails: [fresh] })).status).toBe(403);
    expect((await sdkError(sdk(server.url, stranger.owner.token).orgs.inviteUsersToOrganization(org.id, { emails: [fresh] }))).status).toBe(404);
    expect(smtp.to(fresh)).toHaveLength(0);
    expect(await server.db.user.findFirst({ where: { email: fresh } })).toBeNull();
  });

  it('validates the body with a 400 naming the field, writing nothing', async () => {
    const { org, owner } = await createOrg(server.db);
    const valid = address('valid');
    const bulk = Array.from({ length: 101 }, (_, i) => `bulk${i}-${tag()}@example.test`);
    for (const [body, field] of [
      [{}, 'emails'],
      [{ emails: [] }, 'emails'],
      [{ emails: valid }, 'emails'],
      [{ emails: bulk }, 'emails'],
      [{ emails: ['not-an-address'] }, 'emails.0'],
      [{ emails: [valid, 'not-an-address'] }, 'emails.1'],
      [{ emails: [valid, { email: address('x'), role: 'boss' }] }, 'emails.1.role'],
      [{ emails: [valid], role: 'boss' }, 'role'],
      [{ emails: [valid], sso: 'yes' }, 'sso'],
    ] as [unknown, string][]) {
      const answer = await invite(owner.token, org.id, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message, JSON.stringify(body)).toContain(`"${field}"`);
    }
    const viaSdk = await sdkError(sdk(server.url, owner.token).orgs.inviteUsersToOrganization(org.id, { emails: ['not-an-address'] }));
    expect(viaSdk).toMatchObject({ status: 400, message: expect.stringContaining('"emails.0"') });
    // Nothing was written: no account, no e-mail, no pending invite; a valid request then invites the address.
    expect(await server.db.user.findFirst({ where: { email: valid } })).toBeNull();
    expect(await server.db.user.findFirst({ where: { email: bulk[0] } })).toBeNull();
    expect(smtp.to(valid)).toHaveLength(0);
    expect((await gqlOk(server.url, owner.token, MEMBER_INVITES, { org: org.id })).organization.memberInvites.totalCount).toBe(0);
    const result = await invited(owner.token, org.id, { emails: [valid] });
    expect(result.invited).toBe(1);
    expect(await smtp.waitFor(valid)).toHaveLength(1);
  });

  it('accepts up to 100 addresses in one request', async () => {
    const { org, owner } = await createOrg(server.db);
    const emails = Array.from({ length: 100 }, (_, i) => `hundred${i}-${tag()}@example.test`);
    const result = await invited(owner.token, org.id, { emails, role: 'read' });
    expect(result.invited).toBe(100);
    expect(new Set(result.users).size).toBe(100);
    expect(await smtp.waitFor(emails[99])).toHaveLength(1);
  }, 60_000); // 100 messages through SMTP, one after another

  it('sso: invites members of another organization without SSO (failedSSOEmails), new addresses as SSO members', async () => {
    const { org, owner } = await createOrg(server.db);
    const other = await createOrg(server.db);
    const elsewhere = await createActor(server.db, { org: other.org.id, role: 'read' });
    const fresh = address('sso');
    const result = await invited(owner.token, org.id, { emails: [fresh, elsewhere.email], role: 'edit', sso: true });
    expect(result.invited).toBe(2);
    expect(result.users).toContain(elsewhere.id);
    expect(result.failedSSOEmails).toEqual([elsewhere.email]);
    const newcomer = await acceptOk(await secretFor(fresh));
    expect((await member(owner.token, org.id, newcomer.user.id)).body).toMatchObject({ role: 'edit', sso: true });
    await acceptOk(await secretFor(elsewhere.email), elsewhere.token);
    expect((await member(owner.token, org.id, elsewhere.id)).body).toMatchObject({ role: 'edit', sso: false });
    // Without `sso`, a new address joins as an ordinary member.
    const plain = address('plain');
    expect((await invited(owner.token, org.id, { emails: [plain], role: 'edit' })).failedSSOEmails).toEqual([]);
    const joined = await acceptOk(await secretFor(plain));
    expect((await member(owner.token, org.id, joined.user.id)).body).toMatchObject({ role: 'edit', sso: false });
  });
});

describe('the e-mailed link: /invites/<secret>, without an API token', () => {
  it('GET shows an HTML page naming the organization, with a form to accept, and accepts nothing', async () => {
    const title = uniqueTitle('Atlas');
    const { org, owner } = await createOrg(server.db, title);
    const email = address('viewer');
    const { users } = await invited(owner.token, org.id, { emails: [email], role: 'read' });
    const secret = await secretFor(email);
    for (let i = 0; i < 2; i++) {
      const page = await openLink(secret);
      expect(page.status).toBe(200);
      expect(page.type).toContain('text/html');
      expect(page.text).toContain(title);
      expect(page.text).toContain('<form method="post"');
    }
    expect((await member(owner.token, org.id, users[0])).status).toBe(404);
  });

  it("POST accepts a new user's invitation: JSON with a first API token, which works", async () => {
    const { org, owner } = await createOrg(server.db);
    const email = address('newcomer');
    const { users } = await invited(owner.token, org.id, { emails: [email], role: 'edit' });
    const secret = await secretFor(email);
    const accepted = await accept(secret);
    expect(accepted.status).toBe(200);
    expect(accepted.type).toContain('application/json');
    expect(accepted.body).toEqual({ object: 'invite-acceptance', organization: org.id, user: { id: users[0], email }, role: 'edit', token: expect.any(String) });
    const token = accepted.body.token as string;
    expect(token.length).toBeGreaterThan(10);
    expect((await http(server.url, token, 'GET', `/orgs/${org.id}`)).status).toBe(200);
    expect((await sdk(server.url, token).user.getAuthenticatedUser()).data.id).toBe(users[0]);
    expect((await member(owner.token, org.id, users[0])).body).toMatchObject({ role: 'edit', user: { id: users[0] } });
    // Used once.
    expect((await accept(secret)).status).toBe(404);
    expect((await openLink(secret)).status).toBe(404);
    expect((await member(owner.token, org.id, users[0])).body.role).toBe('edit');
  });

  it('gives an existing account no new token: it accepts signed in, and its own token now reaches the organization', async () => {
    const { org, owner } = await createOrg(server.db);
    const existing = await createActor(server.db);
    await invited(owner.token, org.id, { emails: [existing.email], role: 'comment' });
    expect((await http(server.url, existing.token, 'GET', `/orgs/${org.id}`)).status).toBe(404);
    // The link alone, or with another account's token, is refused (the invite stays pending).
    expect((await accept(await secretFor(existing.email))).status).toBe(403);
    expect((await accept(await secretFor(existing.email), owner.token)).status).toBe(403);
    const accepted = await acceptOk(await secretFor(existing.email), existing.token);
    expect(accepted).toEqual({ object: 'invite-acceptance', organization: org.id, user: { id: existing.id, email: existing.email }, role: 'comment' });
    expect(accepted).not.toHaveProperty('token');
    expect((await http(server.url, existing.token, 'GET', `/orgs/${org.id}`)).status).toBe(200);
    expect((await member(owner.token, org.id, existing.id)).body.role).toBe('comment');
  });

  it('answers 404 for unknown and malformed secrets', async () => {
    for (const secret of [randomBytes(32).toString('base64url'), 'short', 'not%20a%20secret']) {
      expect((await openLink(secret)).status, secret).toBe(404);
      expect((await accept(secret)).status, secret).toBe(404);
    }
  });

  it("accepts a browser's form POST with an HTML page showing the new user's token", async () => {
    const title = uniqueTitle('Forms');
    const { org, owner } = await createOrg(server.db, title);
    const email = address('browser');
    const { users } = await invited(owner.token, org.id, { emails: [email], role: null });
    const page = await openLink(await secretFor(email), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, body: '' });
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    expect(page.text).toContain(title);
    // The token shown on the page signs the new guest in.
    const token = /quire_[A-Za-z0-9_-]+/.exec(page.text)?.[0];
    expect(token, page.text).toBeDefined();
    expect((await sdk(server.url, token).user.getAuthenticatedUser()).data.id).toBe(users[0]);
    expect((await member(owner.token, org.id, users[0])).body.role).toBeNull();
  });
});

describe('joining with an invite ID: POST /orgs/{id}/invites/{inviteId}', () => {
  it("joins a user of no organization with an organization link invite's role; joining again changes nothing", async () => {
    const { org, owner } = await createOrg(server.db);
    const link = await linkInvite(owner.token, org.id, { role: 'edit' });
    const user = await createActor(server.db);
    const api = sdk(server.url, user.token);
    const joined = await api.orgs.joinOrganizationWithInvite(org.id, link.id);
    expect(joined.status).toBe(200);
    expect(joined.data).toEqual({});
    expect((await member(owner.token, org.id, user.id)).body).toMatchObject({ role: 'edit' });
    expect((await http(server.url, user.token, 'GET', `/orgs/${org.id}`)).status).toBe(200);
    const again = await join(user.token, org.id, link.id);
    expect(again).toEqual({ status: 200, body: {} });
    expect((await member(owner.token, org.id, user.id)).body.role).toBe('edit');
  });

  it('raises a lower role and never lowers a higher one', async () => {
    const { org, owner } = await createOrg(server.db);
    const link = await linkInvite(owner.token, org.id, { role: 'edit' });
    const admin = await createActor(server.db, { org: org.id, role: 'admin' });
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    for (const [actor, role] of [[admin, 'admin'], [reader, 'edit'], [guest, 'edit']] as [Actor, string][]) {
      expect((await join(actor.token, org.id, link.id)).status).toBe(200);
      expect((await member(owner.token, org.id, actor.id)).body.role).toBe(role);
    }
  });

  it('a space link invite makes a guest with that level on the space, and nothing else', async () => {
    const { org, owner } = await createOrg(server.db);
    const space = await spaceOf(owner, org.id, 'Handbook');
    const elsewhere = await spaceOf(owner, org.id, 'Secret plans');
    const link = await linkInvite(owner.token, org.id, { level: 'comment', space: space.id });
    const user = await createActor(server.db);
    expect((await http(server.url, user.token, 'GET', `/spaces/${space.id}`)).status).toBe(404);
    expect((await sdk(server.url, user.token).orgs.joinOrganizationWithInvite(org.id, link.id)).status).toBe(200);
    expect((await member(owner.token, org.id, user.id)).body.role).toBeNull();
    const seen = await http(server.url, user.token, 'GET', `/spaces/${space.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ id: space.id, title: 'Handbook', permissions: { comment: true, edit: false } });
    expect((await http(server.url, user.token, 'GET', `/spaces/${elsewhere.id}`)).status).toBe(404);
  });

  it('a collection link invite makes a guest with access to the collection, and nothing else', async () => {
    const { org, owner } = await createOrg(server.db);
    const collection = await collectionOf(owner, org.id, 'Guides');
    const other = await collectionOf(owner, org.id, 'Internal');
    const link = await linkInvite(owner.token, org.id, { level: 'read', collection: collection.id });
    const user = await createActor(server.db);
    expect((await http(server.url, user.token, 'GET', `/collections/${collection.id}`)).status).toBe(404);
    expect((await join(user.token, org.id, link.id)).status).toBe(200);
    expect((await member(owner.token, org.id, user.id)).body.role).toBeNull();
    expect((await http(server.url, user.token, 'GET', `/collections/${collection.id}`)).body).toMatchObject({ id: collection.id, title: 'Guides' });
    expect((await http(server.url, user.token, 'GET', `/collections/${other.id}`)).status).toBe(404);
  });

  it('refuses link invites (403) while the organization has invite links off, and takes them again once on', async () => {
    const { org, owner } = await createOrg(server.db);
    const link = await linkInvite(owner.token, org.id, { role: 'read' });
    const user = await createActor(server.db);
    expect((await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}`, { inviteLinks: false })).body.inviteLinks).toBe(false);
    expect((await join(user.token, org.id, link.id)).status).toBe(403);
    expect((await member(owner.token, org.id, user.id)).status).toBe(404);
    expect((await http(server.url, owner.token, 'POST', links(org.id), { role: 'read' })).status).toBe(403);
    expect((await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}`, { inviteLinks: true })).body.inviteLinks).toBe(true);
    expect((await join(user.token, org.id, link.id)).status).toBe(200);
    expect((await member(owner.token, org.id, user.id)).body.role).toBe('read');
  });

  it('answers 410 for an expired link invite', async () => {
    const { org, owner } = await createOrg(server.db);
    const started = Date.now();
    const link = await linkInvite(owner.token, org.id, { role: 'read', expiresAt: new Date(started + 2_000).toISOString() });
    const user = await createActor(server.db);
    await sleep(Math.max(0, started + 2_500 - Date.now()));
    expect((await join(user.token, org.id, link.id)).status).toBe(410);
    expect((await member(owner.token, org.id, user.id)).status).toBe(404);
  });

  it("answers 404 for unknown IDs and another organization's invites, 401 without a token", async () => {
    const { org, owner } = await createOrg(server.db);
    const other = await createOrg(server.db);
    const theirs = await linkInvite(other.owner.token, other.org.id, { role: 'read' });
    const ours = await linkInvite(owner.token, org.id, { role: 'read' });
    const space = await spaceOf(owner, org.id);
    const user = await createActor(server.db);
    for (const id of ['invite_doesnotexist', 'nonsense', space.id, theirs.id]) {
      expect((await join(user.token, org.id, id)).status, id).toBe(404);
    }
    expect((await sdkError(sdk(server.url, user.token).orgs.joinOrganizationWithInvite(org.id, theirs.id))).status).toBe(404);
    expect((await member(owner.token, org.id, user.id)).status).toBe(404);
    expect((await join(undefined, org.id, ours.id)).status).toBe(401);
    // On its own organization's path, the same ID works.
    expect((await join(user.token, other.org.id, theirs.id)).status).toBe(200);
    expect((await member(other.owner.token, other.org.id, user.id)).body.role).toBe('read');
  });

  it("joins with one's own pending e-mail invite, which nobody else can use", async () => {
    const { org, owner } = await createOrg(server.db);
    const invitee = await createActor(server.db);
    const intruder = await createActor(server.db);
    await invited(owner.token, org.id, { emails: [invitee.email], role: 'review' });
    const secret = await secretFor(invitee.email);
    const pending = (await gqlOk(server.url, owner.token, MEMBER_INVITES, { org: org.id })).organization.memberInvites;
    const { id } = pending.edges.find((e: any) => e.node.email === invitee.email).node;
    expect((await join(intruder.token, org.id, id)).status).toBe(404);
    expect((await member(owner.token, org.id, intruder.id)).status).toBe(404);
    expect(await join(invitee.token, org.id, id)).toEqual({ status: 200, body: {} });
    expect((await member(owner.token, org.id, invitee.id)).body.role).toBe('review');
    // Used: the e-mailed link is gone with it.
    expect((await accept(secret)).status).toBe(404);
  });
});

describe('link invites: /orgs/{id}/link-invites', () => {
  it('creates organization, space and collection invites with their shapes and expiry', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const space = await spaceOf(owner, org.id);
    const collection = await collectionOf(owner, org.id);
    const created = await api.orgs.createOrganizationInvite(org.id, { role: MemberRole.Edit });
    expect(created.status).toBe(201);
    const toOrg = created.data as any;
    expect(toOrg).toMatchObject({ object: 'invite', id: expect.any(String), role: 'edit', redundant: true, expiresAt: expect.any(String) });
    // 14 days by default.
    expect(Math.abs(Date.parse(toOrg.expiresAt) - (Date.now() + 14 * DAY))).toBeLessThan(60_000);
    const toSpace = await linkInvite(owner.token, org.id, { level: 'comment', space: space.id });
    expect(toSpace).toMatchObject({ object: 'invite', id: expect.any(String), level: 'comment', redundant: true, space: { object: 'space', id: space.id, title: 'Handbook' } });
    const toCollection = await linkInvite(owner.token, org.id, { level: 'read', collection: collection.id });
    expect(toCollection).toMatchObject({ object: 'invite', id: expect.any(String), level: 'read', redundant: true, collection: { object: 'collection', id: collection.id, title: 'Guides' } });
    // The owner is an admin: even a `read` invite gives them nothing new.
    expect((await linkInvite(owner.token, org.id, { role: 'read' })).redundant).toBe(true);
    const expiresAt = new Date(Date.now() + 3 * DAY);
    expiresAt.setMilliseconds(0);
    const dated = await linkInvite(owner.token, org.id, { role: 'read', expiresAt: expiresAt.toISOString() });
    expect(Date.parse(dated.expiresAt)).toBe(expiresAt.getTime());
    expect(new Set([toOrg.id, toSpace.id, toCollection.id, dated.id]).size).toBe(4);
  });

  it('validates the body with a 400 naming the field, and 404 for content it cannot find', async () => {
    const { org, owner } = await createOrg(server.db);
    const other = await createOrg(server.db);
    const theirSpace = await spaceOf(other.owner, other.org.id);
    const theirCollection = await collectionOf(other.owner, other.org.id);
    for (const [body, field] of [
      [{}, 'role'],
      [{ role: 'boss' }, 'role'],
      [{ level: 'edit' }, 'space'],
      [{ role: 'read', expiresAt: 'yesterday' }, 'expiresAt'],
      [{ role: 'read', expiresAt: new Date(Date.now() - DAY).toISOString() }, 'expiresAt'],
      [{ role: 'read', expiresAt: new Date(Date.now() + 400 * DAY).toISOString() }, 'expiresAt'],
    ] as [unknown, string][]) {
      const answer = await http(server.url, owner.token, 'POST', links(org.id), body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message, JSON.stringify(body)).toContain(`"${field}"`);
    }
    for (const body of [{ level: 'edit', space: 'spc_doesnotexist' }, { level: 'edit', space: theirSpace.id }, { level: 'edit', collection: theirCollection.id }]) {
      expect((await http(server.url, owner.token, 'POST', links(org.id), body)).status, JSON.stringify(body)).toBe(404);
    }
    // Nothing was created.
    expect((await http(server.url, owner.token, 'GET', links(org.id))).body.items).toEqual([]);
  });

  it('lists the invites, page by page', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const first = await linkInvite(owner.token, org.id, { role: 'read' });
    const second = await linkInvite(owner.token, org.id, { role: 'edit' });
    const { data: all } = await api.orgs.listOrganizationInviteLinks(org.id);
    expect(all.items.map((i) => i.id).sort()).toEqual([first.id, second.id].sort());
    expect(all.items.find((i) => i.id === second.id)).toMatchObject({ object: 'invite', role: 'edit' });
    expect(all.next).toBeUndefined();
    const { data: page1 } = await api.orgs.listOrganizationInviteLinks(org.id, { limit: 1 });
    expect(page1.items).toHaveLength(1);
    expect(page1.next?.page).toEqual(expect.any(String));
    const page2 = await http(server.url, owner.token, 'GET', `${links(org.id)}?limit=1&page=${encodeURIComponent(page1.next!.page)}`);
    expect(page2.status).toBe(200);
    expect(page2.body.items).toHaveLength(1);
    expect(page2.body.next).toBeUndefined();
    expect([page1.items[0].id, page2.body.items[0].id].sort()).toEqual([first.id, second.id].sort());
    const forged = await http(server.url, owner.token, 'GET', `${links(org.id)}?page=forged-cursor`);
    expect(forged.status).toBe(400);
    expect(forged.body.error.message).toContain('"page"');
  });

  it('reads one invite; an unknown ID answers 404', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const space = await spaceOf(owner, org.id);
    const created = await linkInvite(owner.token, org.id, { level: 'edit', space: space.id });
    const { status, data } = await api.orgs.getOrganizationInviteLink(org.id, created.id);
    expect(status).toBe(200);
    expect(data).toMatchObject({ object: 'invite', id: created.id, level: 'edit', space: { id: space.id } });
    expect((await sdkError(api.orgs.getOrganizationInviteLink(org.id, 'invite_doesnotexist'))).status).toBe(404);
  });

  it("changes an organization invite's role and a content invite's level, and refuses the other field", async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const space = await spaceOf(owner, org.id);
    const toOrg = await linkInvite(owner.token, org.id, { role: 'read' });
    const toSpace = await linkInvite(owner.token, org.id, { level: 'edit', space: space.id });
    expect((await api.orgs.updateOrganizationInviteById(org.id, toOrg.id, { role: MemberRole.Comment })).data).toMatchObject({ id: toOrg.id, role: 'comment' });
    expect((await api.orgs.updateOrganizationInviteById(org.id, toSpace.id, { level: MemberRole.Read })).data).toMatchObject({ id: toSpace.id, level: 'read', space: { id: space.id } });
    for (const [id, body, field] of [
      [toOrg.id, { level: 'read' }, 'level'],
      [toSpace.id, { role: 'read' }, 'role'],
      [toOrg.id, { role: 'boss' }, 'role'],
    ] as [string, unknown, string][]) {
      const answer = await http(server.url, owner.token, 'PATCH', `${links(org.id)}/${id}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toContain(`"${field}"`);
    }
    // The changes hold, and joining gives the new role and level.
    expect((await http(server.url, owner.token, 'GET', `${links(org.id)}/${toOrg.id}`)).body.role).toBe('comment');
    const user = await createActor(server.db);
    expect((await join(user.token, org.id, toOrg.id)).status).toBe(200);
    expect((await member(owner.token, org.id, user.id)).body.role).toBe('comment');
    const guest = await createActor(server.db);
    expect((await join(guest.token, org.id, toSpace.id)).status).toBe(200);
    expect((await http(server.url, guest.token, 'GET', `/spaces/${space.id}`)).body.permissions).toMatchObject({ edit: false, comment: false });
  });

  it('deletes an invite (205, then 204); a deleted invite no longer joins', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const link = await linkInvite(owner.token, org.id, { role: 'read' });
    const kept = await linkInvite(owner.token, org.id, { role: 'edit' });
    expect((await api.orgs.deleteOrganizationInviteById(org.id, link.id)).status).toBe(205);
    expect((await http(server.url, owner.token, 'DELETE', `${links(org.id)}/${link.id}`)).status).toBe(204);
    expect((await http(server.url, owner.token, 'GET', `${links(org.id)}/${link.id}`)).status).toBe(404);
    expect((await http(server.url, owner.token, 'GET', links(org.id))).body.items.map((i: any) => i.id)).toEqual([kept.id]);
    const user = await createActor(server.db);
    expect((await join(user.token, org.id, link.id)).status).toBe(404);
    expect((await member(owner.token, org.id, user.id)).status).toBe(404);
  });

  it("is for organization admins: 403 for a read member on every route, 404 for another organization's admin", async () => {
    const { org, owner } = await createOrg(server.db);
    const link = await linkInvite(owner.token, org.id, { role: 'read' });
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const stranger = await createOrg(server.db);
    const routes = [
      ['GET', links(org.id)],
      ['POST', links(org.id), { role: 'read' }],
      ['GET', `${links(org.id)}/${link.id}`],
      ['PATCH', `${links(org.id)}/${link.id}`, { role: 'admin' }],
      ['DELETE', `${links(org.id)}/${link.id}`],
    ] as [string, string, unknown?][];
    for (const [method, path, body] of routes) {
      expect((await http(server.url, reader.token, method, path, body)).status, `reader: ${method} ${path}`).toBe(403);
      expect((await http(server.url, stranger.owner.token, method, path, body)).status, `stranger: ${method} ${path}`).toBe(404);
    }
    // Another organization's invite is not reached through one's own organization either.
    expect((await http(server.url, stranger.owner.token, 'GET', `${links(stranger.org.id)}/${link.id}`)).status).toBe(404);
    expect((await http(server.url, stranger.owner.token, 'DELETE', `${links(stranger.org.id)}/${link.id}`)).status).toBe(204);
    // Untouched by all of the above.
    expect((await http(server.url, owner.token, 'GET', `${links(org.id)}/${link.id}`)).body).toMatchObject({ id: link.id, role: 'read' });
    expect((await http(server.url, owner.token, 'GET', links(org.id))).body.items).toHaveLength(1);
  });
});

describe('GraphQL', () => {
  const INVITE_MEMBERS = `mutation($org: ID!, $emails: [InviteeInput!]!, $role: Role) {
    inviteMembers(organizationId: $org, emails: $emails, role: $role) { invited users failedSSOEmails invites { id email role delivered link expiresAt } }
  }`;

  it('inviteMembers reports each invite as delivered through SMTP, without its link', async () => {
    const { org, owner } = await createOrg(server.db);
    const email = address('Graph');
    const { inviteMembers } = await gqlOk(server.url, owner.token, INVITE_MEMBERS, { org: org.id, emails: [{ email }], role: 'read' });
    expect(inviteMembers).toEqual({
      invited: 1,
      users: [expect.any(String)],
      failedSSOEmails: [],
      invites: [{ id: expect.any(String), email: email.toLowerCase(), role: 'read', delivered: true, link: null, expiresAt: expect.any(String) }],
    });
    const accepted = await acceptOk(await secretFor(email.toLowerCase()));
    expect(accepted).toMatchObject({ user: { id: inviteMembers.users[0] }, role: 'read' });
    // Admins only.
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    expect((await gql(server.url, reader.token, INVITE_MEMBERS, { org: org.id, emails: [{ email: address('x') }] })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('memberInvites lists pending invites; revokeMemberInvite withdraws one, whose link stops working', async () => {
    const { org, owner } = await createOrg(server.db);
    const [kept, revoked] = [address('kept'), address('revoked')];
    await invited(owner.token, org.id, { emails: [{ email: kept, role: 'edit' }, { email: revoked, role: null }] });
    const listed = (await gqlOk(server.url, owner.token, MEMBER_INVITES, { org: org.id })).organization.memberInvites;
    expect(listed.totalCount).toBe(2);
    expect(listed.edges.map((e: any) => e.node)).toEqual(
      expect.arrayContaining([
        { id: expect.any(String), email: kept, role: 'edit', expiresAt: expect.any(String) },
        { id: expect.any(String), email: revoked, role: null, expiresAt: expect.any(String) },
      ]),
    );
    for (const e of listed.edges) expect(Date.parse(e.node.expiresAt)).toBeGreaterThan(Date.now());
    const target = listed.edges.find((e: any) => e.node.email === revoked).node;
    const revoke = `mutation($org: ID!, $id: ID!) { revokeMemberInvite(organizationId: $org, id: $id) }`;
    // Not for members without admin rights.
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    expect((await gql(server.url, reader.token, MEMBER_INVITES, { org: org.id })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await gql(server.url, reader.token, revoke, { org: org.id, id: target.id })).errors).toBeDefined();
    expect((await gqlOk(server.url, owner.token, revoke, { org: org.id, id: target.id })).revokeMemberInvite).toBe(true);
    const after = (await gqlOk(server.url, owner.token, MEMBER_INVITES, { org: org.id })).organization.memberInvites;
    expect(after.totalCount).toBe(1);
    expect(after.edges.map((e: any) => e.node.email)).toEqual([kept]);
    const revokedSecret = await secretFor(revoked);
    expect((await openLink(revokedSecret)).status).toBe(404);
    expect((await accept(revokedSecret)).status).toBe(404);
    // The other invitation still works, and is no longer pending once accepted.
    await acceptOk(await secretFor(kept));
    expect((await gqlOk(server.url, owner.token, MEMBER_INVITES, { org: org.id })).organization.memberInvites.totalCount).toBe(0);
  });

  it('linkInvites lists the link invites of the organization', async () => {
    const { org, owner } = await createOrg(server.db);
    const other = await createOrg(server.db);
    await linkInvite(other.owner.token, other.org.id, { role: 'read' });
    const space = await spaceOf(owner, org.id);
    const toOrg = await linkInvite(owner.token, org.id, { role: 'edit' });
    const toSpace = await linkInvite(owner.token, org.id, { level: 'comment', space: space.id });
    const data = await gqlOk(server.url, owner.token, `query($org: ID!) { organization(id: $org) { linkInvites(first: 10) { totalCount edges { node { id kind role level redundant space { id } } } } } }`, { org: org.id });
    const { totalCount, edges } = data.organization.linkInvites;
    expect(totalCount).toBe(2);
    expect(edges.map((e: any) => e.node)).toEqual(
      expect.arrayContaining([
        { id: toOrg.id, kind: 'organization', role: 'edit', level: null, redundant: true, space: null },
        { id: toSpace.id, kind: 'space', role: null, level: 'comment', redundant: true, space: { id: space.id } },
      ]),
    );
  });
});
