import { MemberRole, TeamMemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { newId } from '../src/domain/kernel/ids.js';
import { gql, gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

/** An organization with an admin owner, two readers and a guest. */
async function setup() {
  const { org, owner } = await createOrg(server.db);
  const ann = await createActor(server.db, { org: org.id, role: 'read', name: 'Ann' });
  const bob = await createActor(server.db, { org: org.id, role: 'read', name: 'Bob' });
  const guest = await createActor(server.db, { org: org.id, role: 'guest', name: 'Gil' });
  return { org, owner, ann, bob, guest, api: sdk(server.url, owner.token) };
}

const members = async (teamId: string) =>
  Object.fromEntries((await server.db.teamMember.findMany({ where: { teamId } })).map((m) => [m.userId, m.role]));

describe('teams over REST (SDK)', () => {
  it('creates a team (201) with members by user ID or e-mail, and reads it', async () => {
    const { org, ann, bob, api } = await setup();
    const created = await api.orgs.createOrganizationTeam(org.id, { title: ' Writers ', members: [ann.id, bob.email.toUpperCase()] });
    expect(created.status).toBe(201);
    expect(created.data).toEqual({
      object: 'team',
      id: expect.stringMatching(/^team_/),
      title: 'Writers',
      members: 2,
      spaces: 0,
      createdAt: expect.any(String),
      permissions: { admin: true, view: true },
    });
    expect(await members(created.data.id)).toEqual({ [ann.id]: 'member', [bob.id]: 'member' });
    const { data: fetched } = await api.orgs.getTeamInOrganizationById(org.id, created.data.id);
    expect(fetched).toEqual(created.data);
  });

  it('validates the title and members with a 400 naming the field, creating nothing', async () => {
    const { org, owner, ann, api } = await setup();
    const stranger = (await createOrg(server.db, 'Elsewhere')).owner;
    for (const [body, field] of [
      [{}, 'title'],
      [{ title: '' }, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(65) }, 'title'],
      [{ title: 'T', members: [ann.id, stranger.id] }, 'members'],
      [{ title: 'T', members: ['nobody@example.test'] }, 'members'],
      [{ title: 'T', members: 'not-a-list' }, 'members'],
    ] as const) {
      const response = await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/teams`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message).toContain(field);
    }
    expect(await server.db.team.count({ where: { organizationId: org.id } })).toBe(0);
    expect((await api.orgs.createOrganizationTeam(org.id, { title: 'x'.repeat(64) })).data.title).toHaveLength(64);
  });

  it('lets only organization admins create and delete teams; other organizations see 404', async () => {
    const { org, ann, api } = await setup();
    const { data: team } = await api.orgs.createOrganizationTeam(org.id, { title: 'Ops' });
    await api.orgs.addMemberToOrganizationTeamById(org.id, team.id, ann.id, { role: TeamMemberRole.Owner });
    const asAnn = sdk(server.url, ann.token);
    expect((await sdkError(asAnn.orgs.createOrganizationTeam(org.id, { title: 'Mine' }))).status).toBe(403);
    expect((await sdkError(asAnn.orgs.removeTeamFromOrganizationById(org.id, team.id))).status).toBe(403);

    const outsider = sdk(server.url, (await createOrg(server.db, 'Elsewhere')).owner.token);
    expect((await sdkError(outsider.orgs.listTeamsInOrganizationById(org.id))).status).toBe(404);
    expect((await sdkError(outsider.orgs.createOrganizationTeam(org.id, { title: 'x' }))).status).toBe(404);
    expect((await sdkError(outsider.orgs.getTeamInOrganizationById(org.id, team.id))).status).toBe(404);
    expect((await sdkError(outsider.orgs.updateTeamInOrganizationById(org.id, team.id, { title: 'x' }))).status).toBe(404);
    expect((await sdkError(outsider.orgs.removeTeamFromOrganizationById(org.id, team.id))).status).toBe(404);
    expect((await sdkError(outsider.orgs.listTeamMembersInOrganizationById(org.id, team.id))).status).toBe(404);
    expect((await sdkError(outsider.orgs.updateMembersInOrganizationTeam(org.id, team.id, { add: [] }))).status).toBe(404);
    expect((await sdkError(outsider.orgs.addMemberToOrganizationTeamById(org.id, team.id, ann.id, {}))).status).toBe(404);
    expect((await sdkError(outsider.orgs.deleteMemberFromOrganizationTeamById(org.id, team.id, ann.id))).status).toBe(404);
  });

  it('answers 404 for unknown teams and for a team of another organization', async () => {
    const { org, owner, api } = await setup();
    const other = await createOrg(server.db, 'Other');
    await server.db.member.create({ data: { organizationId: other.org.id, userId: owner.id, role: 'admin' } });
    const { data: foreign } = await api.orgs.createOrganizationTeam(other.org.id, { title: 'Theirs' });
    for (const teamId of ['team_missing', foreign.id]) {
      expect((await sdkError(api.orgs.getTeamInOrganizationById(org.id, teamId))).status).toBe(404);
      expect((await sdkError(api.orgs.updateTeamInOrganizationById(org.id, teamId, { title: 'x' }))).status).toBe(404);
      expect((await sdkError(api.orgs.listTeamMembersInOrganizationById(org.id, teamId))).status).toBe(404);
      expect((await sdkError(api.orgs.updateMembersInOrganizationTeam(org.id, teamId, { add: [owner.id] }))).status).toBe(404);
      expect((await sdkError(api.orgs.addMemberToOrganizationTeamById(org.id, teamId, owner.id, {}))).status).toBe(404);
      // OpenAPI: deleting a team that does not exist in the organization answers 204.
      expect((await api.orgs.removeTeamFromOrganizationById(org.id, teamId)).status).toBe(204);
    }
    expect(await server.db.team.count({ where: { id: foreign.id } })).toBe(1);
  });

  it('lists teams, filtered by title and by owner (the teams a member can manage)', async () => {
    const { org, owner, ann, bob, guest, api } = await setup();
    const docs = (await api.orgs.createOrganizationTeam(org.id, { title: 'Docs Writers', members: [bob.id] })).data;
    const ops = (await api.orgs.createOrganizationTeam(org.id, { title: 'Ops' })).data;
    const design = (await api.orgs.createOrganizationTeam(org.id, { title: 'Design docs' })).data;
    await api.orgs.addMemberToOrganizationTeamById(org.id, ops.id, ann.id, { role: TeamMemberRole.Owner });
    await api.orgs.addMemberToOrganizationTeamById(org.id, design.id, ann.id, { role: TeamMemberRole.Member });

    const titles = async (query: Parameters<typeof api.orgs.listTeamsInOrganizationById>[1]) =>
      (await api.orgs.listTeamsInOrganizationById(org.id, query)).data.items.map((t) => t.title);
    expect(await titles({})).toEqual(['Docs Writers', 'Ops', 'Design docs']);
    expect(await titles({ title: 'DOCS' })).toEqual(['Docs Writers', 'Design docs']);
    expect(await titles({ owner: ann.id })).toEqual(['Ops']);
    expect(await titles({ owner: bob.id })).toEqual([]);
    expect(await titles({ owner: owner.id })).toEqual(['Docs Writers', 'Ops', 'Design docs']);
    expect(await titles({ owner: 'usr_missing' })).toEqual([]);
    expect(await titles({ owner: owner.id, title: 'ops' })).toEqual(['Ops']);
    const page = (await api.orgs.listTeamsInOrganizationById(org.id, { limit: 2 })).data;
    expect(page).toMatchObject({ count: 3, next: { page: expect.any(String) } });

    // Readers list teams and see which they manage; guests may not list them.
    const asAnn = (await sdk(server.url, ann.token).orgs.listTeamsInOrganizationById(org.id)).data.items;
    expect(asAnn.map((t) => [t.title, t.permissions.admin])).toEqual([
      ['Docs Writers', false],
      ['Ops', true],
      ['Design docs', false],
    ]);
    expect((await sdkError(sdk(server.url, guest.token).orgs.listTeamsInOrganizationById(org.id))).status).toBe(403);
    expect(docs.id).toBeTruthy();
  });

  it('renames a team: organization admins and team owners, title 1-64', async () => {
    const { org, owner, ann, bob, api } = await setup();
    const { data: team } = await api.orgs.createOrganizationTeam(org.id, { title: 'Old', members: [bob.id] });
    await api.orgs.addMemberToOrganizationTeamById(org.id, team.id, ann.id, { role: TeamMemberRole.Owner });
    expect((await api.orgs.updateTeamInOrganizationById(org.id, team.id, { title: 'New' })).data).toMatchObject({ object: 'team', title: 'New', members: 2 });
    expect((await sdk(server.url, ann.token).orgs.updateTeamInOrganizationById(org.id, team.id, { title: 'By owner' })).data.title).toBe('By owner');
    expect((await sdkError(sdk(server.url, bob.token).orgs.updateTeamInOrganizationById(org.id, team.id, { title: 'No' }))).status).toBe(403);
    for (const body of [{}, { title: '' }, { title: 'y'.repeat(65) }]) {
      const response = await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}/teams/${team.id}`, body);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain('title');
    }
  });

  it('deletes a team with its memberships and grants (205), then 204', async () => {
    const { org, ann, api } = await setup();
    const { data: team } = await api.orgs.createOrganizationTeam(org.id, { title: 'Gone', members: [ann.id] });
    const spaceId = (await api.orgs.createSpace(org.id, { title: 'S' })).data.id;
    await server.db.contentPermission.create({ data: { id: newId('ContentPermission'), organizationId: org.id, spaceId, teamId: team.id, role: 'edit' } });
    expect((await api.orgs.getTeamInOrganizationById(org.id, team.id)).data.spaces).toBe(1);
    expect((await api.orgs.removeTeamFromOrganizationById(org.id, team.id)).status).toBe(205);
    expect((await sdkError(api.orgs.getTeamInOrganizationById(org.id, team.id))).status).toBe(404);
    expect(await server.db.teamMember.count({ where: { teamId: team.id } })).toBe(0);
    expect(await server.db.contentPermission.count({ where: { teamId: team.id } })).toBe(0);
    expect((await api.orgs.removeTeamFromOrganizationById(org.id, team.id)).status).toBe(204);
  });
});

describe('team members over REST (SDK)', () => {
  it('lists team members as organization members with their team role', async () => {
    const { org, ann, bob, api } = await setup();
    // In order of joining the team.
    const { data: team } = await api.orgs.createOrganizationTeam(org.id, { title: 'T', members: [ann.id] });
    await api.orgs.addMemberToOrganizationTeamById(org.id, team.id, bob.id, { role: TeamMemberRole.Owner });
    const { data } = await api.orgs.listTeamMembersInOrganizationById(org.id, team.id);
    expect(data.count).toBe(2);
    expect(data.items).toEqual([
      {
        organization: expect.objectContaining({ object: 'member', id: ann.id, role: 'read', teams: 1, user: expect.objectContaining({ id: ann.id }) }),
        team: { role: 'member' },
        permissions: { view: true },
      },
      { organization: expect.objectContaining({ id: bob.id }), team: { role: 'owner' }, permissions: { view: true } },
    ]);
    const first = (await api.orgs.listTeamMembersInOrganizationById(org.id, team.id, { limit: 1 })).data;
    const second = (await api.orgs.listTeamMembersInOrganizationById(org.id, team.id, { limit: 1, page: first.next!.page })).data;
    expect([first.items[0].organization.id, second.items[0].organization.id]).toEqual([ann.id, bob.id]);
  });

  it('lets a guest see their own team, but not its members’ memberships, nor other teams', async () => {
    const { org, guest, ann, api } = await setup();
    const mine = (await api.orgs.createOrganizationTeam(org.id, { title: 'Mine', members: [guest.id, ann.id] })).data;
    const other = (await api.orgs.createOrganizationTeam(org.id, { title: 'Other', members: [ann.id] })).data;
    const asGuest = sdk(server.url, guest.token);
    // They see the team, not its members' memberships (guests read no membership but their own).
    expect((await asGuest.orgs.getTeamInOrganizationById(org.id, mine.id)).data.permissions).toEqual({ admin: false, view: true });
    expect((await sdkError(asGuest.orgs.listTeamMembersInOrganizationById(org.id, mine.id))).status).toBe(403);
    // A team the guest cannot see is not found, as a space they cannot see is (its existence is not revealed).
    expect((await sdkError(asGuest.orgs.getTeamInOrganizationById(org.id, other.id))).status).toBe(404);
    expect((await sdkError(asGuest.orgs.listTeamMembersInOrganizationById(org.id, other.id))).status).toBe(404);
  });

  it('adds, re-roles and removes in bulk; a user both added and removed is removed', async () => {
    const { org, owner, ann, bob, guest, api } = await setup();
    const { data: team } = await api.orgs.createOrganizationTeam(org.id, { title: 'Bulk', members: [owner.id] });
    const response = await api.orgs.updateMembersInOrganizationTeam(org.id, team.id, {
      add: [ann.email, bob.id, guest.id],
      remove: [owner.id, guest.email],
      memberships: { [bob.email]: { role: TeamMemberRole.Owner } },
    });
    expect(response.status).toBe(204);
    expect(await members(team.id)).toEqual({ [ann.id]: 'member', [bob.id]: 'owner' });
    // `memberships` alone changes roles and adds missing members; `add` keeps existing roles.
    await api.orgs.updateMembersInOrganizationTeam(org.id, team.id, {
      add: [bob.id],
      memberships: { [ann.id]: { role: TeamMemberRole.Owner }, [owner.id]: { role: TeamMemberRole.Member } },
    });
    expect(await members(team.id)).toEqual({ [ann.id]: 'owner', [bob.id]: 'owner', [owner.id]: 'member' });
    expect((await api.orgs.getTeamInOrganizationById(org.id, team.id)).data.members).toBe(3);
  });

  it('rejects keys that are not organization members with a 400 naming the field, changing nothing', async () => {
    const { org, owner, ann, api } = await setup();
    const stranger = (await createOrg(server.db, 'Elsewhere')).owner;
    const { data: team } = await api.orgs.createOrganizationTeam(org.id, { title: 'Strict', members: [ann.id] });
    const path = `/orgs/${org.id}/teams/${team.id}/members`;
    for (const [body, field] of [
      [{ add: [owner.id, stranger.id] }, 'add'],
      [{ add: [owner.id], remove: ['ghost@example.test'] }, 'remove'],
      [{ add: [owner.id], memberships: { [stranger.email]: { role: 'owner' } } }, 'memberships'],
      [{ memberships: { [ann.id]: { role: 'captain' } } }, 'memberships'],
      [{ memberships: [ann.id] }, 'memberships'],
      [{ add: 'x' }, 'add'],
    ] as const) {
      const r = await http(server.url, owner.token, 'PUT', path, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(field);
    }
    expect(await members(team.id)).toEqual({ [ann.id]: 'member' });
  });

  it('adds or updates one member (default role member) and removes one (205, then 204)', async () => {
    const { org, owner, ann, api } = await setup();
    const { data: team } = await api.orgs.createOrganizationTeam(org.id, { title: 'One' });
    expect((await api.orgs.addMemberToOrganizationTeamById(org.id, team.id, ann.id, {})).status).toBe(204);
    expect(await members(team.id)).toEqual({ [ann.id]: 'member' });
    await api.orgs.addMemberToOrganizationTeamById(org.id, team.id, ann.id, { role: TeamMemberRole.Owner });
    expect(await members(team.id)).toEqual({ [ann.id]: 'owner' });
    await api.orgs.addMemberToOrganizationTeamById(org.id, team.id, ann.id, {});
    expect(await members(team.id)).toEqual({ [ann.id]: 'owner' });
    const badRole = await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/teams/${team.id}/members/${ann.id}`, { role: 'chief' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error.message).toContain('role');
    const stranger = (await createOrg(server.db, 'Elsewhere')).owner;
    expect((await sdkError(api.orgs.addMemberToOrganizationTeamById(org.id, team.id, stranger.id, {}))).status).toBe(404);

    expect((await api.orgs.deleteMemberFromOrganizationTeamById(org.id, team.id, ann.id)).status).toBe(205);
    expect(await members(team.id)).toEqual({});
    expect((await api.orgs.deleteMemberFromOrganizationTeamById(org.id, team.id, ann.id)).status).toBe(204);
  });

  it('lets team owners manage members; plain members and non-owners get 403', async () => {
    const { org, owner, ann, bob, api } = await setup();
    const { data: team } = await api.orgs.createOrganizationTeam(org.id, { title: 'Owned', members: [bob.id] });
    await api.orgs.addMemberToOrganizationTeamById(org.id, team.id, ann.id, { role: TeamMemberRole.Owner });
    const asAnn = sdk(server.url, ann.token);
    await asAnn.orgs.updateMembersInOrganizationTeam(org.id, team.id, { add: [owner.id] });
    await asAnn.orgs.addMemberToOrganizationTeamById(org.id, team.id, bob.id, { role: TeamMemberRole.Owner });
    await asAnn.orgs.deleteMemberFromOrganizationTeamById(org.id, team.id, owner.id);
    expect(await members(team.id)).toEqual({ [ann.id]: 'owner', [bob.id]: 'owner' });

    await api.orgs.addMemberToOrganizationTeamById(org.id, team.id, bob.id, { role: TeamMemberRole.Member });
    const asBob = sdk(server.url, bob.token);
    expect((await sdkError(asBob.orgs.updateMembersInOrganizationTeam(org.id, team.id, { remove: [ann.id] }))).status).toBe(403);
    expect((await sdkError(asBob.orgs.addMemberToOrganizationTeamById(org.id, team.id, bob.id, { role: TeamMemberRole.Owner }))).status).toBe(403);
    expect((await sdkError(asBob.orgs.deleteMemberFromOrganizationTeamById(org.id, team.id, ann.id))).status).toBe(403);
    expect(await members(team.id)).toEqual({ [ann.id]: 'owner', [bob.id]: 'member' });
  });
});

describe('teams over GraphQL', () => {
  it('resolves teams as nodes (members of the organization only) with member edges carrying the role', async () => {
    const { org, owner, ann, api } = await setup();
    const { data: team } = await api.orgs.createOrganizationTeam(org.id, { title: 'Graph', members: [ann.id] });
    const spaceId = (await api.orgs.createSpace(org.id, { title: 'S' })).data.id;
    await server.db.contentPermission.create({ data: { id: newId('ContentPermission'), organizationId: org.id, spaceId, teamId: team.id, role: MemberRole.Read } });
    const query = `query($id: ID!) { node(id: $id) { ... on Team { id title spaces members { totalCount edges { role node { id user { id } } } } } } }`;
    const data = await gqlOk(server.url, owner.token, query, { id: team.id });
    expect(data.node).toEqual({ id: team.id, title: 'Graph', spaces: 1, members: { totalCount: 1, edges: [{ role: 'member', node: { id: ann.id, user: { id: ann.id } } }] } });
    const outsider = (await createOrg(server.db, 'Elsewhere')).owner;
    const denied = await gql(server.url, outsider.token, query, { id: team.id });
    expect(denied.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const mutated = await gqlOk(
      server.url,
      owner.token,
      `mutation($o: ID!, $t: ID!) { updateTeamMembers(organizationId: $o, teamId: $t, input: { memberships: [{ user: "${owner.email}", role: owner }], remove: ["${ann.id}"] }) { members { edges { role node { id } } } } }`,
      { o: org.id, t: team.id },
    );
    expect(mutated.updateTeamMembers.members.edges).toEqual([{ role: 'owner', node: { id: owner.id } }]);
    const deleted = await gqlOk(server.url, owner.token, `mutation($o: ID!, $t: ID!) { deleteTeam(organizationId: $o, teamId: $t) }`, { o: org.id, t: team.id });
    expect(deleted.deleteTeam).toBe(true);
  });

  it('runs the same number of SQL statements for 2 and for 10 teams of members', async () => {
    const QUERY = `query($id: ID!) { organization(id: $id) {
      teams(first: 50) { edges { node { id spaces permissions { admin view } members(first: 50) { totalCount edges { role permissions { view } node { id spaces teams user { id } } } } } } }
    } }`;
    const statements = async (n: number) => {
      const { org, owner, api } = await setup();
      const people = await Promise.all(Array.from({ length: n }, () => createActor(server.db, { org: org.id, role: 'read' })));
      for (let i = 0; i < n; i++) await api.orgs.createOrganizationTeam(org.id, { title: `T${i}`, members: people.map((p) => p.id) });
      server.queries.length = 0;
      const data = await gqlOk(server.url, owner.token, QUERY, { id: org.id });
      expect(data.organization.teams.edges).toHaveLength(n);
      expect(data.organization.teams.edges[0].node.members.totalCount).toBe(n);
      return server.queries.length;
    };
    expect(await statements(10)).toBe(await statements(2));
  });
});
