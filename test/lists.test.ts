/**
 * List paging as users meet it: small pages followed to the end over REST (plain HTTP and the
 * SDK) and GraphQL, every list in its documented order; stability while the list changes; bad
 * cursors and page sizes; backward paging; and what a guest sees page by page.
 */
import { MemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { gql, gqlOk, http, sdk } from './helpers/clients.js';
import { createActor, createOrg, type Actor } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

/** Distinct timestamps in the past (before anything the server creates with now()). */
const at = (i: number) => new Date(Date.UTC(2020, 0, 1, 0, 0, i));

/** Page size of every walk: small, so each list spans several pages. */
const LIMIT = 2;
/** A walk that has not ended after this many pages is following a cursor in circles. */
const MAX_PAGES = 50;

const PAGE_INFO = 'totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

type RestList = { items: any[]; count?: number; next?: { page: string } };
type Connection = {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  edges: { cursor?: string; node: any }[];
};

/** What a walk saw: the IDs in the order met, and per page its size and the reported total. */
type Walk = { ids: string[]; pageSizes: number[]; counts: (number | undefined)[] };

/** Follows `next.page` from the first page to the last; `between(n)` runs after page n when another follows. */
async function walkPages(fetchPage: (page?: string) => Promise<RestList>, idOf: (item: any) => string, between?: (n: number) => Promise<void>): Promise<Walk> {
  const walk: Walk = { ids: [], pageSizes: [], counts: [] };
  let page: string | undefined;
  for (let n = 0; ; n++) {
    if (n === MAX_PAGES) throw new Error(`no last page after ${MAX_PAGES} pages`);
    const list = await fetchPage(page);
    walk.ids.push(...list.items.map(idOf));
    walk.pageSizes.push(list.items.length);
    walk.counts.push(list.count);
    if (!list.next) return walk;
    expect(list.next.page).toEqual(expect.any(String));
    page = list.next.page;
    await between?.(n);
  }
}

/** Walks `GET /v1{path}?{query}` with `limit=2`, following `next.page` (plain HTTP). */
function walkRest(token: string, path: string, query: Record<string, string> = {}, idOf: (item: any) => string = (i) => i.id, between?: (n: number) => Promise<void>) {
  return walkPages(
    async (page) => {
      const params = new URLSearchParams({ ...query, limit: String(LIMIT), ...(page ? { page } : {}) });
      const response = await http(server.url, token, 'GET', `${path}?${params}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body as RestList;
    },
    idOf,
    between,
  );
}

/**
 * Walks a GraphQL connection with `first: 2`, following `pageInfo.endCursor`. `query` declares
 * `$first: Int, $after: String` and selects PAGE_INFO and `edges { node { … } }` of the connection
 * that `connectionOf` picks out of the data.
 */
async function walkGql(token: string, query: string, variables: Record<string, unknown>, connectionOf: (data: any) => Connection, idOf: (node: any) => string = (n) => n.id): Promise<Walk> {
  const walk: Walk = { ids: [], pageSizes: [], counts: [] };
  let after: string | null = null;
  for (let n = 0; ; n++) {
    if (n === MAX_PAGES) throw new Error(`no last page after ${MAX_PAGES} pages`);
    const connection = connectionOf(await gqlOk(server.url, token, query, { ...variables, first: LIMIT, after }));
    walk.ids.push(...connection.edges.map((e) => idOf(e.node)));
    walk.pageSizes.push(connection.edges.length);
    walk.counts.push(connection.totalCount);
    expect(connection.pageInfo.hasPreviousPage, `hasPreviousPage of page ${n}`).toBe(n > 0);
    if (!connection.pageInfo.hasNextPage) return walk;
    expect(connection.pageInfo.endCursor).toEqual(expect.any(String));
    after = connection.pageInfo.endCursor;
  }
}

/** Sizes of the pages of a list of `total` items: full pages, then the rest (one empty page for an empty list). */
const pageSizesFor = (total: number) => Array.from({ length: Math.max(1, Math.ceil(total / LIMIT)) }, (_, i) => Math.min(LIMIT, total - i * LIMIT));

/**
 * The walk met every expected item exactly once, in order, on full pages with no empty page at
 * the end, and every page reported the whole list's size as its count. `names` labels IDs in
 * failure messages.
 */
function expectEveryItemOnce(walk: Walk, expected: string[], names?: Map<string, string>) {
  const label = (ids: string[]) => ids.map((id) => names?.get(id) ?? id).join(', ');
  expect(walk.ids, `met [${label(walk.ids)}], expected [${label(expected)}]`).toEqual(expected);
  expect(walk.pageSizes, 'page sizes').toEqual(pageSizesFor(expected.length));
  expect(walk.counts, 'count of every page').toEqual(walk.pageSizes.map(() => expected.length));
}

const memberKey = (organizationId: string, userId: string) => ({ organizationId_userId: { organizationId, userId } });
const setJoinedAt = (organizationId: string, userId: string, joinedAt: Date) => server.db.member.update({ where: memberKey(organizationId, userId), data: { joinedAt } });
const setSpaceCreatedAt = (id: string, createdAt: Date) => server.db.space.update({ where: { id }, data: { createdAt } });

/** `n` spaces S0…S(n-1) of `organizationId`, created in a shuffled order and dated so that S0 is the oldest. */
async function datedSpaces(token: string, organizationId: string, n: number, parent?: (i: number) => string | undefined) {
  const api = sdk(server.url, token);
  const indices = Array.from({ length: n }, (_, i) => i);
  const creationOrder = [...indices.filter((i) => i % 2).reverse(), ...indices.filter((i) => !(i % 2))]; // e.g. 5 3 1 0 2 4 6
  const spaces: { id: string; title: string }[] = new Array(n);
  for (const i of creationOrder) {
    const p = parent?.(i);
    const { data } = await api.orgs.createSpace(organizationId, { title: `S${i}`, ...(p ? { parent: p } : {}) });
    await setSpaceCreatedAt(data.id, at(i * 2));
    spaces[i] = { id: data.id, title: data.title };
  }
  return spaces;
}

const namesOf = (...lists: { id: string; title?: string; name?: string }[][]) => new Map(lists.flat().map((x) => [x.id, x.title ?? x.name ?? x.id]));

describe('walking every list to the end, two at a time', () => {
  it('organization spaces: oldest first, trashed ones left out (HTTP, SDK and GraphQL)', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const col = (await api.orgs.createCollection(org.id, { title: 'Docs' })).data;
    const spaces = await datedSpaces(owner.token, org.id, 7, (i) => (i % 3 === 1 ? col.id : undefined));
    const trashed = (await api.orgs.createSpace(org.id, { title: 'Trashed' })).data;
    await setSpaceCreatedAt(trashed.id, at(5)); // between S2 and S3
    await api.spaces.deleteSpaceById(trashed.id);
    const expected = spaces.map((s) => s.id);
    const names = namesOf(spaces);

    expectEveryItemOnce(await walkRest(owner.token, `/orgs/${org.id}/spaces`), expected, names);
    expectEveryItemOnce(
      await walkPages(async (page) => (await api.orgs.listSpacesInOrganizationById(org.id, { limit: LIMIT, page })).data, (s) => s.id),
      expected,
      names,
    );
    const query = `query($id: ID!, $first: Int, $after: String) { organization(id: $id) { spaces(first: $first, after: $after) { ${PAGE_INFO} edges { node { id } } } } }`;
    expectEveryItemOnce(await walkGql(owner.token, query, { id: org.id }, (d) => d.organization.spaces), expected, names);
  });

  it('spaces of a collection: in tree order (by position, after moves), not its sub-collections or trashed spaces', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const col = (await api.orgs.createCollection(org.id, { title: 'Docs' })).data;
    const create = async (title: string, parent = col.id) => (await api.orgs.createSpace(org.id, { title, parent })).data;
    const [a, b, c] = [await create('A'), await create('B'), await create('C')];
    const sub = (await api.orgs.createCollection(org.id, { title: 'Sub', parent: col.id })).data; // shares the positions
    await create('In sub', sub.id);
    const [d, e] = [await create('D'), await create('E')];
    await api.spaces.deleteSpaceById((await create('Trashed')).id);
    await api.spaces.moveSpace(e.id, { position: { before: { type: 'space', space: a.id } } });
    await api.spaces.moveSpace(b.id, { position: { after: { type: 'space', space: d.id } } });
    const expected = [e, a, c, d, b].map((s) => s.id);
    const names = namesOf([a, b, c, d, e]);

    expectEveryItemOnce(await walkRest(owner.token, `/collections/${col.id}/spaces`), expected, names);
    expectEveryItemOnce(
      await walkPages(async (page) => (await api.collections.listSpacesInCollectionById(col.id, { limit: LIMIT, page })).data, (s) => s.id),
      expected,
      names,
    );
    const query = `query($id: ID!, $first: Int, $after: String) { collection(id: $id) { spaces(first: $first, after: $after) { ${PAGE_INFO} edges { node { id } } } } }`;
    expectEveryItemOnce(await walkGql(owner.token, query, { id: col.id }, (d) => d.collection.spaces), expected, names);
  });

  it('organization collections: depth-first tree order by default, root collections only with nested=false', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const create = async (title: string, parent?: string) => (await api.orgs.createCollection(org.id, { title, ...(parent ? { parent } : {}) })).data;
    const A = await create('A');
    const B = await create('B');
    await api.orgs.createSpace(org.id, { title: 'Root space' }); // shares the root positions
    const C = await create('C');
    const A1 = await create('A1', A.id);
    const B1 = await create('B1', B.id);
    const A2 = await create('A2', A.id);
    const A1a = await create('A1a', A1.id);
    const A1b = await create('A1b', A1.id);
    // Siblings follow their positions, not their creation: C moves first, A1b before A1a.
    await api.collections.moveCollection(C.id, { position: { before: { type: 'collection', collection: A.id } as never } });
    await api.collections.moveCollection(A1b.id, { position: { before: { type: 'collection', collection: A1a.id } as never } });
    const names = namesOf([A, B, C, A1, A2, B1, A1a, A1b]);
    const tree = [C, A, A1, A1b, A1a, A2, B, B1].map((c) => c.id);
    const roots = [C, A, B].map((c) => c.id);

    expectEveryItemOnce(await walkRest(owner.token, `/orgs/${org.id}/collections`), tree, names);
    expectEveryItemOnce(await walkRest(owner.token, `/orgs/${org.id}/collections`, { nested: 'true' }), tree, names);
    expectEveryItemOnce(await walkRest(owner.token, `/orgs/${org.id}/collections`, { nested: 'false' }), roots, names);
    const query = `query($id: ID!, $nested: Boolean, $first: Int, $after: String) {
      organization(id: $id) { collections(nested: $nested, first: $first, after: $after) { ${PAGE_INFO} edges { node { id } } } } }`;
    expectEveryItemOnce(await walkGql(owner.token, query, { id: org.id }, (d) => d.organization.collections), tree, names);
    expectEveryItemOnce(await walkGql(owner.token, query, { id: org.id, nested: false }, (d) => d.organization.collections), roots, names);
  });

  it('organization members: every sort, order and filter', async () => {
    const { org, owner } = await createOrg(server.db); // display name "Owner"
    const people: (Actor & { name: string })[] = [];
    const join = async (name: string, role: string, joined: number, seen?: number) => {
      const actor = await createActor(server.db, { org: org.id, role, name });
      await server.db.member.update({ where: memberKey(org.id, actor.id), data: { joinedAt: at(joined), lastSeenAt: seen === undefined ? null : at(seen) } });
      people.push({ ...actor, name });
      return actor;
    };
    await setJoinedAt(org.id, owner.id, at(0));
    const ada = await join('Ada Archer', 'read', 1, 63);
    const bob = await join('Bob Banks', 'edit', 2);
    const cleo = await join('Cleo Cole', 'guest', 3, 61);
    const dan = await join('Dan Drake', 'edit', 4, 64);
    const eve = await join('Eve Evans', 'read', 5);
    const finn = await join('Finn Ford', 'admin', 6, 62);
    const gail = await join('Gail Green', 'edit', 7);
    const names = new Map([[owner.id, 'Owner'], ...people.map((p) => [p.id, p.name] as [string, string])]);
    const ids = (...actors: Actor[]) => actors.map((a) => a.id);
    const byJoiningDesc = ids(gail, finn, eve, dan, cleo, bob, ada, owner);

    const cases: { query: Record<string, string>; expected: string[] }[] = [
      { query: {}, expected: byJoiningDesc },
      { query: { order: 'desc' }, expected: byJoiningDesc },
      { query: { order: 'asc' }, expected: [...byJoiningDesc].reverse() },
      { query: { sort: 'joinedAt', order: 'asc' }, expected: [...byJoiningDesc].reverse() },
      { query: { sort: 'lastSeenAt' }, expected: ids(dan, ada, finn, cleo) },
      { query: { sort: 'lastSeenAt', order: 'asc' }, expected: ids(cleo, finn, ada, dan) },
      { query: { sort: 'name', order: 'asc' }, expected: ids(ada, bob, cleo, dan, eve, finn, gail, owner) },
      { query: { sort: 'name', order: 'desc' }, expected: ids(owner, gail, finn, eve, dan, cleo, bob, ada) },
      { query: { role: 'edit' }, expected: ids(gail, dan, bob) },
      { query: { role: 'edit', sort: 'name', order: 'asc' }, expected: ids(bob, dan, gail) },
      { query: { role: 'read', order: 'asc' }, expected: ids(ada, eve) },
      { query: { role: 'guest' }, expected: ids(cleo) },
      { query: { search: 'AN' }, expected: ids(eve, dan, bob) },
      { query: { search: 'an', sort: 'lastSeenAt' }, expected: ids(dan) },
    ];
    const query = `query($id: ID!, $first: Int, $after: String, $order: SortOrder, $role: MemberRoleFilter, $search: String, $sort: MemberSort) {
      organization(id: $id) { members(first: $first, after: $after, order: $order, role: $role, search: $search, sort: $sort) { ${PAGE_INFO} edges { node { id } } } } }`;
    for (const { query: params, expected } of cases) {
      const what = new URLSearchParams(params).toString() || '(defaults)';
      const rest = await walkRest(owner.token, `/orgs/${org.id}/members`, params);
      expectEveryItemOnce(rest, expected, new Map([...names].map(([id, n]) => [id, `${n} [REST ${what}]`])));
      const graph = await walkGql(owner.token, query, { id: org.id, ...params }, (d) => d.organization.members);
      expectEveryItemOnce(graph, expected, new Map([...names].map(([id, n]) => [id, `${n} [GraphQL ${what}]`])));
    }
  });

  it('organization members: ties on the sort key (same name, same dates) still page every member exactly once', async () => {
    const { org, owner } = await createOrg(server.db);
    const twins: string[] = [];
    for (let i = 0; i < 7; i++) {
      const actor = await createActor(server.db, { org: org.id, role: 'read', name: 'Sam Same' });
      await server.db.member.update({ where: memberKey(org.id, actor.id), data: { joinedAt: at(1), lastSeenAt: at(2) } });
      twins.push(actor.id);
    }
    await setJoinedAt(org.id, owner.id, at(0));
    const everyone = [...twins, owner.id];
    for (const sort of ['joinedAt', 'lastSeenAt', 'name']) {
      const expected = sort === 'lastSeenAt' ? twins : everyone;
      const asc = await walkRest(owner.token, `/orgs/${org.id}/members`, { sort, order: 'asc' });
      const desc = await walkRest(owner.token, `/orgs/${org.id}/members`, { sort, order: 'desc' });
      for (const walk of [asc, desc]) {
        expect(new Set(walk.ids).size, `${sort}: no member twice`).toBe(walk.ids.length);
        expect([...walk.ids].sort(), `${sort}: every member`).toEqual([...expected].sort());
        expect(walk.pageSizes).toEqual(pageSizesFor(expected.length));
        expect(walk.counts).toEqual(walk.pageSizes.map(() => expected.length));
      }
      // One total order, read both ways.
      expect(desc.ids, sort).toEqual([...asc.ids].reverse());
    }
  });

  it("a member's spaces: newest first, oldest first with order=asc; a guest's only what their grants reach", async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    const col = (await api.orgs.createCollection(org.id, { title: 'Granted' })).data;
    const spaces = await datedSpaces(owner.token, org.id, 7, (i) => (i === 5 ? col.id : undefined));
    await api.spaces.inviteToSpace(spaces[1].id, { role: MemberRole.Comment, users: [guest.id] });
    await api.spaces.inviteToSpace(spaces[3].id, { role: MemberRole.Edit, users: [guest.id] });
    await api.collections.inviteToCollection(col.id, { role: MemberRole.Read, users: [guest.id] });
    const names = namesOf(spaces);
    const all = spaces.map((s) => s.id);
    const guestSees = [spaces[5], spaces[3], spaces[1]].map((s) => s.id);
    const idOf = (item: any) => item.space.id;

    expectEveryItemOnce(await walkRest(owner.token, `/orgs/${org.id}/members/${reader.id}/spaces`, {}, idOf), [...all].reverse(), names);
    expectEveryItemOnce(await walkRest(owner.token, `/orgs/${org.id}/members/${reader.id}/spaces`, { order: 'asc' }, idOf), all, names);
    expectEveryItemOnce(await walkRest(owner.token, `/orgs/${org.id}/members/${guest.id}/spaces`, {}, idOf), guestSees, names);
    expectEveryItemOnce(await walkRest(guest.token, `/orgs/${org.id}/members/${guest.id}/spaces`, { order: 'asc' }, idOf), [...guestSees].reverse(), names);
    const query = `query($id: ID!, $userId: ID!, $order: SortOrder, $first: Int, $after: String) {
      organization(id: $id) { member(userId: $userId) { spaceAccess(order: $order, first: $first, after: $after) { ${PAGE_INFO} edges { node { space { id } } } } } } }`;
    const connection = (d: any) => d.organization.member.spaceAccess;
    expectEveryItemOnce(await walkGql(owner.token, query, { id: org.id, userId: reader.id }, connection, idOf), [...all].reverse(), names);
    expectEveryItemOnce(await walkGql(owner.token, query, { id: org.id, userId: guest.id, order: 'asc' }, connection, idOf), [...guestSees].reverse(), names);
  });

  it("teams: the organization's, a member's and a team's members, each oldest first", async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    // Teams T0…T5 created in a shuffled order, dated so that T0 is the oldest; the reader is in all but T1.
    const teams: { id: string; title: string }[] = [];
    for (const i of [3, 0, 5, 1, 4, 2]) {
      const { data } = await api.orgs.createOrganizationTeam(org.id, { title: `T${i}`, ...(i === 1 ? {} : { members: [reader.id] }) });
      await server.db.team.update({ where: { id: data.id }, data: { createdAt: at(i) } });
      teams[i] = { id: data.id, title: data.title };
    }
    const names = namesOf(teams);
    const allTeams = teams.map((t) => t.id);
    const readerTeams = allTeams.filter((id) => id !== teams[1].id);

    expectEveryItemOnce(await walkRest(owner.token, `/orgs/${org.id}/teams`), allTeams, names);
    expectEveryItemOnce(await walkRest(owner.token, `/orgs/${org.id}/members/${reader.id}/teams`, {}, (i) => i.team.id), readerTeams, names);
    const teamsQuery = `query($id: ID!, $first: Int, $after: String) { organization(id: $id) { teams(first: $first, after: $after) { ${PAGE_INFO} edges { node { id } } } } }`;
    expectEveryItemOnce(await walkGql(owner.token, teamsQuery, { id: org.id }, (d) => d.organization.teams), allTeams, names);
    const memberTeamsQuery = `query($id: ID!, $userId: ID!, $first: Int, $after: String) {
      organization(id: $id) { member(userId: $userId) { teamMemberships(first: $first, after: $after) { ${PAGE_INFO} edges { node { team { id } } } } } } }`;
    expectEveryItemOnce(
      await walkGql(owner.token, memberTeamsQuery, { id: org.id, userId: reader.id }, (d) => d.organization.member.teamMemberships, (n) => n.team.id),
      readerTeams,
      names,
    );

    // Members of T1, added in a shuffled order and dated so that M0 joined the team first.
    const members: { id: string; name: string }[] = [];
    for (const i of [2, 4, 0, 3, 1]) {
      const actor = await createActor(server.db, { org: org.id, role: i === 3 ? 'guest' : 'edit', name: `M${i}` });
      await api.orgs.addMemberToOrganizationTeamById(org.id, teams[1].id, actor.id, {});
      await server.db.teamMember.update({ where: { teamId_userId: { teamId: teams[1].id, userId: actor.id } }, data: { createdAt: at(10 + i) } });
      members[i] = { id: actor.id, name: `M${i}` };
    }
    const memberNames = namesOf(members);
    const inTeam = members.map((m) => m.id);
    expectEveryItemOnce(await walkRest(owner.token, `/orgs/${org.id}/teams/${teams[1].id}/members`, {}, (i) => i.organization.id), inTeam, memberNames);
    const teamMembersQuery = `query($id: ID!, $teamId: ID!, $first: Int, $after: String) {
      organization(id: $id) { team(id: $teamId) { members(first: $first, after: $after) { ${PAGE_INFO} edges { node { id } } } } } }`;
    expectEveryItemOnce(await walkGql(owner.token, teamMembersQuery, { id: org.id, teamId: teams[1].id }, (d) => d.organization.team.members), inTeam, memberNames);
  });

  it('permissions of a space: direct user grants oldest first, everyone with access in order of joining', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const col = (await api.orgs.createCollection(org.id, { title: 'Shared' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Handbook', parent: col.id })).data;
    const person = async (name: string, role: string, joined: number) => {
      const actor = await createActor(server.db, { org: org.id, role, name });
      await setJoinedAt(org.id, actor.id, at(joined));
      return { ...actor, name };
    };
    await setJoinedAt(org.id, owner.id, at(0));
    const reader = await person('Reader', 'read', 1);
    const grantedGuest = await person('Granted guest', 'guest', 2);
    await person('Ungranted guest', 'guest', 3);
    const editor = await person('Editor', 'edit', 4);
    const collectionGuest = await person('Collection guest', 'guest', 5);
    const writer = await person('Writer', 'read', 6);
    const teamGuest = await person('Team guest', 'guest', 7);
    const names = new Map([[owner.id, 'Owner'], ...[reader, grantedGuest, editor, collectionGuest, writer, teamGuest].map((p) => [p.id, p.name] as [string, string])]);

    // Direct grants, one call each, dated so that the order of the grants is not the order of the calls.
    const direct = [
      { who: grantedGuest, role: MemberRole.Comment, date: 12 },
      { who: editor, role: MemberRole.Admin, date: 10 },
      { who: reader, role: MemberRole.Edit, date: 13 },
      { who: writer, role: MemberRole.Review, date: 11 },
    ];
    for (const { who, role, date } of direct) {
      await api.spaces.inviteToSpace(space.id, { role, users: [who.id] });
      await server.db.contentPermission.update({ where: { spaceId_userId: { spaceId: space.id, userId: who.id } }, data: { createdAt: at(date) } });
    }
    // Access through the parent collection, directly or through a team, is not a direct grant but is access.
    await api.collections.inviteToCollection(col.id, { role: MemberRole.Read, users: [collectionGuest.id] });
    const team = (await api.orgs.createOrganizationTeam(org.id, { title: 'Guests', members: [teamGuest.id] })).data;
    await api.collections.inviteToCollection(col.id, { role: MemberRole.Comment, teams: [team.id] });
    const byGrant = [editor, writer, grantedGuest, reader].map((p) => p.id);
    const byJoining = [owner, reader, grantedGuest, editor, collectionGuest, writer, teamGuest].map((p) => p.id);
    const idOf = (item: any) => item.user.id;

    expectEveryItemOnce(await walkRest(owner.token, `/spaces/${space.id}/permissions/users`, {}, idOf), byGrant, names);
    expectEveryItemOnce(await walkRest(owner.token, `/spaces/${space.id}/permissions/aggregate`, {}, idOf), byJoining, names);
    expectEveryItemOnce(await walkRest(owner.token, `/spaces/${space.id}/permissions/aggregate`, { role: 'read' }, idOf), [collectionGuest.id], names);
    expectEveryItemOnce(await walkRest(owner.token, `/spaces/${space.id}/permissions/aggregate`, { role: 'comment' }, idOf), [grantedGuest.id, teamGuest.id], names);
    expectEveryItemOnce(
      await walkPages(async (page) => (await api.spaces.listPermissionsAggregateInSpace(space.id, { limit: LIMIT, page })).data, idOf),
      byJoining,
      names,
    );
    const query = (field: string) => `query($id: ID!, $first: Int, $after: String) {
      space(id: $id) { ${field}(first: $first, after: $after) { ${PAGE_INFO} edges { node { user { id } } } } } }`;
    expectEveryItemOnce(await walkGql(owner.token, query('users'), { id: space.id }, (d) => d.space.users, idOf), byGrant, names);
    expectEveryItemOnce(await walkGql(owner.token, query('aggregatedUsers'), { id: space.id }, (d) => d.space.aggregatedUsers, idOf), byJoining, names);
  });

  it("the caller's organizations: in order of joining, not the ones where they are disabled", async () => {
    const user = await createActor(server.db);
    const orgs: { id: string; title: string }[] = [];
    for (const i of [4, 1, 3, 0, 2]) {
      const { org } = await createOrg(server.db, `O${i}`);
      await server.db.member.create({ data: { organizationId: org.id, userId: user.id, role: i % 2 ? 'read' : null, joinedAt: at(i) } });
      orgs[i] = { id: org.id, title: org.title };
    }
    const disabled = (await createOrg(server.db, 'Disabled')).org;
    await server.db.member.create({ data: { organizationId: disabled.id, userId: user.id, role: 'admin', disabled: true, joinedAt: at(2) } });
    const expected = orgs.map((o) => o.id);

    expectEveryItemOnce(await walkRest(user.token, '/orgs'), expected, namesOf(orgs));
    const api = sdk(server.url, user.token);
    expectEveryItemOnce(
      await walkPages(async (page) => (await api.orgs.listOrganizationsForAuthenticatedUser({ limit: LIMIT, page })).data, (o) => o.id),
      expected,
      namesOf(orgs),
    );
    const query = `query($first: Int, $after: String) { organizations(first: $first, after: $after) { ${PAGE_INFO} edges { node { id } } } }`;
    expectEveryItemOnce(await walkGql(user.token, query, {}, (d) => d.organizations), expected, namesOf(orgs));
  });
});

describe('paging while the list changes', () => {
  it('never repeats a space, nor skips one that was there from the start and is not deleted', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const spaces = await datedSpaces(owner.token, org.id, 8);
    const created: string[] = [];
    const create = async (title: string) => created.push((await api.orgs.createSpace(org.id, { title })).data.id);
    const trash = (i: number) => api.spaces.deleteSpaceById(spaces[i].id);

    const walk = await walkRest(owner.token, `/orgs/${org.id}/spaces`, {}, (s) => s.id, async (n) => {
      if (n === 0) {
        // Seen so far: S0, S1.
        await create('N1');
        await trash(1); // already seen
        await trash(4); // not yet seen
      }
      if (n === 1) {
        // Seen so far: S0…S3.
        await create('N2');
        await trash(2); // already seen
        await trash(6); // not yet seen
        await create('N3');
      }
    });

    expect(new Set(walk.ids).size, 'no space twice').toBe(walk.ids.length);
    const initial = [0, 1, 2, 3, 5, 7].map((i) => spaces[i].id);
    expect(walk.ids.slice(0, initial.length), 'every space that was there from the start, in order').toEqual(initial);
    // New spaces are the newest: any of them met comes after the original ones.
    for (const id of walk.ids.slice(initial.length)) expect(created).toContain(id);
    // With keyset paging they are all met, at the end (creation order).
    expect([...walk.ids.slice(initial.length)].sort()).toEqual([...created].sort());
    expect(walk.pageSizes).toEqual([2, 2, 2, 2, 1]);
    // Each page counts the live spaces of its moment: 8, then 8 + 1 - 2, then 7 + 2 - 2.
    expect(walk.counts).toEqual([8, 7, 7, 7, 7]);
  });
});

describe('paging in tree order while the tree changes', () => {
  /** A collection of spaces R0…R(n-1), in that order. */
  async function shelf(token: string, orgId: string, n: number) {
    const api = sdk(server.url, token);
    const collection = (await api.orgs.createCollection(orgId, { title: 'Shelf' })).data.id;
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await api.orgs.createSpace(orgId, { title: `R${i}`, parent: collection })).data.id);
    return { api, collection, ids };
  }

  it('neither skips nor repeats a space when earlier ones are deleted or moved away, or one moves to the front', async () => {
    const { org, owner } = await createOrg(server.db);
    const { api, collection, ids } = await shelf(owner.token, org.id, 8);
    const walk = await walkRest(owner.token, `/collections/${collection}/spaces`, {}, (s) => s.id, async (n) => {
      if (n === 0) {
        // Seen: R0, R1. Both leave (trash, another parent), and R7 moves to the front.
        await api.spaces.deleteSpaceById(ids[0]);
        await api.spaces.moveSpace(ids[1], { parent: null });
        await api.spaces.moveSpace(ids[7], { position: { before: ids[2] } } as never);
      }
      if (n === 1) await api.spaces.deleteSpaceById(ids[2]); // seen: R2, R3
    });
    expect(walk.ids).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => ids[i]));
  });

  it('keeps the order right when many spaces are placed at the same spot (the gap used up, siblings spaced out again)', async () => {
    const { org, owner } = await createOrg(server.db);
    const { api, collection, ids } = await shelf(owner.token, org.id, 14);
    // R2…R13, each in turn placed right after R0: the gap after R0 halves each time until none is left.
    for (const id of ids.slice(2)) await api.spaces.moveSpace(id, { position: { after: ids[0] } } as never);
    const expected = [ids[0], ...ids.slice(2).reverse(), ids[1]];
    expect((await walkRest(owner.token, `/collections/${collection}/spaces`)).ids).toEqual(expected);
    const positions = (await server.db.space.findMany({ where: { parentId: collection }, select: { position: true } })).map((s) => s.position);
    expect(new Set(positions).size).toBe(14);
    expect(Math.min(...positions)).toBeGreaterThanOrEqual(0);
    // Each of R1…R12 placed right before R13 in turn: the tree order is the creation order again.
    for (const id of ids.slice(1, 13)) await api.spaces.moveSpace(id, { position: { before: ids[13] } } as never);
    expect((await walkRest(owner.token, `/collections/${collection}/spaces`)).ids).toEqual(ids);
    // Before the first one, whose position is the lowest there is: the siblings are spaced out.
    await api.spaces.moveSpace(ids[13], { position: { before: ids[0] } } as never);
    expect((await walkRest(owner.token, `/collections/${collection}/spaces`)).ids).toEqual([ids[13], ...ids.slice(0, 13)]);
  });

  it('neither skips nor repeats a collection when earlier ones are deleted', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await api.orgs.createCollection(org.id, { title: `C${i}` })).data.id);
    for (const nested of ['true', 'false']) {
      const walk = await walkRest(owner.token, `/orgs/${org.id}/collections`, { nested }, (c) => c.id, async (n) => {
        if (n === 0 && nested === 'true') await Promise.all([api.collections.deleteCollectionById(ids[0]), api.collections.deleteCollectionById(ids[1])]);
      });
      expect(walk.ids).toEqual(nested === 'true' ? ids : ids.slice(2));
    }
  });
});

describe('bad cursors and page sizes', () => {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  /** Two organizations that the same admin belongs to, each with spaces; the first also has members. */
  async function twoOrgs() {
    const a = await createOrg(server.db, 'Org A');
    const b = await createOrg(server.db, 'Org B');
    await server.db.member.create({ data: { organizationId: b.org.id, userId: a.owner.id, role: 'admin' } });
    for (const org of [a.org, b.org]) await datedSpaces(a.owner.token, org.id, 3);
    const zed = await createActor(server.db, { org: a.org.id, role: 'read', name: 'Zed' });
    const amy = await createActor(server.db, { org: a.org.id, role: 'read', name: 'Amy' });
    return { a: a.org, b: b.org, token: a.owner.token, zed, amy };
  }

  const nextPage = async (token: string, path: string) => {
    const response = await http(server.url, token, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=1`);
    expect(response.status).toBe(200);
    return response.body.next.page as string;
  };

  const expect400NamingPage = async (token: string, path: string, page: string, what: string) => {
    const response = await http(server.url, token, 'GET', `${path}${path.includes('?') ? '&' : '?'}page=${encodeURIComponent(page)}`);
    expect(response.status, `${what}: ${JSON.stringify(response.body)}`).toBe(400);
    expect(response.body.error.code, what).toBe(400);
    expect(response.body.error.message, what).toContain('"page"');
  };

  it('answers 400 naming "page" in REST for garbage, forged cursors and cursors of another list', async () => {
    const { a, b, token, zed, amy } = await twoOrgs();
    const api = sdk(server.url, token);
    const [x, y] = [(await api.orgs.createCollection(a.id, { title: 'Xx' })).data, (await api.orgs.createCollection(a.id, { title: 'Yy' })).data];
    for (const col of [x, y]) for (const title of ['One', 'Two']) await api.orgs.createSpace(a.id, { title, parent: col.id });
    const spacesOfA = `/orgs/${a.id}/spaces`;
    const spacesCursor = await nextPage(token, spacesOfA);
    const membersCursor = await nextPage(token, `/orgs/${a.id}/members`);
    const joinedAtCursor = await nextPage(token, `/orgs/${a.id}/members?sort=joinedAt`);

    await expect400NamingPage(token, spacesOfA, 'garbage', 'garbage');
    await expect400NamingPage(token, spacesOfA, '!!!', 'not base64url');
    await expect400NamingPage(token, spacesOfA, b64({ hello: 'world', n: Math.random() }), 'base64url of random JSON');
    await expect400NamingPage(token, spacesOfA, b64([`spaces:${a.id}`, 'yesterday', 'spc_x']), 'right tag, a date that is not one');
    await expect400NamingPage(token, spacesOfA, b64([`spaces:${a.id}`, '2020-01-01T00:00:00.000Z']), 'right tag, missing value');
    await expect400NamingPage(token, spacesOfA, membersCursor, 'a members cursor on the spaces list');
    await expect400NamingPage(token, `/orgs/${b.id}/spaces`, spacesCursor, "organization A's spaces cursor on organization B");
    await expect400NamingPage(token, `/orgs/${a.id}/members?sort=name`, joinedAtCursor, 'a sort=joinedAt cursor with sort=name');
    await expect400NamingPage(token, `/orgs/${a.id}/members?order=asc`, membersCursor, 'an order=desc cursor with order=asc');
    await expect400NamingPage(token, `/orgs/${a.id}/members?role=read`, membersCursor, 'an unfiltered cursor with role=read');
    await expect400NamingPage(token, `/orgs/${a.id}/collections`, spacesCursor, 'a spaces cursor on the collections list');
    const treeCursor = await nextPage(token, `/orgs/${a.id}/collections`);
    await expect400NamingPage(token, `/orgs/${a.id}/collections?nested=false`, treeCursor, 'a nested cursor with nested=false');
    await expect400NamingPage(token, `/collections/${y.id}/spaces`, await nextPage(token, `/collections/${x.id}/spaces`), "collection X's cursor on collection Y");
    const zedSpaces = await nextPage(token, `/orgs/${a.id}/members/${zed.id}/spaces`);
    await expect400NamingPage(token, `/orgs/${a.id}/members/${amy.id}/spaces`, zedSpaces, "a member's spaces cursor on another member's");
    // The cursor is still good on its own list.
    expect((await http(server.url, token, 'GET', `${spacesOfA}?page=${encodeURIComponent(spacesCursor)}`)).status).toBe(200);
  });

  // Cursors are opaque, but anyone can decode one and edit its values: a forged cursor is a bad
  // request like any other, never a server error.
  // PostgreSQL then rejects — a text value with a NUL character, a timestamp outside PostgreSQL's
  // range (JavaScript dates reach year ±275760), an 'int' beyond 32 bits — so the query fails in
  // the database and the API answers 500 "Internal server error" (GraphQL: INTERNAL) instead of a
  // 400 naming "page" ("after"/"before").
  it('answers 400, not 500, for forged cursors whose values PostgreSQL cannot hold ', async () => {
    const { a, token } = await twoOrgs();
    const api = sdk(server.url, token);
    const col = (await api.orgs.createCollection(a.id, { title: 'Docs' })).data;
    for (let i = 0; i < 3; i++) await api.orgs.createSpace(a.id, { title: `c${i}`, parent: col.id });
    const nul = b64([`spaces:${a.id}`, '2020-01-01T00:00:00.000Z', 'spc_\u0000']);
    const forged: [string, string, string][] = [
      [`/orgs/${a.id}/spaces`, nul, 'a NUL character in a text value'],
      [`/orgs/${a.id}/spaces`, b64([`spaces:${a.id}`, '+275760-09-13T00:00:00.000Z', 'spc_x']), 'a timestamp beyond PostgreSQL'],
      [`/orgs/${a.id}/spaces`, b64([`spaces:${a.id}`, '-271821-04-20T00:00:00.000Z', 'spc_x']), 'a timestamp before PostgreSQL'],
      [`/collections/${col.id}/spaces`, b64([`collection-spaces:${col.id}`, 2 ** 40, 'spc_x']), 'an int value beyond 32 bits'],
    ];
    const answers: Record<string, string> = {};
    for (const [path, page, what] of forged) {
      const response = await http(server.url, token, 'GET', `${path}?page=${encodeURIComponent(page)}`);
      answers[`REST: ${what}`] = `${response.status} ${response.body.error?.message}`;
    }
    const graph = await gql(server.url, token, `query($id: ID!, $c: String) { organization(id: $id) { spaces(last: 2, before: $c) { totalCount } } }`, { id: a.id, c: nul });
    answers['GraphQL before: a NUL character in a text value'] = `${graph.errors?.[0]?.extensions?.code} ${graph.errors?.[0]?.message}`;
    expect(answers).toEqual({
      ...Object.fromEntries(forged.map(([, , what]) => [`REST: ${what}`, expect.stringMatching(/^400 .*"page"/)])),
      'GraphQL before: a NUL character in a text value': expect.stringMatching(/^BAD_REQUEST .*"before"/),
    });
  });

  it('answers BAD_REQUEST naming "after" / "before" in GraphQL', async () => {
    const { a, token } = await twoOrgs();
    const membersCursor = await nextPage(token, `/orgs/${a.id}/members`);
    const query = `query($id: ID!, $after: String, $before: String, $first: Int, $last: Int) {
      organization(id: $id) { spaces(after: $after, before: $before, first: $first, last: $last) { totalCount edges { node { id } } } } }`;
    for (const [variables, field] of [
      [{ after: 'garbage' }, 'after'],
      [{ after: membersCursor }, 'after'],
      [{ before: 'garbage', last: 2 }, 'before'],
      [{ before: b64({ random: true }) }, 'before'],
    ] as const) {
      const result = await gql(server.url, token, query, { id: a.id, ...variables });
      expect(result.errors?.[0], JSON.stringify(variables)).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
      expect(result.errors![0].message).toContain(`"${field}"`);
    }
  });

  it('limits pages to 1000 items: "limit" in REST, "first" / "last" in GraphQL', async () => {
    const { a, token } = await twoOrgs();
    for (const path of [`/orgs/${a.id}/spaces`, `/orgs/${a.id}/members`, `/orgs/${a.id}/collections`, '/orgs']) {
      const response = await http(server.url, token, 'GET', `${path}?limit=1001`);
      expect(response.status, path).toBe(400);
      expect(response.body.error.message, path).toContain('"limit"');
      expect((await http(server.url, token, 'GET', `${path}?limit=1000`)).status, path).toBe(200);
    }
    for (const field of ['first', 'last']) {
      const result = await gql(server.url, token, `query($id: ID!, $n: Int) { organization(id: $id) { spaces(${field}: $n) { totalCount } } }`, { id: a.id, n: 1001 });
      expect(result.errors?.[0], field).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
      expect(result.errors![0].message).toContain(`"${field}"`);
    }
  });
});

describe('backward paging in GraphQL', () => {
  const SPACES = `query($id: ID!, $first: Int, $last: Int, $before: String) {
    organization(id: $id) { spaces(first: $first, last: $last, before: $before) { ${PAGE_INFO} edges { cursor node { title } } } } }`;

  it('spaces(last, before) returns the items just before the cursor, in order, with hasPreviousPage', async () => {
    const { org, owner } = await createOrg(server.db);
    await datedSpaces(owner.token, org.id, 7);
    const page = async (variables: Record<string, unknown>) => (await gqlOk(server.url, owner.token, SPACES, { id: org.id, ...variables })).organization.spaces as Connection & { edges: { cursor: string; node: { title: string } }[] };
    const titles = (c: { edges: { node: { title: string } }[] }) => c.edges.map((e) => e.node.title);
    const all = await page({ first: 7 });
    expect(titles(all)).toEqual(['S0', 'S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
    const cursorOf = (title: string) => all.edges.find((e) => e.node.title === title)!.cursor;

    const middle = await page({ last: 2, before: cursorOf('S4') });
    expect(titles(middle)).toEqual(['S2', 'S3']);
    expect(middle.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true, startCursor: cursorOf('S2'), endCursor: cursorOf('S3') });
    expect(middle.totalCount).toBe(7);
    const start = await page({ last: 2, before: cursorOf('S2') });
    expect(titles(start)).toEqual(['S0', 'S1']);
    expect(start.pageInfo.hasPreviousPage).toBe(false);
    const short = await page({ last: 2, before: cursorOf('S1') });
    expect(titles(short)).toEqual(['S0']);
    expect(short.pageInfo.hasPreviousPage).toBe(false);
    expect(titles(await page({ last: 2, before: cursorOf('S0') }))).toEqual([]);
    const end = await page({ last: 2 });
    expect(titles(end)).toEqual(['S5', 'S6']);
    expect(end.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });

    // Walking back from the end with startCursor meets every space once.
    const met: string[][] = [];
    let before: string | null = null;
    for (let n = 0; n < MAX_PAGES; n++) {
      const p = await page({ last: 2, before });
      met.unshift(titles(p));
      if (!p.pageInfo.hasPreviousPage) break;
      before = p.pageInfo.startCursor;
    }
    expect(met).toEqual([['S0'], ['S1', 'S2'], ['S3', 'S4'], ['S5', 'S6']]);

    // A REST `next.page` is the same cursor: it works as `before` too.
    const rest = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/spaces?limit=3`);
    expect(titles(await page({ last: 2, before: rest.body.next.page }))).toEqual(['S0', 'S1']);
  });

  it('members(last, before) in a newest-first list returns the newer members just before the cursor', async () => {
    const { org, owner } = await createOrg(server.db);
    await setJoinedAt(org.id, owner.id, at(0));
    const names = ['M1', 'M2', 'M3', 'M4', 'M5'];
    for (const [i, name] of names.entries()) {
      const actor = await createActor(server.db, { org: org.id, role: 'read', name });
      await setJoinedAt(org.id, actor.id, at(i + 1));
    }
    const query = `query($id: ID!, $first: Int, $last: Int, $before: String) {
      organization(id: $id) { members(first: $first, last: $last, before: $before) { ${PAGE_INFO} edges { cursor node { user { displayName } } } } } }`;
    const page = async (variables: Record<string, unknown>) => (await gqlOk(server.url, owner.token, query, { id: org.id, ...variables })).organization.members;
    const namesOn = (c: any) => c.edges.map((e: any) => e.node.user.displayName);
    const all = await page({ first: 10 });
    expect(namesOn(all)).toEqual(['M5', 'M4', 'M3', 'M2', 'M1', 'Owner']);
    const before = await page({ last: 2, before: all.edges[3].cursor }); // before M2
    expect(namesOn(before)).toEqual(['M4', 'M3']);
    expect(before.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
    const first = await page({ last: 2, before: all.edges[2].cursor }); // before M3
    expect(namesOn(first)).toEqual(['M5', 'M4']);
    expect(first.pageInfo.hasPreviousPage).toBe(false);
  });
});

describe('what a guest sees while paging', () => {
  it("pages exactly the spaces the guest's grants reach, counted as such", async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    const granted = (await api.orgs.createCollection(org.id, { title: 'Granted' })).data;
    const nested = (await api.orgs.createCollection(org.id, { title: 'Nested', parent: granted.id })).data;
    const deeper = (await api.orgs.createCollection(org.id, { title: 'Deeper', parent: nested.id })).data;
    const other = (await api.orgs.createCollection(org.id, { title: 'Other' })).data;
    // Ten spaces S0…S9: S1, S4 and S8 granted directly; S3 in the granted collection, S6 and S9
    // in collections nested in it; S5 in another collection, the rest at the root.
    const place: Record<number, string> = { 3: granted.id, 6: nested.id, 9: deeper.id, 5: other.id, 8: other.id };
    const spaces = await datedSpaces(owner.token, org.id, 10, (i) => place[i]);
    for (const i of [1, 4, 8]) await api.spaces.inviteToSpace(spaces[i].id, { role: MemberRole.Read, users: [guest.id] });
    await api.collections.inviteToCollection(granted.id, { role: MemberRole.Read, users: [guest.id] });
    // A granted space in the trash is not listed.
    const trashed = (await api.orgs.createSpace(org.id, { title: 'Trashed' })).data;
    await api.spaces.inviteToSpace(trashed.id, { role: MemberRole.Read, users: [guest.id] });
    await api.spaces.deleteSpaceById(trashed.id);
    const visible = [1, 3, 4, 6, 8, 9].map((i) => spaces[i].id);
    const names = namesOf(spaces);

    expectEveryItemOnce(await walkRest(guest.token, `/orgs/${org.id}/spaces`), visible, names);
    const query = `query($id: ID!, $first: Int, $after: String) { organization(id: $id) { spaces(first: $first, after: $after) { ${PAGE_INFO} edges { node { id } } } } }`;
    expectEveryItemOnce(await walkGql(guest.token, query, { id: org.id }, (d) => d.organization.spaces), visible, names);
    // The owner still sees all ten.
    expectEveryItemOnce(await walkRest(owner.token, `/orgs/${org.id}/spaces`), spaces.map((s) => s.id), names);
    // And the guest's collections are the granted one and those nested in it.
    const collections = namesOf([granted, nested, deeper, other]);
    expectEveryItemOnce(await walkRest(guest.token, `/orgs/${org.id}/collections`), [granted.id, nested.id, deeper.id], collections);
    expectEveryItemOnce(await walkRest(guest.token, `/collections/${granted.id}/spaces`), [spaces[3].id], names);
  });
});
