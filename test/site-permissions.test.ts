/**
 * Site permissions through the public SDK, validated against the public document: inviting users
 * and teams, listing, changing and removing their grants, who has access (aggregate, with its
 * filters and origins), and what a site's grants and default level allow — a granted guest reads
 * or edits the site, an ungranted one gets 404, a member whose role is too low 403, and changing
 * `defaultLevel` changes who can. The site's other operations go by the same role (search and
 * redirect reads: read; redirect writes, publishing auth, previews — the published server's check
 * of a preview link included: admin). Another organization's token gets 404 on every operation.
 */
import { describe, expect, it } from 'vitest';
import { gqlOk, sdk, sdkError } from './helpers/clients.js';
import { expectDocumented, expectSchema } from './helpers/documented.js';
import { createActor, createOrg, spaceWithPages } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { Access } from '../src/domain/access/access.js';
import { mayLearnOf } from '../src/domain/access/event-audience.js';
import { createLoaders } from '../src/domain/loaders/index.js';

const server = useServer();

const SITE = '/orgs/{organizationId}/sites/{siteId}';
const PERMISSIONS = `${SITE}/permissions`;

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Guide' })).data;
  const site = (await api.orgs.createSite(org.id, { title: 'Docs', spaces: [space.id] } as never)).data;
  const reader = await createActor(server.db, { org: org.id, role: 'read', name: 'Rita Reader' });
  const editor = await createActor(server.db, { org: org.id, role: 'edit', name: 'Eddie Editor' });
  const guest = await createActor(server.db, { org: org.id, role: 'guest', name: 'Gus Guest' });
  const team = (await api.orgs.createOrganizationTeam(org.id, { title: 'Writers', members: [editor.id] } as never)).data;
  return { org, owner, api, space, site, reader, editor, guest, team };
}

type Aggregate = { items: { permission: string | null; user: { id: string }; origin: Record<string, unknown>; disabled: boolean }[]; count: number };

describe('site permissions', () => {
  it('invites users and teams, lists, changes and removes their grants, as documented', async () => {
    const { org, owner, api, site, reader, editor, guest, team } = await setup();

    const invited = await api.orgs.inviteToSite(org.id, site.id, { role: 'read', users: [guest.id] } as never);
    expect(invited.status).toBe(204);
    expect((await api.orgs.inviteToSite(org.id, site.id, { role: 'create', teams: [team.id] } as never)).status).toBe(204);

    const users = await api.orgs.listUserPermissionsInSite(org.id, site.id);
    expectDocumented('GET', `${PERMISSIONS}/users`, '200', users.data);
    expect(users.data.items.map((p) => [p.user.id, p.permission])).toEqual([[guest.id, 'read']]);
    expect(users.data.count).toBe(1);
    const teams = await api.orgs.listTeamPermissionsInSite(org.id, site.id);
    expectDocumented('GET', `${PERMISSIONS}/teams`, '200', teams.data);
    expect(teams.data.items.map((p) => [p.team.id, p.permission])).toEqual([[team.id, 'create']]);

    expect((await api.orgs.updateUserPermissionInSite(org.id, site.id, guest.id, { role: 'edit' as never })).status).toBe(204);
    expect((await api.orgs.updateTeamPermissionInSite(org.id, site.id, team.id, { role: 'review' as never })).status).toBe(204);
    expect((await api.orgs.listUserPermissionsInSite(org.id, site.id)).data.items.map((p) => p.permission)).toEqual(['edit']);
    expect((await api.orgs.listTeamPermissionsInSite(org.id, site.id)).data.items.map((p) => p.permission)).toEqual(['review']);

    // Who has access: every member with a role (the site inherits), and the granted guest.
    const aggregate = (await api.orgs.listPermissionsAggregateInSite(org.id, site.id, { order: 'asc' })).data as unknown as Aggregate;
    expectDocumented('GET', `${PERMISSIONS}/aggregate`, '200', aggregate);
    expect(aggregate.items.map((i) => [i.user.id, i.permission, i.origin])).toEqual([
      [owner.id, 'admin', { type: 'organization', organization: org.id }],
      [reader.id, 'read', { type: 'organization', organization: org.id }],
      [editor.id, 'review', { type: 'site', site: site.id, reason: 'team', team: team.id }],
      [guest.id, 'edit', { type: 'site', site: site.id, reason: 'member' }],
    ]);
    expect(aggregate.count).toBe(4);
    const ids = async (query: Record<string, unknown>) => {
      const page = (await api.orgs.listPermissionsAggregateInSite(org.id, site.id, query as never)).data as unknown as Aggregate;
      expect(page.count).toBe(page.items.length);
      return page.items.map((i) => i.user.id);
    };
    expect(await ids({ role: 'guest' })).toEqual([guest.id]);
    expect(await ids({ role: 'review' })).toEqual([editor.id]);
    expect(await ids({ team: team.id })).toEqual([editor.id]);
    expect(await ids({ search: 'rita' })).toEqual([reader.id]);
    expect(await ids({ sort: 'name', order: 'asc' })).toEqual([editor.id, guest.id, owner.id, reader.id]);
    // Paged: the cursor goes on where the page stopped.
    const first = (await api.orgs.listPermissionsAggregateInSite(org.id, site.id, { limit: 3, order: 'asc' })).data as unknown as Aggregate & { next?: { page: string } };
    expect(first.items).toHaveLength(3);
    const second = (await api.orgs.listPermissionsAggregateInSite(org.id, site.id, { limit: 3, order: 'asc', page: first.next!.page })).data as unknown as Aggregate;
    expect(second.items.map((i) => i.user.id)).toEqual([guest.id]);

    expect((await api.orgs.removeUserFromSite(org.id, site.id, guest.id)).status).toBe(205);
    expect((await api.orgs.removeUserFromSite(org.id, site.id, guest.id)).status).toBe(204);
    expect((await api.orgs.removeTeamFromSite(org.id, site.id, team.id)).status).toBe(205);
    expect((await api.orgs.removeTeamFromSite(org.id, site.id, team.id)).status).toBe(204);
    expect((await api.orgs.listUserPermissionsInSite(org.id, site.id)).data.items).toEqual([]);
    expect(await ids({})).not.toContain(guest.id);

    // The writes went through the outbox, in their transactions.
    const events = await server.db.outboxEvent.findMany({ where: { organizationId: org.id, kind: { startsWith: 'sitePermission' } }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => [e.kind, e.siteId])).toEqual([
      ['sitePermissionsGranted', site.id],
      ['sitePermissionsGranted', site.id],
      ['sitePermissionUpdated', site.id],
      ['sitePermissionUpdated', site.id],
      ['sitePermissionRemoved', site.id],
      ['sitePermissionRemoved', site.id],
    ]);
    expect(events[0].data).toEqual({ users: [guest.id], teams: [], role: 'read' });
  });

  it('refuses bad input with 400 naming the field, and unknown users or teams with 404', async () => {
    const { org, api, site, guest } = await setup();
    const stranger = await createOrg(server.db);
    const bad = async (call: Promise<unknown>, status: number, field?: string) => {
      const error = await sdkError(call);
      expect(error.status).toBe(status);
      if (field) expect(error.message).toContain(field);
    };
    await bad(api.orgs.inviteToSite(org.id, site.id, { role: 'owner', users: [guest.id] } as never), 400, 'role');
    await bad(api.orgs.inviteToSite(org.id, site.id, { role: 'read' } as never), 400, 'users');
    await bad(api.orgs.inviteToSite(org.id, site.id, { role: 'read', users: [stranger.owner.id] } as never), 404);
    await bad(api.orgs.inviteToSite(org.id, site.id, { role: 'read', teams: ['team_nope'] } as never), 404);
    await bad(api.orgs.updateUserPermissionInSite(org.id, site.id, stranger.owner.id, { role: 'read' as never }), 404);
    await bad(api.orgs.updateUserPermissionInSite(org.id, site.id, guest.id, { role: 'boss' as never }), 400, 'role');
    await bad(api.orgs.listPermissionsAggregateInSite(org.id, site.id, { sort: 'height' as never }), 400, 'sort');
    // Nothing was granted by the refused calls.
    expect((await api.orgs.listUserPermissionsInSite(org.id, site.id)).data.items).toEqual([]);
  });

  it('lets a granted guest read or edit the site; without a grant it is not found', async () => {
    const { org, api, site, guest } = await setup();
    const other = (await api.orgs.createSite(org.id, { title: 'Other' })).data;
    const asGuest = sdk(server.url, guest.token);
    expect((await sdkError(asGuest.orgs.getSiteById(org.id, site.id))).status).toBe(404);
    expect((await asGuest.orgs.listSites(org.id)).data.items).toEqual([]);

    await api.orgs.inviteToSite(org.id, site.id, { role: 'read', users: [guest.id] } as never);
    const seen = (await asGuest.orgs.getSiteById(org.id, site.id)).data;
    expectSchema('Site', seen);
    expect(seen.permissions).toMatchObject({ view: true, access: true, edit: false, create: false, admin: false });
    const listed = (await asGuest.orgs.listSites(org.id)).data;
    expect(listed.items.map((s) => s.id)).toEqual([site.id]);
    expect(listed.count).toBe(1);
    expect((await sdkError(asGuest.orgs.getSiteById(org.id, other.id))).status).toBe(404);
    // The member's site count: the sites they have a role on (the owner administers both).
    expect((await api.orgs.getMemberInOrganizationById(org.id, guest.id)).data.sites).toBe(1);
    expect((await asGuest.orgs.getMemberInOrganizationById(org.id, guest.id)).data.sites).toBe(1);
    expect((await asGuest.orgs.listSiteSpaces(org.id, site.id)).status).toBe(200);
    expect((await sdkError(asGuest.orgs.updateSiteById(org.id, site.id, { title: 'Mine' }))).status).toBe(403);
    // A guest who only reads the site does not list who has access.
    expect((await sdkError(asGuest.orgs.listPermissionsAggregateInSite(org.id, site.id))).status).toBe(403);
    expect((await sdkError(asGuest.orgs.inviteToSite(org.id, site.id, { role: 'admin', users: [guest.id] } as never))).status).toBe(403);

    await api.orgs.updateUserPermissionInSite(org.id, site.id, guest.id, { role: 'admin' as never });
    expect((await asGuest.orgs.getSiteById(org.id, site.id)).data.permissions).toMatchObject({ view: true, edit: true, create: true, admin: true });
    expect((await asGuest.orgs.updateSiteById(org.id, site.id, { title: 'Renamed' })).data.title).toBe('Renamed');
    expect((await asGuest.orgs.listUserPermissionsInSite(org.id, site.id)).data.items.map((p) => p.user.id)).toEqual([guest.id]);
    // Organization-level operations stay the organization role's.
    expect((await sdkError(asGuest.orgs.createSite(org.id, { title: 'Mine' }))).status).toBe(403);

    await api.orgs.removeUserFromSite(org.id, site.id, guest.id);
    expect((await sdkError(asGuest.orgs.getSiteById(org.id, site.id))).status).toBe(404);
  });

  it('refuses a member whose role is below what the operation needs; grants and the default level raise it', async () => {
    const { org, api, site, space, reader } = await setup();
    const asReader = sdk(server.url, reader.token);
    expect((await asReader.orgs.getSiteById(org.id, site.id)).data.permissions).toMatchObject({ view: true, edit: false, create: false, admin: false });
    expect((await sdkError(asReader.orgs.addSectionToSite(org.id, site.id, { spaceId: space.id } as never))).status).toBe(403);
    expect((await sdkError(asReader.orgs.updateSiteById(org.id, site.id, { title: 'Mine' }))).status).toBe(403);

    // `create` on the site: its structure, not its settings.
    await api.orgs.updateUserPermissionInSite(org.id, site.id, reader.id, { role: 'create' as never });
    expect((await asReader.orgs.getSiteById(org.id, site.id)).data.permissions).toMatchObject({ edit: true, create: true, admin: false });
    expect((await asReader.orgs.addSectionToSite(org.id, site.id, { spaceId: space.id } as never)).status).toBe(201);
    expect((await sdkError(asReader.orgs.updateSiteById(org.id, site.id, { title: 'Mine' }))).status).toBe(403);
    expect((await sdkError(asReader.orgs.createSiteShareLink(org.id, site.id, { name: 'x' }))).status).toBe(403);
    await api.orgs.removeUserFromSite(org.id, site.id, reader.id);

    // A default level that is a role: every member with an organization role has at least it.
    await api.orgs.updateSiteById(org.id, site.id, { defaultLevel: 'admin' } as never);
    expect((await asReader.orgs.updateSiteById(org.id, site.id, { title: 'By the reader' })).data.title).toBe('By the reader');
    await api.orgs.updateSiteById(org.id, site.id, { defaultLevel: 'inherit' } as never);
    expect((await sdkError(asReader.orgs.updateSiteById(org.id, site.id, { title: 'Mine' }))).status).toBe(403);
  });

  it('makes a site private with a null default level: only organization admins and its grants reach it', async () => {
    const { org, owner, api, site, reader, editor, team } = await setup();
    await api.orgs.inviteToSite(org.id, site.id, { role: 'read', teams: [team.id] } as never);
    const updated = (await api.orgs.updateSiteById(org.id, site.id, { defaultLevel: null } as never)).data;
    expect(updated.defaultLevel).toBeNull();
    expectSchema('Site', updated);

    const asReader = sdk(server.url, reader.token);
    expect((await sdkError(asReader.orgs.getSiteById(org.id, site.id))).status).toBe(404);
    expect((await asReader.orgs.listSites(org.id)).data).toMatchObject({ items: [], count: 0 });
    expect((await sdkError(asReader.orgs.listSiteSpaces(org.id, site.id))).status).toBe(404);
    // The editor is in the granted team: read only, whatever their organization role.
    const asEditor = sdk(server.url, editor.token);
    expect((await asEditor.orgs.getSiteById(org.id, site.id)).data.permissions).toMatchObject({ view: true, edit: false });
    const aggregate = (await api.orgs.listPermissionsAggregateInSite(org.id, site.id, { order: 'asc' })).data as unknown as Aggregate;
    expect(aggregate.items.map((i) => [i.user.id, i.permission])).toEqual([
      [owner.id, 'admin'],
      [editor.id, 'read'],
    ]);
    expect(aggregate.count).toBe(2);

    await api.orgs.updateSiteById(org.id, site.id, { defaultLevel: 'inherit' } as never);
    expect((await asReader.orgs.getSiteById(org.id, site.id)).status).toBe(200);
  });

  it('answers 404 to another organization on every operation, and to its own organization path', async () => {
    const { org, site, guest, team } = await setup();
    const stranger = await createOrg(server.db);
    const as = sdk(server.url, stranger.owner.token);
    const calls: (() => Promise<unknown>)[] = [
      () => as.orgs.inviteToSite(org.id, site.id, { role: 'admin', users: [guest.id] } as never),
      () => as.orgs.listUserPermissionsInSite(org.id, site.id),
      () => as.orgs.updateUserPermissionInSite(org.id, site.id, guest.id, { role: 'admin' as never }),
      () => as.orgs.removeUserFromSite(org.id, site.id, guest.id),
      () => as.orgs.listTeamPermissionsInSite(org.id, site.id),
      () => as.orgs.updateTeamPermissionInSite(org.id, site.id, team.id, { role: 'admin' as never }),
      () => as.orgs.removeTeamFromSite(org.id, site.id, team.id),
      () => as.orgs.listPermissionsAggregateInSite(org.id, site.id),
      () => as.orgs.inviteToSite(stranger.org.id, site.id, { role: 'admin', users: [stranger.owner.id] } as never),
      () => as.orgs.listPermissionsAggregateInSite(stranger.org.id, site.id),
    ];
    for (const call of calls) expect((await sdkError(call())).status).toBe(404);
  });

  it('serves the same in GraphQL: connections on Site and the mutations', async () => {
    const { org, owner, site, guest, team } = await setup();
    const invited = await gqlOk(server.url, owner.token, `mutation($site: ID!, $users: [ID!], $teams: [ID!]) {
      inviteToSite(siteId: $site, role: edit, users: $users, teams: $teams) {
        permissions { admin }
        users { totalCount edges { node { permission user { id } } } }
        teams { totalCount edges { node { permission team { id } } } }
        aggregatedUsers(role: guest) { totalCount edges { node { permission user { id } origin { type reason } } } }
      }
    }`, { site: site.id, users: [guest.id], teams: [team.id] });
    expect(invited.inviteToSite.users.edges.map((e: any) => [e.node.user.id, e.node.permission])).toEqual([[guest.id, 'edit']]);
    expect(invited.inviteToSite.teams.edges.map((e: any) => [e.node.team.id, e.node.permission])).toEqual([[team.id, 'edit']]);
    expect(invited.inviteToSite.aggregatedUsers).toEqual({ totalCount: 1, edges: [{ node: { permission: 'edit', user: { id: guest.id }, origin: { type: 'site', reason: 'member' } } }] });
    const removed = await gqlOk(server.url, owner.token, `mutation($site: ID!, $org: ID!, $user: ID!) {
      removeSiteUserPermission(siteId: $site, organizationId: $org, userId: $user) { removed site { users { totalCount } } }
    }`, { site: site.id, org: org.id, user: guest.id });
    expect(removed.removeSiteUserPermission).toEqual({ removed: true, site: { users: { totalCount: 0 } } });
  });

  it('runs the same number of SQL statements for who has access, the grants and the member counts, for 3 and for 12 members', async () => {
    const statements = async (n: number) => {
      const { org, owner } = await createOrg(server.db);
      const api = sdk(server.url, owner.token);
      const site = (await api.orgs.createSite(org.id, { title: 'Docs' })).data;
      const team = (await api.orgs.createOrganizationTeam(org.id, { title: 'All' })).data;
      for (let i = 0; i < n; i++) {
        const member = await createActor(server.db, { org: org.id, role: i % 2 ? 'guest' : 'read' });
        await api.orgs.addMemberToOrganizationTeamById(org.id, team.id, member.id, {});
        await api.orgs.inviteToSite(org.id, site.id, { role: 'edit', users: [member.id] } as never);
      }
      await api.orgs.inviteToSite(org.id, site.id, { role: 'read', teams: [team.id] } as never);
      server.queries.length = 0;
      const data = await gqlOk(server.url, owner.token, `query($site: ID!, $org: ID!) {
        site(id: $site) {
          aggregatedUsers(first: 50) { totalCount edges { node { permission origin { type } user { id } } } }
          edit: aggregatedUsers(first: 50, role: edit) { totalCount }
          users(first: 50) { totalCount edges { node { user { id } } } }
          teams(first: 50) { totalCount edges { node { team { id } } } }
        }
        organization(id: $org) { members(first: 50) { edges { node { sites } } } }
      }`, { site: site.id, org: org.id });
      expect(data.site.aggregatedUsers.totalCount).toBe(n + 1);
      expect(data.site.edit.totalCount).toBe(n);
      return server.queries.length;
    };
    expect(await statements(12)).toBe(await statements(3));
  });

  it('tells a site\'s events to who has a role on it, granted guests included, when they are delivered', async () => {
    const { org, api, site, reader, guest } = await setup();
    const learns = (userId: string) => mayLearnOf(server.db, new Access(createLoaders(server.db, userId), userId), { kind: 'sitePermissionsGranted', organizationId: org.id, subjectId: site.id, siteId: site.id });
    expect([await learns(reader.id), await learns(guest.id)]).toEqual([true, false]);
    await api.orgs.inviteToSite(org.id, site.id, { role: 'read', users: [guest.id] } as never);
    await api.orgs.updateSiteById(org.id, site.id, { defaultLevel: null } as never);
    expect([await learns(reader.id), await learns(guest.id)]).toEqual([false, true]);
  });

  it('lets a guest granted read search the site and read its redirects, not write them; granted admin, rotate its publishing auth and preview it', async () => {
    const { org, owner, api, reader, guest } = await setup();
    const handbook = await spaceWithPages(server.url, owner.token, org.id, 'Handbook', [{ title: 'Zebras', markdown: '# Zebras\n\nStripes of the zebra herd.\n' }]);
    const site = (await api.orgs.createSite(org.id, { title: 'Handbook', spaces: [handbook.id] } as never)).data;
    const asGuest = sdk(server.url, guest.token).orgs;
    const destination = { kind: 'external' as const, url: 'https://example.com/new' };
    const redirect = (await api.orgs.createSiteRedirect(org.id, site.id, { source: '/old', destination })).data;
    const search = () => asGuest.searchSiteContent(org.id, site.id, { query: 'zebra' } as never);
    // Without a grant the site is not found, whatever the operation.
    expect((await sdkError(search())).status).toBe(404);
    expect((await sdkError(asGuest.listSiteRedirects(org.id, site.id))).status).toBe(404);
    expect((await sdkError(asGuest.regenerateSitePublishingAuthById(org.id, site.id))).status).toBe(404);

    await api.orgs.inviteToSite(org.id, site.id, { role: 'read', users: [guest.id] } as never);
    const found = await search();
    expectDocumented('POST', `${SITE}/search`, '200', found.data);
    expect(found.data.items.map((hit) => hit.id)).toEqual([handbook.id]);
    const redirects = await asGuest.listSiteRedirects(org.id, site.id);
    expectDocumented('GET', `${SITE}/redirects`, '200', redirects.data);
    expect(redirects.data.items.map((r) => r.id)).toEqual([redirect.id]);
    expect((await asGuest.getSiteRedirectBySource(org.id, site.id, { source: '/old' })).data.redirect.id).toBe(redirect.id);
    // Reading is not writing: redirects, the publishing auth, previews and the structure are refused.
    const refused: (() => Promise<unknown>)[] = [
      () => asGuest.createSiteRedirect(org.id, site.id, { source: '/mine', destination }),
      () => asGuest.updateSiteRedirectById(org.id, site.id, redirect.id, { permanent: true }),
      () => asGuest.deleteSiteRedirectById(org.id, site.id, redirect.id),
      () => asGuest.bulkUpsertSiteRedirects(org.id, site.id, { redirects: [{ source: '/old', destination: null }] } as never),
      () => asGuest.getSitePublishingAuthById(org.id, site.id),
      () => asGuest.regenerateSitePublishingAuthById(org.id, site.id),
      () => asGuest.getSitePublishingPreviewById(org.id, site.id),
      () => asGuest.addExternalLinkToSite(org.id, site.id, { title: 'Blog', url: 'https://blog.example.com' }),
    ];
    for (const request of refused) expect((await sdkError(request())).status).toBe(403);
    expect(await server.db.siteRedirect.count({ where: { siteId: site.id } })).toBe(1);

    // Admin on the site (not in the organization): rotates the key, writes redirects, previews.
    await api.orgs.updateUserPermissionInSite(org.id, site.id, guest.id, { role: 'admin' as never });
    const before = (await api.orgs.getSitePublishingAuthById(org.id, site.id)).data.privateKey;
    const rotated = await asGuest.regenerateSitePublishingAuthById(org.id, site.id);
    expectDocumented('POST', `${SITE}/publishing/auth/regenerate`, '200', rotated.data);
    expect(rotated.data.privateKey).not.toBe(before);
    expect((await api.orgs.getSitePublishingAuthById(org.id, site.id)).data.privateKey).toBe(rotated.data.privateKey);
    expect((await asGuest.createSiteRedirect(org.id, site.id, { source: '/mine', destination })).status).toBe(201);
    // The rotation is told to the site's admins (the granted guest), not to a member who reads it.
    const learns = (userId: string) => mayLearnOf(server.db, new Access(createLoaders(server.db, userId), userId), { kind: 'sitePublishingAuthUpdated', organizationId: org.id, subjectId: site.id, siteId: site.id });
    expect([await learns(guest.id), await learns(reader.id)]).toEqual([true, false]);

    // A preview link opens the (unpublished) site while its user administers the site, and not once they only read it.
    const link = new URL((await asGuest.getSitePublishingPreviewById(org.id, site.id)).data.url);
    const open = () => fetch(new URL(`${link.pathname}${link.search}`, server.url), { redirect: 'manual' });
    expect((await open()).status).toBe(200);
    await api.orgs.updateUserPermissionInSite(org.id, site.id, guest.id, { role: 'read' as never });
    expect((await open()).status).toBe(404);
  });

  it('drops a removed member\'s site grants', async () => {
    const { org, api, site, guest } = await setup();
    await api.orgs.inviteToSite(org.id, site.id, { role: 'read', users: [guest.id] } as never);
    await api.orgs.removeMemberFromOrganizationById(org.id, guest.id);
    expect(await server.db.sitePermission.count({ where: { siteId: site.id } })).toBe(0);
  });
});
