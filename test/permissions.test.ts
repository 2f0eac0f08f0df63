import { MemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { newId } from '../src/domain/kernel/ids.js';
import { gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg, type Actor } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

/** A team of the organization with the given members (teams have their own API elsewhere). */
async function createTeam(organizationId: string, members: Actor[]) {
  const team = await server.db.team.create({ data: { id: newId('Team'), organizationId, title: 'Team' } });
  await server.db.teamMember.createMany({ data: members.map((m) => ({ teamId: team.id, userId: m.id })) });
  return team;
}

const byUser = (items: { permission: string; user: { id: string } }[]) => Object.fromEntries(items.map((i) => [i.user.id, i.permission]));

describe('space and collection users over REST (SDK)', () => {
  it('invites users, lists, updates and removes their grants on a space', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const alice = await createActor(server.db, { org: org.id, role: 'read', name: 'Alice' });
    const bob = await createActor(server.db, { org: org.id, role: 'guest', name: 'Bob' });
    const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;

    const invited = await api.spaces.inviteToSpace(space.id, { role: MemberRole.Edit, users: [alice.id, bob.id] });
    expect(invited.status).toBe(204);
    const { data: users } = await api.spaces.listUserPermissionsInSpace(space.id);
    expect(users.count).toBe(2);
    expect(users.items[0]).toEqual({
      permission: 'edit',
      user: { object: 'user', id: alice.id, displayName: 'Alice', email: alice.email, urls: { location: expect.stringContaining(alice.id) } },
    });
    expect(byUser(users.items)).toEqual({ [alice.id]: 'edit', [bob.id]: 'edit' });

    // Inviting again replaces the role rather than adding a second grant.
    await api.spaces.inviteToSpace(space.id, { role: MemberRole.Comment, users: [bob.id] });
    expect(byUser((await api.spaces.listUserPermissionsInSpace(space.id)).data.items)).toEqual({ [alice.id]: 'edit', [bob.id]: 'comment' });

    expect((await api.spaces.updateUserPermissionInSpace(space.id, alice.id, { role: MemberRole.Review })).status).toBe(204);
    expect(byUser((await api.spaces.listUserPermissionsInSpace(space.id)).data.items)).toEqual({ [alice.id]: 'review', [bob.id]: 'comment' });
    // role: null removes the grant.
    await api.spaces.updateUserPermissionInSpace(space.id, alice.id, { role: null });
    expect(byUser((await api.spaces.listUserPermissionsInSpace(space.id)).data.items)).toEqual({ [bob.id]: 'comment' });

    expect((await api.spaces.removeUserFromSpace(space.id, bob.id)).status).toBe(204);
    expect((await api.spaces.listUserPermissionsInSpace(space.id)).data.count).toBe(0);
    expect((await http(server.url, owner.token, 'DELETE', `/spaces/${space.id}/permissions/users/${bob.id}`)).status).toBe(204);
    expect((await sdkError(sdk(server.url, bob.token).spaces.getSpaceById(space.id))).status).toBe(404);

  });

  it('paginates the direct grants', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const col = (await api.orgs.createCollection(org.id, {})).data;
    const people = [];
    for (let i = 0; i < 3; i++) people.push(await createActor(server.db, { org: org.id, role: 'read' }));
    for (const p of people) await api.collections.inviteToCollection(col.id, { role: MemberRole.Edit, users: [p.id] });
    const first = (await api.collections.listUserPermissionsInCollection(col.id, { limit: 2 })).data;
    expect(first.count).toBe(3);
    expect(first.items.map((i) => i.user.id)).toEqual([people[0].id, people[1].id]);
    const rest = (await api.collections.listUserPermissionsInCollection(col.id, { limit: 2, page: first.next!.page })).data;
    expect(rest.items.map((i) => i.user.id)).toEqual([people[2].id]);
    expect(rest.next).toBeUndefined();
  });

  it('validates invitations: 400 naming the field, 404 naming an unknown user or team', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const member = await createActor(server.db, { org: org.id, role: 'read' });
    const space = (await api.orgs.createSpace(org.id, {})).data;
    const path = `/spaces/${space.id}/permissions`;
    const cases: [unknown, string][] = [
      [{ users: [member.id] }, 'role'],
      [{ role: 'owner', users: [member.id] }, 'role'],
      [{ role: 'read' }, 'users'],
      [{ role: 'read', users: [] }, 'users'],
      [{ role: 'read', users: member.id }, 'users'],
    ];
    for (const [body, field] of cases) {
      const response = await http(server.url, owner.token, 'POST', path, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message).toContain(field);
    }
    const badRole = await http(server.url, owner.token, 'PATCH', `${path}/users/${member.id}`, { role: 'boss' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error.message).toContain('role');

    const other = await createOrg(server.db, 'Other');
    const foreignTeam = await createTeam(other.org.id, []);
    const notMember = await sdkError(api.spaces.inviteToSpace(space.id, { role: MemberRole.Read, users: [member.id, other.owner.id] }));
    expect(notMember.status).toBe(404);
    expect(notMember.message).toContain(other.owner.id);
    const notOurTeam = await sdkError(api.spaces.inviteToSpace(space.id, { role: MemberRole.Read, teams: [foreignTeam.id] }));
    expect(notOurTeam.status).toBe(404);
    expect(notOurTeam.message).toContain(foreignTeam.id);
    expect((await sdkError(api.spaces.updateUserPermissionInSpace(space.id, other.owner.id, { role: MemberRole.Read }))).status).toBe(404);
    // Nothing was granted by the failed invitations.
    expect((await api.spaces.listUserPermissionsInSpace(space.id)).data.count).toBe(0);
  });

  it('lists need read, writes need admin; other organizations and unknown content get 404', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    const outsider = (await createOrg(server.db, 'Elsewhere')).owner;
    const space = (await api.orgs.createSpace(org.id, {})).data;
    const col = (await api.orgs.createCollection(org.id, {})).data;

    const asReader = sdk(server.url, reader.token);
    expect((await asReader.spaces.listUserPermissionsInSpace(space.id)).status).toBe(200);
    expect((await asReader.collections.listPermissionsAggregateInCollection(col.id)).status).toBe(200);
    for (const call of [
      () => asReader.spaces.inviteToSpace(space.id, { role: MemberRole.Admin, users: [reader.id] }),
      () => asReader.spaces.updateUserPermissionInSpace(space.id, reader.id, { role: MemberRole.Admin }),
      () => asReader.spaces.removeUserFromSpace(space.id, owner.id),
      () => asReader.collections.inviteToCollection(col.id, { role: MemberRole.Admin, users: [reader.id] }),
      () => asReader.collections.updateUserPermissionInCollection(col.id, reader.id, { role: MemberRole.Admin }),
      () => asReader.collections.removeUserFromCollection(col.id, owner.id),
    ]) {
      expect((await sdkError(call())).status, call.toString()).toBe(403);
    }
    for (const token of [guest.token, outsider.token]) {
      const as = sdk(server.url, token);
      for (const call of [
        () => as.spaces.listUserPermissionsInSpace(space.id),
        () => as.spaces.listPermissionsAggregateInSpace(space.id),
        () => as.spaces.inviteToSpace(space.id, { role: MemberRole.Admin, users: [guest.id] }),
        () => as.collections.listUserPermissionsInCollection(col.id),
        () => as.collections.removeUserFromCollection(col.id, owner.id),
      ]) {
        expect((await sdkError(call())).status, call.toString()).toBe(404);
      }
    }
    // Unknown IDs, and an ID of the other kind under a prefix.
    expect((await http(server.url, owner.token, 'GET', `/spaces/spc_unknown/permissions/users`)).status).toBe(404);
    expect((await http(server.url, owner.token, 'GET', `/spaces/${col.id}/permissions/users`)).status).toBe(404);
    expect((await http(server.url, owner.token, 'POST', `/collections/${space.id}/permissions`, { role: 'read', users: [reader.id] })).status).toBe(404);
  });

  it('aggregates every member with access and their effective role, filtered by exact role', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const editor = await createActor(server.db, { org: org.id, role: 'edit' });
    const teamMate = await createActor(server.db, { org: org.id, role: 'guest' });
    const grantedGuest = await createActor(server.db, { org: org.id, role: 'guest' });
    await createActor(server.db, { org: org.id, role: 'guest' }); // no grant: no access
    const disabled = await createActor(server.db, { org: org.id, role: 'admin' });
    await server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: disabled.id } }, data: { disabled: true } });
    const team = await createTeam(org.id, [teamMate, reader]);
    const col = (await api.orgs.createCollection(org.id, { title: 'Docs' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Inside', parent: col.id })).data;

    await api.collections.inviteToCollection(col.id, { role: MemberRole.Review, teams: [team.id] });
    await api.spaces.inviteToSpace(space.id, { role: MemberRole.Comment, users: [grantedGuest.id, reader.id] });

    const expected = {
      [owner.id]: 'admin',
      [reader.id]: 'review', // team grant on the parent collection beats org `read` and the direct `comment`
      [editor.id]: 'edit',
      [teamMate.id]: 'review',
      [grantedGuest.id]: 'comment',
    };
    const { data: all } = await api.spaces.listPermissionsAggregateInSpace(space.id);
    expect(byUser(all.items)).toEqual(expected);
    expect(all.count).toBe(5);
    expect(all.items.every((i) => (i.user as { object: string }).object === 'user')).toBe(true);
    const reviewers = (await api.spaces.listPermissionsAggregateInSpace(space.id, { role: MemberRole.Review })).data;
    expect(byUser(reviewers.items)).toEqual({ [reader.id]: 'review', [teamMate.id]: 'review' });
    expect((await api.spaces.listPermissionsAggregateInSpace(space.id, { role: MemberRole.Create })).data.count).toBe(0);
    const badFilter = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/permissions/aggregate?role=boss`);
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.error.message).toContain('role');

    const { data: onCollection } = await api.collections.listPermissionsAggregateInCollection(col.id);
    expect(byUser(onCollection.items)).toEqual({ [owner.id]: 'admin', [reader.id]: 'review', [editor.id]: 'edit', [teamMate.id]: 'review' });

    // Raising the collection's default level lifts every non-guest member below it.
    await api.collections.updateCollectionById(col.id, { defaultLevel: MemberRole.Create });
    const lifted = byUser((await api.spaces.listPermissionsAggregateInSpace(space.id)).data.items);
    expect(lifted).toEqual({ ...expected, [reader.id]: 'create', [editor.id]: 'create' });

    // The count (a counter of members with a role, plus guests reached) follows who has access.
    const memberOf = (userId: string) => ({ organizationId_userId: { organizationId: org.id, userId } });
    await server.db.member.update({ where: memberOf(editor.id), data: { role: null } }); // a guest without grants now
    await server.db.member.update({ where: memberOf(reader.id), data: { disabled: true } });
    await server.db.member.update({ where: memberOf(disabled.id), data: { disabled: false } });
    const after = (await api.spaces.listPermissionsAggregateInSpace(space.id)).data;
    expect(byUser(after.items)).toEqual({ [owner.id]: 'admin', [disabled.id]: 'admin', [teamMate.id]: 'review', [grantedGuest.id]: 'comment' });
    expect(after.count).toBe(4);
  });

  it('grants on a parent collection reach nested collections and their spaces', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    const top = (await api.orgs.createCollection(org.id, { title: 'Top' })).data;
    const nested = (await api.orgs.createCollection(org.id, { title: 'Nested', parent: top.id })).data;
    const deep = (await api.orgs.createSpace(org.id, { title: 'Deep', parent: nested.id })).data;
    const other = (await api.orgs.createCollection(org.id, { title: 'Other' })).data;
    const rootSpace = (await api.orgs.createSpace(org.id, { title: 'Root space' })).data;

    const asGuest = sdk(server.url, guest.token);
    expect((await sdkError(asGuest.collections.getCollectionById(nested.id))).status).toBe(404);
    expect((await asGuest.orgs.listCollectionsInOrganizationById(org.id)).data.count).toBe(0);

    await api.collections.inviteToCollection(top.id, { role: MemberRole.Edit, users: [guest.id] });
    const { data: seenNested } = await asGuest.collections.getCollectionById(nested.id);
    expect(seenNested.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    const { data: seenDeep } = await asGuest.spaces.getSpaceById(deep.id);
    expect(seenDeep.permissions).toMatchObject({ access: true, edit: true, admin: false, review: false });
    expect((await asGuest.orgs.listCollectionsInOrganizationById(org.id)).data.items.map((c) => c.id)).toEqual([top.id, nested.id]);
    expect((await asGuest.orgs.listSpacesInOrganizationById(org.id)).data.items.map((s) => s.id)).toEqual([deep.id]);
    expect((await sdkError(asGuest.collections.getCollectionById(other.id))).status).toBe(404);
    expect((await sdkError(asGuest.spaces.getSpaceById(rootSpace.id))).status).toBe(404);
    expect((await sdkError(asGuest.orgs.createCollection(org.id, { parent: top.id }))).status).toBe(403);

    // The highest role wins: a `create` grant on the nested collection lets the guest create there.
    await api.collections.inviteToCollection(nested.id, { role: MemberRole.Create, users: [guest.id] });
    expect((await asGuest.collections.getCollectionById(nested.id)).data.permissions).toMatchObject({ create: true, admin: false });
    expect((await asGuest.collections.getCollectionById(top.id)).data.permissions).toMatchObject({ create: false });
    expect((await asGuest.orgs.createCollection(org.id, { parent: nested.id })).data.permissions).toMatchObject({ view: true, create: true });
    // ... and an admin grant on a space lets the guest share it.
    await api.spaces.inviteToSpace(deep.id, { role: MemberRole.Admin, users: [guest.id] });
    expect((await asGuest.spaces.getSpaceById(deep.id)).data.permissions.admin).toBe(true);
    expect((await asGuest.spaces.inviteToSpace(deep.id, { role: MemberRole.Read, users: [owner.id] })).status).toBe(204);

    // Removing the parent grant takes the inherited access away again.
    await api.collections.removeUserFromCollection(top.id, guest.id);
    expect((await sdkError(asGuest.collections.getCollectionById(top.id))).status).toBe(404);
    expect((await asGuest.collections.getCollectionById(nested.id)).data.id).toBe(nested.id);
  });

  it('team grants give access to team members; team grants can be changed and removed', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const inTeam = await createActor(server.db, { org: org.id, role: 'guest' });
    const notInTeam = await createActor(server.db, { org: org.id, role: 'guest' });
    const team = await createTeam(org.id, [inTeam]);
    const col = (await api.orgs.createCollection(org.id, {})).data;
    const space = (await api.orgs.createSpace(org.id, { parent: col.id })).data;

    await api.collections.inviteToCollection(col.id, { role: MemberRole.Read, teams: [team.id] });
    expect((await sdk(server.url, inTeam.token).spaces.getSpaceById(space.id)).data.permissions).toMatchObject({ access: true, edit: false });
    expect((await sdkError(sdk(server.url, notInTeam.token).spaces.getSpaceById(space.id))).status).toBe(404);
    // Direct user grants list users only; team grants are listed apart, to those who may see the team.
    expect((await api.collections.listUserPermissionsInCollection(col.id)).data.count).toBe(0);
    const { data: teams } = await api.collections.listTeamPermissionsInCollection(col.id);
    expect(teams.count).toBe(1);
    expect(teams.items[0]).toMatchObject({ permission: 'read', team: { object: 'team', id: team.id } });
    // Guests who only read the content do not see who else has access; a guest administering it
    // does, but only the teams they can see (their own).
    expect((await sdkError(sdk(server.url, inTeam.token).collections.listTeamPermissionsInCollection(col.id))).status).toBe(403);
    await api.collections.inviteToCollection(col.id, { role: MemberRole.Admin, users: [notInTeam.id] });
    expect((await sdk(server.url, notInTeam.token).collections.listTeamPermissionsInCollection(col.id)).data.count).toBe(0);
    expect((await sdk(server.url, notInTeam.token).collections.listUserPermissionsInCollection(col.id)).data.count).toBe(1);
    await api.collections.removeUserFromCollection(col.id, notInTeam.id);

    expect((await api.collections.updateTeamPermissionInCollection(col.id, team.id, { role: MemberRole.Edit })).status).toBe(204);
    expect((await sdk(server.url, inTeam.token).spaces.getSpaceById(space.id)).data.permissions.edit).toBe(true);
    expect((await api.collections.removeTeamFromCollection(col.id, team.id)).status).toBe(204);
    expect((await sdkError(sdk(server.url, inTeam.token).spaces.getSpaceById(space.id))).status).toBe(404);

    await api.spaces.updateTeamPermissionInSpace(space.id, team.id, { role: MemberRole.Comment });
    expect((await sdk(server.url, inTeam.token).spaces.getSpaceById(space.id)).data.permissions).toMatchObject({ comment: true, edit: false });
    expect((await api.spaces.listTeamPermissionsInSpace(space.id)).data.items.map((i) => [i.permission, i.team.id])).toEqual([['comment', team.id]]);
    await api.spaces.removeTeamFromSpace(space.id, team.id);
    expect((await api.spaces.listTeamPermissionsInSpace(space.id)).data.count).toBe(0);
    expect((await sdkError(sdk(server.url, inTeam.token).spaces.getSpaceById(space.id))).status).toBe(404);
    expect((await sdkError(api.spaces.updateTeamPermissionInSpace(space.id, 'team_unknown', { role: MemberRole.Read }))).status).toBe(404);
  });

  it('disabled members see nothing, whatever they were granted', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const member = await createActor(server.db, { org: org.id, role: 'edit' });
    const col = (await api.orgs.createCollection(org.id, {})).data;
    const space = (await api.orgs.createSpace(org.id, {})).data;
    await api.collections.inviteToCollection(col.id, { role: MemberRole.Admin, users: [member.id] });
    await api.spaces.inviteToSpace(space.id, { role: MemberRole.Admin, users: [member.id] });
    await server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: member.id } }, data: { disabled: true } });

    const asDisabled = sdk(server.url, member.token);
    expect((await sdkError(asDisabled.collections.getCollectionById(col.id))).status).toBe(404);
    expect((await sdkError(asDisabled.spaces.getSpaceById(space.id))).status).toBe(404);
    expect((await sdkError(asDisabled.spaces.listUserPermissionsInSpace(space.id))).status).toBe(404);
    expect(byUser((await api.spaces.listPermissionsAggregateInSpace(space.id)).data.items)).toEqual({ [owner.id]: 'admin' });
    // The grant itself is still listed (it returns if the member is enabled again).
    expect(byUser((await api.spaces.listUserPermissionsInSpace(space.id)).data.items)).toEqual({ [member.id]: 'admin' });
  });
});

describe('content permissions over GraphQL', () => {
  it('grants through one mutation for spaces and collections, and reads users and aggregatedUsers', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const member = await createActor(server.db, { org: org.id, role: 'read' });
    const col = (await api.orgs.createCollection(org.id, {})).data;
    const space = (await api.orgs.createSpace(org.id, { parent: col.id })).data;
    const data = await gqlOk(
      server.url,
      owner.token,
      `mutation($col: ID!, $user: ID!) {
        grantContentPermissions(contentId: $col, role: admin, users: [$user]) {
          __typename ... on Collection { users { edges { node { permission user { id } } } } }
        }
      }`,
      { col: col.id, user: member.id },
    );
    expect(data.grantContentPermissions).toEqual({ __typename: 'Collection', users: { edges: [{ node: { permission: 'admin', user: { id: member.id } } }] } });
    const read = await gqlOk(
      server.url,
      member.token,
      `query($space: ID!) { space(id: $space) { viewerRole users { totalCount } aggregatedUsers(role: admin) { edges { node { user { id } } } } parent { viewerRole } } }`,
      { space: space.id },
    );
    expect(read.space).toMatchObject({ viewerRole: 'admin', users: { totalCount: 0 }, parent: { viewerRole: 'admin' } });
    expect(read.space.aggregatedUsers.edges.map((e: { node: { user: { id: string } } }) => e.node.user.id).sort()).toEqual([owner.id, member.id].sort());
    const removed = await gqlOk(
      server.url,
      owner.token,
      `mutation($col: ID!, $user: ID!) { removeUserContentPermission(contentId: $col, userId: $user) { ... on Collection { users { totalCount } } } }`,
      { col: col.id, user: member.id },
    );
    expect(removed.removeUserContentPermission.users.totalCount).toBe(0);
  });

  it('reads organization → collections → spaces → users in a fixed number of SQL statements', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const member = await createActor(server.db, { org: org.id, role: 'read' });
    const query = `query($org: ID!) { organization(id: $org) { collections(first: 20) { edges { node {
      permissions { view } parent { id } users(first: 20) { edges { node { permission user { email } } } }
      aggregatedUsers { totalCount }
      spaces(first: 20) { edges { node { title parent { id } users(first: 20) { edges { node { user { displayName } } } } aggregatedUsers { totalCount } } } }
    } } } } }`;
    const statements = async () => {
      const before = server.queries.length;
      await gqlOk(server.url, owner.token, query, { org: org.id });
      return server.queries.length - before;
    };
    const grow = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const col = (await api.orgs.createCollection(org.id, {})).data;
        const space = (await api.orgs.createSpace(org.id, { parent: col.id })).data;
        await api.collections.inviteToCollection(col.id, { role: MemberRole.Edit, users: [member.id] });
        await api.spaces.inviteToSpace(space.id, { role: MemberRole.Edit, users: [member.id] });
      }
    };
    await grow(2);
    const small = await statements();
    await grow(5);
    expect(await statements()).toBe(small);
  });
});
