/**
 * Organizations users make and join (`POST /orgs`, `POST /orgs/{id}/join`), and the operator
 * setting that allows it (QUIRE_ALLOW_ORGANIZATION_CREATION): through the public SDK, answers
 * validated against the public document; tokens confined to one organization make and join none.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gql, gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { issueToken } from '../src/domain/people/identity/tokens.js';

const server = useServer();
const closed = useServer({ env: () => ({ QUIRE_ALLOW_ORGANIZATION_CREATION: 'false' }) });

const domain = () => `d${randomUUID().slice(0, 8)}.test`;

describe('POST /orgs', () => {
  it('creates an organization whose first admin is the caller, with its e-mail domains, and records the events', async () => {
    const user = await createActor(server.db);
    const api = sdk(server.url, user.token);
    const created = await api.orgs.createOrganization({ title: 'Acme docs', emailDomains: ['Acme.test'] });
    expect(created.status).toBe(201);
    expectDocumented('POST', '/orgs', '201', created.data);
    expect(created.data).toMatchObject({ object: 'organization', title: 'Acme docs', emailDomains: ['acme.test'], permissions: { admin: true, createContent: true } });
    expect(created.headers.get('location')).toBe(created.data.urls.location);
    expect((await api.orgs.listOrganizationsForAuthenticatedUser()).data.items.map((o) => o.id)).toContain(created.data.id);
    const member = await server.db.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId: created.data.id, userId: user.id } } });
    expect(member.role).toBe('admin');
    const kinds = (await server.db.outboxEvent.findMany({ where: { organizationId: created.data.id }, orderBy: { seq: 'asc' } })).map((e) => [e.kind, e.actorId]);
    expect(kinds).toEqual([
      ['organizationCreated', user.id],
      ['memberUpdated', user.id],
    ]);
  });

  it('refuses bad input naming the field, and what this server does not do', async () => {
    const user = await createActor(server.db);
    for (const [body, query, field] of [
      [{ title: 'x' }, '', 'title'],
      [{}, '', 'title'],
      [{ title: 'Fine', emailDomains: ['not a domain'] }, '', 'emailDomains'],
      [{ title: 'Fine', emailDomains: 'acme.test' }, '', 'emailDomains'],
      [{ title: 'Fine' }, '?withDefaultSite=true', 'withDefaultSite'],
      [{ title: 'Fine' }, '?withDefaultSite=maybe', 'withDefaultSite'],
      [{ title: 'Fine' }, '?openapiUrl=https://example.test/a.yaml', 'openapiUrl'],
      [{ title: 'Fine', onboardingPreferences: {} }, '', 'onboardingPreferences'],
    ] as const) {
      const answer = await http(server.url, user.token, 'POST', `/orgs${query}`, body);
      expect(answer.status, JSON.stringify(body) + query).toBe(400);
      expect(answer.body.error.message).toContain(field);
    }
    expect((await http(server.url, user.token, 'POST', '/orgs?withDefaultSite=false', { title: 'No site' })).status).toBe(201);
    expect((await http(server.url, undefined, 'POST', '/orgs', { title: 'Anonymous' })).status).toBe(401);
  });

  it('is refused to a token confined to one organization, and when the operator turned it off', async () => {
    const { org, owner } = await createOrg(server.db);
    const confined = await issueToken(server.db, owner.id, { confinedTo: org.id });
    const refused = await sdkError(sdk(server.url, confined).orgs.createOrganization({ title: 'Escape' }));
    expect(refused.status).toBe(403);
    expect(refused.message).toContain('one organization');

    const user = await createActor(closed.db);
    const off = await sdkError(sdk(closed.url, user.token).orgs.createOrganization({ title: 'Not here' }));
    expect(off.status).toBe(403);
    expect(off.message).toContain('QUIRE_ALLOW_ORGANIZATION_CREATION');
    // Nothing was made.
    expect(await closed.db.member.count({ where: { userId: user.id } })).toBe(0);
  });

  it('is a GraphQL mutation too', async () => {
    const user = await createActor(server.db);
    const data = await gqlOk(server.url, user.token, 'mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id title viewerRole } }', { input: { title: 'From GraphQL' } });
    expect(data.createOrganization).toMatchObject({ title: 'From GraphQL', viewerRole: 'admin' });
  });
});

describe('POST /orgs/{organizationId}/join', () => {
  /** An organization listing `d` whose admin has an address there (the domain is proven), with a default role. */
  async function orgOfDomain(d: string, defaultRole: string | null = 'edit') {
    const { org, owner } = await createOrg(server.db);
    await server.db.user.update({ where: { id: owner.id }, data: { email: `admin-${randomUUID().slice(0, 6)}@${d}` } });
    await sdk(server.url, owner.token).orgs.updateOrganizationById(org.id, { emailDomains: [d], defaultRole: defaultRole as never });
    return { org, owner };
  }

  it('joins a user of a listed, proven domain with the default role; again is a no-op', async () => {
    const d = domain();
    const { org } = await orgOfDomain(d);
    const user = await createActor(server.db, { email: `someone@${d}` });
    const api = sdk(server.url, user.token);
    expect((await sdkError(api.orgs.getOrganizationById(org.id))).status).toBe(404);
    // The organization is found by the domain, then joined.
    expect((await api.emailDomains.getOrganizationsForEmailDomain(d)).data.organizations.map((o) => o.id)).toContain(org.id);
    const joined = await api.orgs.joinOrganization(org.id);
    expect(joined.status).toBe(204);
    expect((await api.orgs.getOrganizationById(org.id)).data.permissions).toMatchObject({ view: true, admin: false, listMembers: true });
    expect((await server.db.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId: org.id, userId: user.id } } })).role).toBe('edit');
    expect((await api.orgs.joinOrganization(org.id)).status).toBe(204);
    expect(await server.db.outboxEvent.count({ where: { organizationId: org.id, kind: 'memberUpdated', subjectId: user.id } })).toBe(1);
  });

  it('joins as a guest when the organization has no default role', async () => {
    const d = domain();
    const { org } = await orgOfDomain(d, null);
    const user = await createActor(server.db, { email: `guest@${d}` });
    expect((await sdk(server.url, user.token).orgs.joinOrganization(org.id)).status).toBe(204);
    expect((await server.db.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId: org.id, userId: user.id } } })).role).toBeNull();
  });

  it('refuses other domains, unproven domains, unknown organizations, disabled members and confined tokens', async () => {
    const d = domain();
    const { org } = await orgOfDomain(d);
    const outsider = await createActor(server.db, { email: `someone@${domain()}` });
    const notJoined = await sdkError(sdk(server.url, outsider.token).orgs.joinOrganization(org.id));
    expect(notJoined.status).toBe(400);
    expect(notJoined.message).toContain('domain');

    // Listed by an admin who has no address there: not proven, as for GET /email-domains/{domain}/orgs.
    const unproven = domain();
    const other = await createOrg(server.db);
    await sdk(server.url, other.owner.token).orgs.updateOrganizationById(other.org.id, { emailDomains: [unproven] });
    const claimant = await createActor(server.db, { email: `someone@${unproven}` });
    expect((await sdkError(sdk(server.url, claimant.token).orgs.joinOrganization(other.org.id))).status).toBe(400);

    expect((await sdkError(sdk(server.url, outsider.token).orgs.joinOrganization('org_unknown'))).status).toBe(404);

    // A token confined to another organization does not reach this one.
    const elsewhere = await createOrg(server.db);
    const user = await createActor(server.db, { email: `confined@${d}`, org: elsewhere.org.id, role: 'edit' });
    const confined = await issueToken(server.db, user.id, { confinedTo: elsewhere.org.id });
    expect((await sdkError(sdk(server.url, confined).orgs.joinOrganization(org.id))).status).toBe(404);
    expect(await server.db.member.count({ where: { organizationId: org.id, userId: user.id } })).toBe(0);

    const disabled = await createActor(server.db, { email: `disabled@${d}`, org: org.id, role: 'read' });
    await server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: disabled.id } }, data: { disabled: true } });
    expect((await sdkError(sdk(server.url, disabled.token).orgs.joinOrganization(org.id))).status).toBe(403);
  });

  it('is a GraphQL mutation too', async () => {
    const d = domain();
    const { org } = await orgOfDomain(d, 'comment');
    const user = await createActor(server.db, { email: `gql@${d}` });
    const data = await gqlOk(server.url, user.token, 'mutation($id: ID!) { joinOrganizationByEmailDomain(organizationId: $id) { id viewerRole } }', { id: org.id });
    expect(data.joinOrganizationByEmailDomain).toEqual({ id: org.id, viewerRole: 'comment' });
    const outsider = await createActor(server.db);
    const refused = await gql(server.url, outsider.token, 'mutation($id: ID!) { joinOrganizationByEmailDomain(organizationId: $id) { id } }', { id: org.id });
    expect(refused.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
  });
});
