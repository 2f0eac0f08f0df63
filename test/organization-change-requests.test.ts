/**
 * `GET /orgs/{organizationId}/change-requests` (and `Organization.changeRequests`): the change
 * requests of every space the caller can view, newest first, filtered and paged in SQL — one
 * statement per page whatever the number of spaces —, spaces in the trash left out, a guest's
 * list from their grants, another organization's token 404.
 */
import { describe, expect, it } from 'vitest';
import { MemberRole } from '@gitbook/api';
import { gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const [a, b, c] = await Promise.all(['A', 'B', 'C'].map(async (title) => (await api.orgs.createSpace(org.id, { title })).data));
  const cr = async (spaceId: string, subject: string, open: boolean) => {
    const created = (await api.spaces.createChangeRequest(spaceId, { subject })).data;
    if (open) await api.spaces.updateChangeRequestById(spaceId, created.id, { status: 'open' } as never);
    return created.id;
  };
  const a1 = await cr(a.id, 'a1', true);
  const a2 = await cr(a.id, 'a2 draft', false);
  const b1 = await cr(b.id, 'b1', true);
  const c1 = await cr(c.id, 'c1', true);
  return { org, owner, api, spaces: { a, b, c }, crs: { a1, a2, b1, c1 } };
}

const path = (orgId: string, query = '') => `/orgs/${orgId}/change-requests${query}`;

describe("an organization's change requests", () => {
  it('lists the open ones of every space, newest update first, documented; statuses, space, creator and order filter', async () => {
    const { org, owner, api, spaces, crs } = await setup();
    const { data } = await api.orgs.listChangeRequestsForOrganization(org.id);
    expectDocumented('GET', '/orgs/{organizationId}/change-requests', '200', data);
    expect(data.items.map((r) => r.id)).toEqual([crs.c1, crs.b1, crs.a1]);
    expect(data.count).toBe(3);

    const both = await api.orgs.listChangeRequestsForOrganization(org.id, { status: ['open', 'draft'] as never });
    expect(both.data.items.map((r) => r.id).sort()).toEqual([crs.a1, crs.a2, crs.b1, crs.c1].sort());
    expect((await http(server.url, owner.token, 'GET', path(org.id, '?status=draft'))).body.items.map((r: { id: string }) => r.id)).toEqual([crs.a2]);
    expect((await api.orgs.listChangeRequestsForOrganization(org.id, { space: spaces.a.id })).data.items.map((r) => r.id)).toEqual([crs.a1]);
    expect((await api.orgs.listChangeRequestsForOrganization(org.id, { creator: owner.id, orderBy: 'createdAt' as never })).data.items.map((r) => r.id)).toEqual([crs.c1, crs.b1, crs.a1]);
    expect((await api.orgs.listChangeRequestsForOrganization(org.id, { creator: 'usr_nobody' })).data.items).toEqual([]);

    // An update moves a change request to the front of the default order.
    await api.spaces.updateChangeRequestById(spaces.a.id, crs.a1, { subject: 'a1 renamed' } as never);
    expect((await api.orgs.listChangeRequestsForOrganization(org.id)).data.items.map((r) => r.id)).toEqual([crs.a1, crs.c1, crs.b1]);
  });

  it('pages with cursors that belong to the list, and refuses what it cannot filter by', async () => {
    const { org, owner, api, crs } = await setup();
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await api.orgs.listChangeRequestsForOrganization(org.id, { limit: 1, page, status: ['open', 'draft'] as never });
      expect(data.count).toBe(4);
      seen.push(...data.items.map((r) => r.id));
      page = data.next?.page;
    } while (page);
    expect(seen.sort()).toEqual([crs.a1, crs.a2, crs.b1, crs.c1].sort());

    const first = (await api.orgs.listChangeRequestsForOrganization(org.id, { limit: 1 })).data.next!.page;
    // A cursor of the open list is not one of the draft list.
    expect((await http(server.url, owner.token, 'GET', path(org.id, `?status=draft&page=${first}`))).status).toBe(400);
    for (const [query, field] of [
      ['?status=nope', 'status'],
      ['?topic=t', 'topic'],
      ['?styleguideRun=x', 'styleguideRun'],
      ['?finding=some', 'finding'],
      ['?orderBy=title', 'orderBy'],
      ['?limit=5000', 'limit'],
    ]) {
      const answer = await http(server.url, owner.token, 'GET', path(org.id, query));
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.message).toContain(field);
    }
    expect((await http(server.url, owner.token, 'GET', path(org.id, '?finding=all'))).status).toBe(200);
  });

  it('leaves out spaces in the trash, gives a guest what their grants reach, follows a transferred space, and is 404 to another organization', async () => {
    const { org, owner, api, spaces, crs } = await setup();
    await api.spaces.deleteSpaceById(spaces.c.id);
    expect((await api.orgs.listChangeRequestsForOrganization(org.id)).data.items.map((r) => r.id)).toEqual([crs.b1, crs.a1]);

    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    await api.spaces.inviteToSpace(spaces.b.id, { role: MemberRole.Read, users: [guest.id] });
    const guestList = (await sdk(server.url, guest.token).orgs.listChangeRequestsForOrganization(org.id)).data;
    expect(guestList.items.map((r) => r.id)).toEqual([crs.b1]);
    expect(guestList.count).toBe(1);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    expect((await sdk(server.url, reader.token).orgs.listChangeRequestsForOrganization(org.id)).data.items.map((r) => r.id)).toEqual([crs.b1, crs.a1]);

    const other = await createOrg(server.db);
    expect((await sdkError(sdk(server.url, other.owner.token).orgs.listChangeRequestsForOrganization(org.id))).status).toBe(404);

    // The owner creates in the other organization too: the space, and its change requests, move there.
    await server.db.member.create({ data: { organizationId: other.org.id, userId: owner.id, role: 'admin' } });
    expect((await http(server.url, owner.token, 'POST', `/spaces/${spaces.a.id}/transfer`, { organization: other.org.id })).status).toBeLessThan(300);
    expect((await api.orgs.listChangeRequestsForOrganization(org.id)).data.items.map((r) => r.id)).toEqual([crs.b1]);
    expect((await api.orgs.listChangeRequestsForOrganization(other.org.id)).data.items.map((r) => r.id)).toEqual([crs.a1]);
  });

  it('reads a page in one statement, whatever the number of spaces, on the organization index', async () => {
    const { org, owner, api } = await setup();
    const countStatements = async () => {
      const before = server.queries.length;
      await http(server.url, owner.token, 'GET', path(org.id, '?limit=2'));
      return server.queries.slice(before).filter((q) => q.includes('"ChangeRequest"') && !q.includes('count(*)')).length;
    };
    const few = await countStatements();
    for (let i = 0; i < 10; i++) await api.spaces.createChangeRequest((await api.orgs.createSpace(org.id, { title: `S${i}` })).data.id, { subject: 'x' });
    expect(await countStatements()).toBe(few);
    expect(few).toBe(1);
    // A page reads the organization's index in order (no sort of the organization's change requests).
    const plan = await server.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
      return tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
        `EXPLAIN SELECT r.* FROM "ChangeRequest" r WHERE r."organizationId" = $1 AND r."status" = 'open' ORDER BY r."updatedAt" DESC, r."id" DESC LIMIT 3`,
        org.id,
      );
    });
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toContain('ChangeRequest_organizationId_status_updatedAt_id_idx');
    expect(text).not.toMatch(/\bSort\b/);
  });

  it('is Organization.changeRequests in GraphQL', async () => {
    const { org, owner, crs } = await setup();
    const data = await gqlOk(server.url, owner.token, 'query($id: ID!) { organization(id: $id) { changeRequests(status: [open, draft], orderBy: createdAt, first: 10) { totalCount edges { node { id } } } } }', { id: org.id });
    expect(data.organization.changeRequests.totalCount).toBe(4);
    expect(data.organization.changeRequests.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([crs.c1, crs.b1, crs.a2, crs.a1]);
  });
});
