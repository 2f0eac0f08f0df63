import { MemberRole } from '@gitbook/api';
import { jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createPrismaClient } from '../src/db/client.js';
import { SIGNING_SECRET_KEY, signingSecret } from '../src/domain/kernel/signing-secret.js';
import { newId } from '../src/domain/kernel/ids.js';
import { gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

const day = (n: number) => new Date(Date.UTC(2026, 0, n));

/** An organization with an admin owner, a reader, an editor and a guest, joined on days 1-4. */
async function team4() {
  const { org, owner } = await createOrg(server.db);
  const reader = await createActor(server.db, { org: org.id, role: 'read', name: 'Rita Reader' });
  const editor = await createActor(server.db, { org: org.id, role: 'edit', name: 'Eddie Editor' });
  const guest = await createActor(server.db, { org: org.id, role: 'guest', name: 'Gus Guest' });
  for (const [i, a] of [owner, reader, editor, guest].entries()) {
    await server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: a.id } }, data: { joinedAt: day(i + 1) } });
  }
  return { org, owner, reader, editor, guest };
}

async function createSpace(organizationId: string, title: string, createdAt: Date) {
  const id = newId('Space');
  const revisionId = newId('Revision');
  await server.db.space.create({ data: { id, organizationId, title, revisionId, createdAt } });
  await server.db.revision.create({ data: { id: revisionId, spaceId: id, lineId: id, seq: 1 } });
  return id;
}

const grant = (organizationId: string, spaceId: string, holder: { userId?: string; teamId?: string }, role: MemberRole) =>
  server.db.contentPermission.create({ data: { id: newId('ContentPermission'), organizationId, spaceId, role, ...holder } });

describe('organization members over REST (SDK)', () => {
  it('lists and gets members in the documented shape', async () => {
    const { org, owner, reader } = await team4();
    const api = sdk(server.url, owner.token);
    const { data: list } = await api.orgs.listMembersInOrganizationById(org.id);
    expect(list.count).toBe(4);
    const { data: member } = await api.orgs.getMemberInOrganizationById(org.id, reader.id);
    expect(member).toEqual({
      object: 'member',
      id: reader.id,
      role: 'read',
      user: expect.objectContaining({ object: 'user', id: reader.id, displayName: 'Rita Reader', email: reader.email }),
      disabled: false,
      joinedAt: day(2).toISOString(),
      sso: false,
      spaces: 0,
      teams: 0,
      sites: 0,
    });
    expect(list.items.find((m) => m.id === reader.id)).toEqual(member);
    expect((await sdkError(api.orgs.getMemberInOrganizationById(org.id, 'usr_missing'))).status).toBe(404);
  });

  it('orders by joinedAt (newest first by default), filters by role, guest and search', async () => {
    const { org, owner, reader, editor, guest } = await team4();
    const api = sdk(server.url, owner.token);
    const ids = async (query: Parameters<typeof api.orgs.listMembersInOrganizationById>[1]) =>
      (await api.orgs.listMembersInOrganizationById(org.id, query)).data.items.map((m) => m.id);
    expect(await ids({})).toEqual([guest.id, editor.id, reader.id, owner.id]);
    expect(await ids({ order: 'asc' })).toEqual([owner.id, reader.id, editor.id, guest.id]);
    expect(await ids({ role: MemberRole.Read })).toEqual([reader.id]);
    expect(await ids({ role: MemberRole.Admin })).toEqual([owner.id]);
    expect(await ids({ role: 'guest' })).toEqual([guest.id]);
    expect(await ids({ search: 'eDDie' })).toEqual([editor.id]);
    expect(await ids({ search: reader.email.slice(0, 12).toUpperCase() })).toEqual([reader.id]);
    expect(await ids({ search: 'nobody-like-this' })).toEqual([]);
    expect(await ids({ sort: 'name', order: 'asc' })).toEqual([editor.id, guest.id, owner.id, reader.id]);
    const page = (await api.orgs.listMembersInOrganizationById(org.id, { order: 'asc', limit: 3 })).data;
    expect(page.count).toBe(4);
    expect((await api.orgs.listMembersInOrganizationById(org.id, { order: 'asc', page: page.next!.page })).data.items.map((m) => m.id)).toEqual([guest.id]);
  });

  it('sorting by lastSeenAt lists only members who have been seen', async () => {
    const { org, owner, reader, editor } = await team4();
    const api = sdk(server.url, owner.token);
    await server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: reader.id } }, data: { lastSeenAt: day(10) } });
    await server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: editor.id } }, data: { lastSeenAt: day(12) } });
    const { data } = await api.orgs.listMembersInOrganizationById(org.id, { sort: 'lastSeenAt' });
    expect(data.items.map((m) => m.id)).toEqual([editor.id, reader.id]);
    expect(data.count).toBe(2);
    expect(data.items[0].lastSeenAt).toBe(day(12).toISOString());
    const asc = (await api.orgs.listMembersInOrganizationById(org.id, { sort: 'lastSeenAt', order: 'asc' })).data;
    expect(asc.items.map((m) => m.id)).toEqual([reader.id, editor.id]);
  });

  it('rejects unknown filter values with a 400 naming the parameter', async () => {
    const { org, owner } = await team4();
    for (const name of ['order', 'role', 'sort']) {
      const response = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/members?${name}=bogus`);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain(`"${name}"`);
    }
  });

  it('lets guests read only themselves; other organizations see 404', async () => {
    const { org, owner, reader, guest } = await team4();
    const asGuest = sdk(server.url, guest.token);
    expect((await sdkError(asGuest.orgs.listMembersInOrganizationById(org.id))).status).toBe(403);
    expect((await sdkError(asGuest.orgs.getMemberInOrganizationById(org.id, owner.id))).status).toBe(403);
    expect((await asGuest.orgs.getMemberInOrganizationById(org.id, guest.id)).data).toMatchObject({ id: guest.id, role: null });
    expect((await sdk(server.url, reader.token).orgs.getMemberInOrganizationById(org.id, owner.id)).data.role).toBe('admin');

    const outsider = sdk(server.url, (await createOrg(server.db, 'Elsewhere')).owner.token);
    expect((await sdkError(outsider.orgs.listMembersInOrganizationById(org.id))).status).toBe(404);
    expect((await sdkError(outsider.orgs.getMemberInOrganizationById(org.id, owner.id))).status).toBe(404);
    expect((await sdkError(outsider.orgs.updateMemberInOrganizationById(org.id, reader.id, { role: MemberRole.Admin }))).status).toBe(404);
    expect((await sdkError(outsider.orgs.removeMemberFromOrganizationById(org.id, reader.id))).status).toBe(404);
    expect((await sdkError(outsider.orgs.updateOrganizationMemberLastSeenAt(org.id))).status).toBe(404);
    expect((await sdkError(outsider.orgs.setUserAsSsoMemberForOrganization(org.id, reader.id))).status).toBe(404);
    expect((await sdkError(outsider.orgs.listSpacesForOrganizationMember(org.id, reader.id))).status).toBe(404);
    expect((await sdkError(outsider.orgs.listTeamsForOrganizationMember(org.id, reader.id))).status).toBe(404);
  });

  it('disabled members lose access to the organization', async () => {
    const { org, reader } = await team4();
    await server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: reader.id } }, data: { disabled: true } });
    expect((await sdkError(sdk(server.url, reader.token).orgs.getMemberInOrganizationById(org.id, reader.id))).status).toBe(404);
  });
});

describe('updating and removing members', () => {
  it('changes roles, guest included; admins only; 400 names the field', async () => {
    const { org, owner, reader, editor } = await team4();
    const api = sdk(server.url, owner.token);
    expect((await api.orgs.updateMemberInOrganizationById(org.id, reader.id, { role: MemberRole.Edit })).data).toMatchObject({ object: 'member', role: 'edit' });
    expect((await api.orgs.updateMemberInOrganizationById(org.id, reader.id, { role: null })).data.role).toBeNull();
    expect((await api.orgs.updateMemberInOrganizationById(org.id, reader.id, {})).data.role).toBeNull();
    const bad = await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}/members/${reader.id}`, { role: 'boss' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('role');
    expect((await sdkError(sdk(server.url, editor.token).orgs.updateMemberInOrganizationById(org.id, reader.id, { role: MemberRole.Admin }))).status).toBe(403);
    expect((await sdkError(api.orgs.updateMemberInOrganizationById(org.id, 'usr_missing', { role: MemberRole.Read }))).status).toBe(404);
  });

  it('keeps at least one admin (409), and lets an admin go once another exists', async () => {
    const { org, owner, reader } = await team4();
    const api = sdk(server.url, owner.token);
    expect((await sdkError(api.orgs.updateMemberInOrganizationById(org.id, owner.id, { role: MemberRole.Edit }))).status).toBe(409);
    expect((await sdkError(api.orgs.updateMemberInOrganizationById(org.id, owner.id, { role: null }))).status).toBe(409);
    expect((await sdkError(api.orgs.removeMemberFromOrganizationById(org.id, owner.id))).status).toBe(409);
    // A disabled admin does not count.
    await api.orgs.updateMemberInOrganizationById(org.id, reader.id, { role: MemberRole.Admin });
    await server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: reader.id } }, data: { disabled: true } });
    expect((await sdkError(api.orgs.updateMemberInOrganizationById(org.id, owner.id, { role: MemberRole.Edit }))).status).toBe(409);
    await server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: reader.id } }, data: { disabled: false } });
    expect((await api.orgs.updateMemberInOrganizationById(org.id, owner.id, { role: MemberRole.Edit })).data.role).toBe('edit');
    expect((await sdkError(sdk(server.url, reader.token).orgs.removeMemberFromOrganizationById(org.id, reader.id))).status).toBe(409);
  });

  it('removes a member with their team memberships and grants in that organization only (205, then 204)', async () => {
    const { org, owner, reader, editor } = await team4();
    const api = sdk(server.url, owner.token);
    const spaceId = await createSpace(org.id, 'Granted', day(1));
    await grant(org.id, spaceId, { userId: reader.id }, MemberRole.Edit);
    const { data: team } = await api.orgs.createOrganizationTeam(org.id, { title: 'Crew', members: [reader.id, editor.id] });
    const other = await createOrg(server.db, 'Other');
    await server.db.member.create({ data: { organizationId: other.org.id, userId: reader.id, role: 'read' } });
    const otherSpace = await createSpace(other.org.id, 'Kept', day(1));
    await grant(other.org.id, otherSpace, { userId: reader.id }, MemberRole.Edit);

    expect((await sdkError(sdk(server.url, editor.token).orgs.removeMemberFromOrganizationById(org.id, reader.id))).status).toBe(403);
    const removed = await api.orgs.removeMemberFromOrganizationById(org.id, reader.id);
    expect(removed.status).toBe(205);
    expect((await sdkError(api.orgs.getMemberInOrganizationById(org.id, reader.id))).status).toBe(404);
    expect(await server.db.teamMember.findMany({ where: { teamId: team.id } })).toEqual([expect.objectContaining({ userId: editor.id })]);
    expect(await server.db.contentPermission.count({ where: { organizationId: org.id, userId: reader.id } })).toBe(0);
    expect(await server.db.contentPermission.count({ where: { organizationId: other.org.id, userId: reader.id } })).toBe(1);
    expect(await server.db.member.count({ where: { organizationId: other.org.id, userId: reader.id } })).toBe(1);
    expect((await api.orgs.removeMemberFromOrganizationById(org.id, reader.id)).status).toBe(204);
    expect((await sdkError(sdk(server.url, reader.token).orgs.listMembersInOrganizationById(org.id))).status).toBe(404);
  });

  it('sets a member as an SSO member (admins only)', async () => {
    const { org, owner, reader } = await team4();
    const api = sdk(server.url, owner.token);
    expect((await sdkError(sdk(server.url, reader.token).orgs.setUserAsSsoMemberForOrganization(org.id, reader.id))).status).toBe(403);
    const { data } = await api.orgs.setUserAsSsoMemberForOrganization(org.id, reader.id);
    expect(data).toMatchObject({ object: 'member', id: reader.id, sso: true });
    expect((await api.orgs.getMemberInOrganizationById(org.id, reader.id)).data.sso).toBe(true);
    expect((await sdkError(api.orgs.setUserAsSsoMemberForOrganization(org.id, 'usr_missing'))).status).toBe(404);
  });
});

describe('ping', () => {
  it("updates the caller's lastSeenAt and returns a verifiable JWT of their claims", async () => {
    const { org, reader, guest } = await team4();
    const before = Date.now();
    const { data } = await sdk(server.url, reader.token).orgs.updateOrganizationMemberLastSeenAt(org.id);
    const member = await server.db.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId: org.id, userId: reader.id } } });
    expect(member.lastSeenAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const stored = await server.db.setting.findUniqueOrThrow({ where: { key: SIGNING_SECRET_KEY } });
    const { payload, protectedHeader } = await jwtVerify(data.gitbookVisitorClaims!, new TextEncoder().encode(stored.value));
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: reader.id, org: org.id, role: 'read' });
    expect(payload.exp! - payload.iat!).toBe(3600);
    await expect(jwtVerify(data.gitbookVisitorClaims!, new TextEncoder().encode('x'.repeat(43)))).rejects.toThrow();

    const guestClaims = (await sdk(server.url, guest.token).orgs.updateOrganizationMemberLastSeenAt(org.id)).data.gitbookVisitorClaims!;
    expect((await jwtVerify(guestClaims, new TextEncoder().encode(stored.value))).payload).toMatchObject({ sub: guest.id, role: null });
    const seen = (await sdk(server.url, reader.token).orgs.listMembersInOrganizationById(org.id, { sort: 'lastSeenAt' })).data.items;
    expect(seen.map((m) => m.id).sort()).toEqual([reader.id, guest.id].sort());
  });

  it('signs with QUIRE_SECRET when set, otherwise with one database secret shared by every instance', async () => {
    const configured = 's'.repeat(40);
    expect(new TextDecoder().decode(await signingSecret(server.db, configured))).toBe(configured);
    const another = createPrismaClient(server.databaseUrl);
    try {
      expect(await signingSecret(another)).toEqual(await signingSecret(server.db));
    } finally {
      await another.$disconnect();
    }
  });
});

describe("a member's spaces and teams", () => {
  it("lists spaces with the member's own effective role, newest first by default", async () => {
    const { org, owner, reader, guest } = await team4();
    const a = await createSpace(org.id, 'A', day(1));
    const b = await createSpace(org.id, 'B', day(2));
    const c = await createSpace(org.id, 'C', day(3));
    await grant(org.id, b, { userId: reader.id }, MemberRole.Edit);
    await grant(org.id, a, { userId: guest.id }, MemberRole.Comment);
    const { data: team } = await sdk(server.url, owner.token).orgs.createOrganizationTeam(org.id, { title: 'Guests', members: [guest.email] });
    await grant(org.id, c, { teamId: team.id }, MemberRole.Review);

    const api = sdk(server.url, owner.token);
    const readerSpaces = (await api.orgs.listSpacesForOrganizationMember(org.id, reader.id)).data;
    expect(readerSpaces.items.map((i) => [i.space.title, i.permission])).toEqual([
      ['C', 'read'],
      ['B', 'edit'],
      ['A', 'read'],
    ]);
    expect(readerSpaces.items[0].space).toMatchObject({ object: 'space', id: c });
    const guestSpaces = (await api.orgs.listSpacesForOrganizationMember(org.id, guest.id, { order: 'asc' })).data;
    expect(guestSpaces.items.map((i) => [i.space.title, i.permission])).toEqual([
      ['A', 'comment'],
      ['C', 'review'],
    ]);
    expect((await api.orgs.getMemberInOrganizationById(org.id, reader.id)).data).toMatchObject({ spaces: 1, teams: 0 });
    expect((await api.orgs.getMemberInOrganizationById(org.id, guest.id)).data).toMatchObject({ spaces: 1, teams: 1 });

    // The member themself may look; other non-admins may not.
    expect((await sdk(server.url, guest.token).orgs.listSpacesForOrganizationMember(org.id, guest.id)).data.count).toBe(2);
    expect((await sdkError(sdk(server.url, reader.token).orgs.listSpacesForOrganizationMember(org.id, guest.id))).status).toBe(403);
    expect((await sdkError(api.orgs.listSpacesForOrganizationMember(org.id, 'usr_missing'))).status).toBe(404);
    const badOrder = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/members/${reader.id}/spaces?order=up`);
    expect(badOrder.status).toBe(400);
    expect(badOrder.body.error.message).toContain('order');
  });

  it("lists a member's teams with their role, filtered by title", async () => {
    const { org, owner, reader, guest } = await team4();
    const api = sdk(server.url, owner.token);
    const alpha = (await api.orgs.createOrganizationTeam(org.id, { title: 'Alpha Squad', members: [reader.id] })).data;
    const beta = (await api.orgs.createOrganizationTeam(org.id, { title: 'Beta', members: [reader.id, guest.id] })).data;
    await api.orgs.createOrganizationTeam(org.id, { title: 'Gamma' });
    await api.orgs.addMemberToOrganizationTeamById(org.id, beta.id, reader.id, { role: 'owner' as never });

    const { data } = await api.orgs.listTeamsForOrganizationMember(org.id, reader.id);
    expect(data.items.map((i) => [i.team.title, i.member.role])).toEqual([
      ['Alpha Squad', 'member'],
      ['Beta', 'owner'],
    ]);
    expect(data.items[0].team).toMatchObject({ object: 'team', id: alpha.id, members: 1 });
    const filtered = (await api.orgs.listTeamsForOrganizationMember(org.id, reader.id, { title: 'sQuA' })).data;
    expect(filtered.items.map((i) => i.team.id)).toEqual([alpha.id]);

    // Guests see their own teams (and may see those teams), not other members'.
    const asGuest = sdk(server.url, guest.token);
    const own = (await asGuest.orgs.listTeamsForOrganizationMember(org.id, guest.id)).data;
    expect(own.items.map((i) => [i.team.title, i.team.members, i.team.permissions])).toEqual([['Beta', 2, { admin: false, view: true }]]);
    expect((await sdkError(asGuest.orgs.listTeamsForOrganizationMember(org.id, reader.id))).status).toBe(403);
  });
});

describe('members over GraphQL', () => {
  it('exposes members with counts and nested lists, and the member mutations', async () => {
    const { org, owner, reader } = await team4();
    const spaceId = await createSpace(org.id, 'S', day(1));
    await grant(org.id, spaceId, { userId: reader.id }, MemberRole.Edit);
    const data = await gqlOk(
      server.url,
      owner.token,
      `query($id: ID!) { organization(id: $id) {
        members(role: read) { totalCount edges { node { id role spaces teams user { email } spaceAccess { edges { node { permission space { id } } } } } } }
      } }`,
      { id: org.id },
    );
    expect(data.organization.members.edges).toEqual([
      { node: { id: reader.id, role: 'read', spaces: 1, teams: 0, user: { email: reader.email }, spaceAccess: { edges: [{ node: { permission: 'edit', space: { id: spaceId } } }] } } },
    ]);
    const updated = await gqlOk(server.url, owner.token, `mutation($o: ID!, $u: ID!) { updateMember(organizationId: $o, userId: $u, input: { role: null }) { role } }`, {
      o: org.id,
      u: reader.id,
    });
    expect(updated.updateMember.role).toBeNull();
    const ping = await gqlOk(server.url, reader.token, `mutation($o: ID!) { pingOrganization(organizationId: $o) { visitorClaims member { id lastSeenAt } } }`, { o: org.id });
    expect(ping.pingOrganization.member).toMatchObject({ id: reader.id, lastSeenAt: expect.any(String) });
    expect(ping.pingOrganization.visitorClaims.split('.')).toHaveLength(3);
  });

  it('runs the same number of SQL statements for 3 and for 12 members', async () => {
    const QUERY = `query($id: ID!) { organization(id: $id) {
      members(first: 50) { edges { node { id spaces teams user { id } teamMemberships(first: 20) { edges { node { role team { id spaces members(first: 0) { totalCount } } } } } } } }
    } }`;
    const statements = async (n: number) => {
      const { org, owner } = await createOrg(server.db);
      const team = (await sdk(server.url, owner.token).orgs.createOrganizationTeam(org.id, { title: 'All' })).data;
      const spaceId = await createSpace(org.id, 'S', day(1));
      for (let i = 0; i < n; i++) {
        const a = await createActor(server.db, { org: org.id, role: 'read' });
        await sdk(server.url, owner.token).orgs.addMemberToOrganizationTeamById(org.id, team.id, a.id, {});
        await grant(org.id, spaceId, { userId: a.id }, MemberRole.Edit);
      }
      server.queries.length = 0;
      const data = await gqlOk(server.url, owner.token, QUERY, { id: org.id });
      expect(data.organization.members.edges).toHaveLength(n + 1);
      return server.queries.length;
    };
    expect(await statements(12)).toBe(await statements(3));
  });
});
