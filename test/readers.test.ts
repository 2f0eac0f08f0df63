/**
 * One rule set decides what each reader sees: every list and nested field walked as a guest
 * (with a grant on one space), a `read` member, and a member of another organization.
 */
import { MemberRole } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlOk, http, sdk } from './helpers/clients.js';
import { createActor, createOrg, type Actor } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

type World = {
  org: { id: string };
  owner: Actor;
  reader: Actor;
  guest: Actor;
  outsider: Actor;
  seen: string; // the guest's space, inside `collection`
  hidden: string;
  collection: string;
  guestTeam: string; // guest + reader
  staffTeam: string; // owner + reader
};

let w: World;

beforeAll(async () => {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const reader = await createActor(server.db, { org: org.id, role: 'read' });
  const guest = await createActor(server.db, { org: org.id, role: 'guest' });
  const outsider = (await createOrg(server.db)).owner;
  const collection = (await api.orgs.createCollection(org.id, { title: 'Docs' })).data.id;
  const seen = (await api.orgs.createSpace(org.id, { title: 'Seen', parent: collection })).data.id;
  const hidden = (await api.orgs.createSpace(org.id, { title: 'Hidden' })).data.id;
  await api.spaces.inviteToSpace(seen, { role: MemberRole.Read, users: [guest.id, reader.id] });
  const guestTeam = (await api.orgs.createOrganizationTeam(org.id, { title: 'With guest', members: [guest.id, reader.id] })).data.id;
  const staffTeam = (await api.orgs.createOrganizationTeam(org.id, { title: 'Staff only', members: [owner.id, reader.id] })).data.id;
  await api.spaces.inviteToSpace(hidden, { role: MemberRole.Edit, teams: [staffTeam], users: [reader.id] });
  w = { org, owner, reader, guest, outsider, seen, hidden, collection, guestTeam, staffTeam };
});

const get = (actor: Actor, path: string) => http(server.url, actor.token, 'GET', path);

describe('a guest with a grant on one space', () => {
  it('lists only what the grant reaches, with counts to match', async () => {
    const spaces = await get(w.guest, `/orgs/${w.org.id}/spaces`);
    expect(spaces.body.items.map((s: { id: string }) => s.id)).toEqual([w.seen]);
    expect(spaces.body.count).toBe(1);
    expect((await get(w.guest, `/orgs/${w.org.id}/collections`)).body).toMatchObject({ items: [], count: 0 });
    expect((await get(w.guest, `/collections/${w.collection}`)).status).toBe(404);
    expect((await get(w.guest, `/collections/${w.collection}/spaces`)).status).toBe(404);
    expect((await get(w.guest, `/spaces/${w.hidden}`)).status).toBe(404);
    expect((await get(w.guest, `/spaces/${w.seen}`)).body.permissions).toMatchObject({ access: true, edit: false, admin: false });
  });

  it('does not see who else has access, nor the member list', async () => {
    for (const path of ['users', 'teams', 'aggregate']) expect((await get(w.guest, `/spaces/${w.seen}/permissions/${path}`)).status).toBe(403);
    expect((await get(w.guest, `/orgs/${w.org.id}/members`)).status).toBe(403);
    expect((await get(w.guest, `/orgs/${w.org.id}/members/${w.reader.id}`)).status).toBe(403);
    expect((await get(w.guest, `/orgs/${w.org.id}/members/${w.reader.id}/spaces`)).status).toBe(403);
    expect((await get(w.guest, `/orgs/${w.org.id}/teams`)).status).toBe(403);
    const self = await get(w.guest, `/orgs/${w.org.id}/members/${w.guest.id}`);
    expect(self.body).toMatchObject({ id: w.guest.id, role: null, spaces: 1, teams: 1 });
    expect((await get(w.guest, `/orgs/${w.org.id}/members/${w.guest.id}/spaces`)).body.items.map((i: any) => i.space.id)).toEqual([w.seen]);
  });

  it('sees its own team, not its members’ memberships unless it owns the team, never the teams it is not in', async () => {
    expect((await get(w.guest, `/orgs/${w.org.id}/teams/${w.guestTeam}`)).body.permissions).toEqual({ admin: false, view: true });
    expect((await get(w.guest, `/orgs/${w.org.id}/teams/${w.guestTeam}/members`)).status).toBe(403);
    expect([403, 404]).toContain((await get(w.guest, `/orgs/${w.org.id}/teams/${w.staffTeam}/members`)).status);
    const teamMembers = `query($id: ID!, $team: ID!) { organization(id: $id) { team(id: $team) { permissions { view listMembers }
      members(first: 10) { edges { node { id role teams spaces user { email } teamMemberships(first: 10) { totalCount edges { node { team { id title } } } } } } } } } }`;
    const denied = await gql(server.url, w.guest.token, teamMembers, { id: w.org.id, team: w.guestTeam });
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    // As the team's owner it lists them; a teammate's teams and counts only reveal what the guest may see.
    const ownership = { teamId_userId: { teamId: w.guestTeam, userId: w.guest.id } };
    await server.db.teamMember.update({ where: ownership, data: { role: 'owner' } });
    try {
      const data = await gqlOk(server.url, w.guest.token, teamMembers, { id: w.org.id, team: w.guestTeam });
      expect(data.organization.team.permissions).toEqual({ view: true, listMembers: true });
      const teammate = data.organization.team.members.edges.map((e: any) => e.node).find((n: any) => n.id === w.reader.id);
      expect(teammate.user.email).toBe(w.reader.email);
      expect(teammate.teamMemberships.totalCount).toBe(1);
      expect(teammate.teamMemberships.edges.map((e: any) => e.node.team.id)).toEqual([w.guestTeam]);
      expect(teammate.teams).toBe(1);
      expect(teammate.spaces).toBe(1); // the reader holds grants on both spaces; the guest sees one of them
    } finally {
      await server.db.teamMember.update({ where: ownership, data: { role: 'member' } });
    }
  });

  it('sees the name, not the e-mail, of members it meets in content who are not its teammates', async () => {
    const api = sdk(server.url, w.owner.token);
    const cr = (await api.spaces.createChangeRequest(w.seen, { subject: 'By the owner' })).data;
    const asGuest = await get(w.guest, `/spaces/${w.seen}/change-requests/${cr.id}`);
    expect(asGuest.status).toBe(200);
    expect(asGuest.body.createdBy).toMatchObject({ object: 'user', id: w.owner.id, displayName: expect.any(String) });
    expect(asGuest.body.createdBy).not.toHaveProperty('email');
    const graph = await gqlOk(server.url, w.guest.token, `query($id: ID!) { space(id: $id) { changeRequests(first: 10, status: draft) { edges { node { createdBy { id email } } } } } }`, { id: w.seen });
    expect(graph.space.changeRequests.edges.map((e: any) => e.node.createdBy)).toContainEqual({ id: w.owner.id, email: null });
    // A teammate's e-mail, and their own, they see; the owner's, as the reviewer of the teammate's request, they do not.
    await api.spaces.inviteToSpace(w.seen, { role: MemberRole.Edit, users: [w.reader.id] });
    const byReader = (await sdk(server.url, w.reader.token).spaces.createChangeRequest(w.seen, { subject: 'By the reader' })).data;
    await api.spaces.inviteToSpace(w.seen, { role: MemberRole.Read, users: [w.reader.id] });
    expect((await get(w.guest, `/spaces/${w.seen}/change-requests/${byReader.id}`)).body.createdBy.email).toBe(w.reader.email);
    await api.spaces.submitChangeRequestReview(w.seen, byReader.id, { status: 'approved' } as never);
    const reviews = await get(w.guest, `/spaces/${w.seen}/change-requests/${byReader.id}/reviews`);
    expect(reviews.body.items.map((r: any) => [r.reviewer.id, 'email' in r.reviewer])).toEqual([[w.owner.id, false]]);
    expect((await get(w.owner, `/spaces/${w.seen}/change-requests/${cr.id}`)).body.createdBy.email).toBe(w.owner.email);
    expect((await gqlOk(server.url, w.guest.token, '{ viewer { email } }')).viewer.email).toBe(w.guest.email);
  });

  it('reads GET /users/{id} (every user’s urls.location) only for itself and teammates', async () => {
    const teammate = await get(w.guest, `/users/${w.reader.id}`);
    expect(teammate.status).toBe(200);
    expect(teammate.body).toMatchObject({ object: 'user', id: w.reader.id, email: w.reader.email });
    expect(teammate.body.urls.location).toMatch(new RegExp(`/v1/users/${w.reader.id}$`));
    expect((await get(w.guest, `/users/${w.guest.id}`)).body.id).toBe(w.guest.id);
    for (const id of [w.owner.id, w.outsider.id, w.seen, 'usr_nobody']) expect({ id, status: (await get(w.guest, `/users/${id}`)).status }).toEqual({ id, status: 404 });
    expect((await get(w.owner, `/users/${w.guest.id}`)).body.email).toBe(w.guest.email);
  });

  it('resolves node(id) of users only for itself and teammates', async () => {
    const node = (id: string) => gql(server.url, w.guest.token, `query($id: ID!) { node(id: $id) { ... on User { email } } }`, { id });
    expect((await node(w.reader.id)).data?.node.email).toBe(w.reader.email);
    expect((await node(w.owner.id)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await node(w.outsider.id)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await node(w.hidden)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});

describe('a read member', () => {
  it('sees every space and collection, the member list and who has access', async () => {
    expect((await get(w.reader, `/orgs/${w.org.id}/spaces`)).body.count).toBe(2);
    expect((await get(w.reader, `/orgs/${w.org.id}/collections`)).body.count).toBe(1);
    expect((await get(w.reader, `/orgs/${w.org.id}/members`)).body.count).toBe(3);
    expect((await get(w.reader, `/orgs/${w.org.id}/teams`)).body.count).toBe(2);
    const aggregate = await get(w.reader, `/spaces/${w.hidden}/permissions/aggregate`);
    // Members with an organization role (owner, reader) have access; the guest has no grant reaching it.
    expect(aggregate.body.items.map((i: any) => [i.user.id, i.permission]).sort()).toEqual(
      [[w.owner.id, 'admin'], [w.reader.id, 'edit']].sort(),
    );
    expect((await get(w.reader, `/spaces/${w.hidden}/permissions/teams`)).body.count).toBe(1);
    expect((await get(w.reader, `/spaces/${w.hidden}`)).body.permissions).toMatchObject({ edit: true, admin: false });
  });

  it('cannot read another member’s spaces, nor administer', async () => {
    expect((await get(w.reader, `/orgs/${w.org.id}/members/${w.guest.id}/spaces`)).status).toBe(403);
    expect((await http(server.url, w.reader.token, 'DELETE', `/spaces/${w.seen}`)).status).toBe(403);
  });
});

describe('a member of another organization', () => {
  it('gets 404 for everything of this organization', async () => {
    const paths = [
      `/orgs/${w.org.id}`, `/orgs/${w.org.id}/spaces`, `/orgs/${w.org.id}/collections`, `/orgs/${w.org.id}/members`,
      `/orgs/${w.org.id}/teams`, `/orgs/${w.org.id}/teams/${w.guestTeam}/members`, `/spaces/${w.seen}`,
      `/spaces/${w.seen}/permissions/aggregate`, `/spaces/${w.seen}/permissions/users`, `/collections/${w.collection}`,
      `/collections/${w.collection}/spaces`, `/orgs/${w.org.id}/members/${w.guest.id}/teams`,
    ];
    for (const path of paths) expect({ path, status: (await get(w.outsider, path)).status }).toEqual({ path, status: 404 });
    const orgs = await gqlOk(server.url, w.outsider.token, '{ organizations { totalCount edges { node { id } } } }');
    expect(orgs.organizations.edges.map((e: any) => e.node.id)).not.toContain(w.org.id);
  });
});

describe('roles read with a parent’s rows', () => {
  it('are the roles read by ID: organization → collections → spaces for the owner, a read member and a guest', async () => {
    const api = sdk(server.url, w.owner.token);
    // A collection's grants (to a user, to a team) reach its spaces, which are in-collection.
    const granted = (await api.orgs.createCollection(w.org.id, { title: 'Granted' })).data.id;
    await api.collections.inviteToCollection(granted, { role: MemberRole.Edit, users: [w.reader.id], teams: [w.guestTeam] });
    for (const title of ['Inside', 'Also inside']) await api.orgs.createSpace(w.org.id, { title, parent: granted });
    const nested = `query($org: ID!) { organization(id: $org) { collections(first: 20) { edges { node { id viewerRole
      spaces(first: 20) { edges { node { id viewerRole permissions { view edit admin } } } } } } } } }`;
    for (const actor of [w.owner, w.reader, w.guest]) {
      const data = await gqlOk(server.url, actor.token, nested, { org: w.org.id });
      const collections = data.organization.collections.edges.map((e: any) => e.node);
      const spaces = collections.flatMap((c: any) => c.spaces.edges.map((e: any) => e.node));
      expect(spaces.length, actor.email).toBeGreaterThan(0);
      for (const space of spaces) {
        const byId = await gqlOk(server.url, actor.token, `query($id: ID!) { space(id: $id) { id viewerRole permissions { view edit admin } } }`, { id: space.id });
        expect(space, actor.email).toEqual(byId.space);
      }
      for (const collection of collections) {
        const byId = await gqlOk(server.url, actor.token, `query($id: ID!) { collection(id: $id) { id viewerRole } }`, { id: collection.id });
        expect({ id: collection.id, viewerRole: collection.viewerRole }, actor.email).toEqual(byId.collection);
      }
    }
  });
});

describe('organization → collections → spaces in one statement', () => {
  it('follows the caller’s membership as it changes: a member’s tree, a guest’s, a member’s again', async () => {
    const { org, owner } = await createOrg(server.db, 'Changing reader');
    const api = sdk(server.url, owner.token);
    const user = await createActor(server.db, { org: org.id, role: 'read' });
    const open = (await api.orgs.createCollection(org.id, { title: 'Open' })).data.id;
    const granted = (await api.orgs.createCollection(org.id, { title: 'Granted' })).data.id;
    await api.orgs.createSpace(org.id, { title: 'In open', parent: open });
    await api.orgs.createSpace(org.id, { title: 'In granted', parent: granted });
    await api.collections.inviteToCollection(granted, { role: MemberRole.Read, users: [user.id] });
    const tree = async () => {
      const data = await gqlOk(server.url, user.token, `query($org: ID!) { organization(id: $org) { collections(first: 10) { totalCount edges { node { title
        spaces(first: 10) { edges { node { title } } } } } } } }`, { org: org.id });
      const { totalCount, edges } = data.organization.collections;
      return { totalCount, titles: edges.map((e: any) => [e.node.title, e.node.spaces.edges.map((s: any) => s.node.title)]) };
    };
    const setRole = (role: 'read' | null) => server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: user.id } }, data: { role } });
    const asMember = { totalCount: 2, titles: [['Open', ['In open']], ['Granted', ['In granted']]] };
    const asGuest = { totalCount: 1, titles: [['Granted', ['In granted']]] };

    expect(await tree()).toEqual(asMember);
    await setRole(null);
    expect(await tree()).toEqual(asGuest); // the statement read for a member finds a guest: read again
    const before = server.queries.length;
    expect(await tree()).toEqual(asGuest);
    expect(server.queries.slice(before).filter((q) => q.includes('FROM "Organization" o'))).toHaveLength(1); // the guest's list, at once
    await setRole('read');
    expect(await tree()).toEqual(asMember);
    expect(await tree()).toEqual(asMember);
    await setRole(null);
    await server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: user.id } }, data: { disabled: true } });
    expect((await gql(server.url, user.token, `query($org: ID!) { organization(id: $org) { id } }`, { org: org.id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('a space read by ID', () => {
  it('follows the caller’s role as it changes: an admin’s, a guest’s, a grant’s, an admin’s again', async () => {
    const { org, owner } = await createOrg(server.db, 'Changing admin');
    const api = sdk(server.url, owner.token);
    const user = await createActor(server.db, { org: org.id, role: 'admin' });
    const [one, two] = [(await api.orgs.createSpace(org.id, { title: 'One' })).data.id, (await api.orgs.createSpace(org.id, { title: 'Two' })).data.id];
    const role = async (id: string) => (await gql(server.url, user.token, `query($id: ID!) { space(id: $id) { viewerRole } }`, { id })).data?.space?.viewerRole ?? null;
    const setRole = (role: 'admin' | null) => server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: user.id } }, data: { role } });

    expect([await role(one), await role(two)]).toEqual(['admin', 'admin']);
    expect([await role(one), await role(two)]).toEqual(['admin', 'admin']); // read as an admin's
    await setRole(null);
    expect([await role(one), await role(two)]).toEqual([null, null]); // a guest with no grant: not found
    expect((await get(user, `/spaces/${one}`)).status).toBe(404);
    await api.spaces.inviteToSpace(two, { role: MemberRole.Edit, users: [user.id] });
    expect([await role(one), await role(two)]).toEqual([null, 'edit']);
    await setRole('admin');
    expect([await role(one), await role(two)]).toEqual(['admin', 'admin']);
    expect((await gqlOk(server.url, user.token, `query($a: ID!, $b: ID!) { a: space(id: $a) { viewerRole } b: space(id: $b) { viewerRole } }`, { a: one, b: two }))).toEqual({ a: { viewerRole: 'admin' }, b: { viewerRole: 'admin' } });
    await server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: user.id } }, data: { disabled: true } });
    expect((await get(user, `/spaces/${one}`)).status).toBe(404);
  });
});
