import { MemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

/** Titles of the children of `parentId` (null: the root) in tree order, spaces and collections alike. */
async function childOrder(organizationId: string, parentId: string | null): Promise<string[]> {
  const where = { organizationId, parentId };
  const [spaces, collections] = await Promise.all([
    server.db.space.findMany({ where: { ...where, deletedAt: null }, select: { title: true, position: true } }),
    server.db.collection.findMany({ where, select: { title: true, position: true } }),
  ]);
  return [...spaces, ...collections].sort((a, b) => a.position - b.position).map((c) => c.title);
}

describe('collections over REST (SDK)', () => {
  it('creates, reads, updates and lists collections', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const { data: root, status } = await api.orgs.createCollection(org.id, { title: 'Guides' });
    expect(status).toBe(201);
    expect(root).toEqual({
      object: 'collection',
      id: expect.stringMatching(/^col_/),
      title: 'Guides',
      organization: org.id,
      defaultLevel: 'read',
      urls: { location: expect.stringMatching(new RegExp(`/v1/collections/${root.id}$`)), app: expect.stringContaining(root.id) },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    const { data: child } = await api.orgs.createCollection(org.id, { parent: root.id });
    expect(child).toMatchObject({ title: 'Untitled', parent: root.id, organization: org.id });

    expect((await api.collections.getCollectionById(child.id)).data).toEqual(child);
    const { data: updated } = await api.collections.updateCollectionById(child.id, { title: 'API', description: 'Reference docs', defaultLevel: MemberRole.Edit });
    expect(updated).toMatchObject({ title: 'API', description: 'Reference docs', defaultLevel: 'edit', parent: root.id });
    const cleared = await http(server.url, owner.token, 'PATCH', `/collections/${child.id}`, { description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.description).toBeUndefined();
    expect(cleared.body.title).toBe('API');
  });

  it('lists all collections depth-first by default, only root ones with nested=false', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const a = (await api.orgs.createCollection(org.id, { title: 'A' })).data;
    const b = (await api.orgs.createCollection(org.id, { title: 'B' })).data;
    await api.orgs.createCollection(org.id, { title: 'A1', parent: a.id });
    const a2 = (await api.orgs.createCollection(org.id, { title: 'A2', parent: a.id })).data;
    await api.orgs.createCollection(org.id, { title: 'A2x', parent: a2.id });
    await api.orgs.createCollection(org.id, { title: 'B1', parent: b.id });

    const titles = (list: { items: { title: string }[] }) => list.items.map((c) => c.title);
    const all = (await api.orgs.listCollectionsInOrganizationById(org.id)).data;
    expect(titles(all)).toEqual(['A', 'A1', 'A2', 'A2x', 'B', 'B1']);
    expect(all.count).toBe(6);
    expect(titles((await api.orgs.listCollectionsInOrganizationById(org.id, { nested: true })).data)).toEqual(titles(all));
    const roots = (await api.orgs.listCollectionsInOrganizationById(org.id, { nested: false })).data;
    expect(titles(roots)).toEqual(['A', 'B']);
    expect(roots.count).toBe(2);

    const page1 = (await api.orgs.listCollectionsInOrganizationById(org.id, { limit: 4 })).data;
    expect(titles(page1)).toEqual(['A', 'A1', 'A2', 'A2x']);
    const page2 = (await api.orgs.listCollectionsInOrganizationById(org.id, { limit: 4, page: page1.next!.page })).data;
    expect(titles(page2)).toEqual(['B', 'B1']);
    expect(page2.next).toBeUndefined();

    const badNested = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/collections?nested=maybe`);
    expect(badNested.status).toBe(400);
    expect(badNested.body.error.message).toContain('nested');
  });

  it('lists the live spaces of a collection, in order', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const col = (await api.orgs.createCollection(org.id, { title: 'Docs' })).data;
    const s1 = (await api.orgs.createSpace(org.id, { title: 'One', parent: col.id })).data;
    const s2 = (await api.orgs.createSpace(org.id, { title: 'Two', parent: col.id })).data;
    const s3 = (await api.orgs.createSpace(org.id, { title: 'Three', parent: col.id })).data;
    await api.orgs.createSpace(org.id, { title: 'Elsewhere' });
    expect(s1).toMatchObject({ parent: col.id, visibility: 'in-collection' });
    await api.spaces.deleteSpaceById(s2.id);
    const { data: list } = await api.collections.listSpacesInCollectionById(col.id);
    expect(list.items.map((s) => s.id)).toEqual([s1.id, s3.id]);
    expect(list.count).toBe(2);
    expect(list.items[0]).toMatchObject({ object: 'space', parent: col.id });
  });

  it('validates input with a 400 naming the field', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const col = (await api.orgs.createCollection(org.id, {})).data;
    const cases: [string, string, unknown, string][] = [
      ['POST', `/orgs/${org.id}/collections`, { title: 'x'.repeat(51) }, 'title'],
      ['POST', `/orgs/${org.id}/collections`, { title: 7 }, 'title'],
      ['PATCH', `/collections/${col.id}`, { title: 'x'.repeat(51) }, 'title'],
      ['PATCH', `/collections/${col.id}`, { description: 'x'.repeat(101) }, 'description'],
      ['PATCH', `/collections/${col.id}`, { defaultLevel: 'owner' }, 'defaultLevel'],
      ['POST', `/collections/${col.id}/transfer`, {}, 'organization'],
      ['POST', `/collections/${col.id}/move`, {}, 'parent'],
      ['POST', `/collections/${col.id}/move`, { position: { before: { type: 'space', space: 'spc_missing' } } }, 'position.before'],
    ];
    for (const [method, path, body, field] of cases) {
      const response = await http(server.url, owner.token, method, path, body);
      expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(response.body.error.message).toContain(field);
    }
    expect((await http(server.url, owner.token, 'GET', `/collections/${col.id}/spaces?limit=1001`)).status).toBe(400);
    // A parent in another organization is not visible to the caller.
    const other = await createOrg(server.db, 'Other');
    const foreign = (await sdk(server.url, other.owner.token).orgs.createCollection(other.org.id, {})).data;
    expect((await sdkError(api.orgs.createCollection(org.id, { parent: foreign.id }))).status).toBe(404);
  });

  it('moves a collection before/after a sibling, to the end by default, and between parents', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const a = (await api.orgs.createCollection(org.id, { title: 'A' })).data;
    const s = (await api.orgs.createSpace(org.id, { title: 'S' })).data;
    const c = (await api.orgs.createCollection(org.id, { title: 'C' })).data;
    expect(await childOrder(org.id, null)).toEqual(['A', 'S', 'C']);

    await api.collections.moveCollection(c.id, { position: { before: { type: 'collection', collection: a.id } as never } });
    expect(await childOrder(org.id, null)).toEqual(['C', 'A', 'S']);
    await api.collections.moveCollection(c.id, { position: { after: { type: 'space', space: s.id } } });
    expect(await childOrder(org.id, null)).toEqual(['A', 'S', 'C']);
    await api.collections.moveCollection(a.id, { parent: null });
    expect(await childOrder(org.id, null)).toEqual(['S', 'C', 'A']);

    const { data: moved } = await api.collections.moveCollection(a.id, { parent: c.id });
    expect(moved.parent).toBe(c.id);
    expect(await childOrder(org.id, null)).toEqual(['S', 'C']);
    expect(await childOrder(org.id, c.id)).toEqual(['A']);
    const { data: back } = await api.collections.moveCollection(a.id, { parent: null, position: { before: { type: 'space', space: s.id } } });
    expect(back.parent).toBeUndefined();
    expect(await childOrder(org.id, null)).toEqual(['A', 'S', 'C']);
  });

  it('refuses to move a collection into itself or one of its descendants', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const top = (await api.orgs.createCollection(org.id, { title: 'Top' })).data;
    const mid = (await api.orgs.createCollection(org.id, { title: 'Mid', parent: top.id })).data;
    const leaf = (await api.orgs.createCollection(org.id, { title: 'Leaf', parent: mid.id })).data;
    for (const target of [top.id, mid.id, leaf.id]) {
      const refused = await sdkError(api.collections.moveCollection(top.id, { parent: target }));
      expect(refused.status).toBe(400);
      expect(refused.message).toContain('parent');
    }
    expect((await api.collections.getCollectionById(top.id)).data.parent).toBeUndefined();
    // Moving a descendant up is fine.
    expect((await api.collections.moveCollection(leaf.id, { parent: top.id })).data.parent).toBe(top.id);
  });

  it('deletes a collection with its nested collections, trashing the spaces they contain', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const top = (await api.orgs.createCollection(org.id, { title: 'Top' })).data;
    const nested = (await api.orgs.createCollection(org.id, { title: 'Nested', parent: top.id })).data;
    const keep = (await api.orgs.createCollection(org.id, { title: 'Keep' })).data;
    const inTop = (await api.orgs.createSpace(org.id, { title: 'In top', parent: top.id })).data;
    const inNested = (await api.orgs.createSpace(org.id, { title: 'In nested', parent: nested.id })).data;
    const inKeep = (await api.orgs.createSpace(org.id, { title: 'In keep', parent: keep.id })).data;

    const deleted = await http(server.url, owner.token, 'DELETE', `/collections/${top.id}`);
    expect(deleted).toEqual({ status: 204, body: undefined });
    expect((await sdkError(api.collections.getCollectionById(top.id))).status).toBe(404);
    expect((await sdkError(api.collections.getCollectionById(nested.id))).status).toBe(404);
    expect((await api.collections.getCollectionById(keep.id)).data.id).toBe(keep.id);

    for (const space of [inTop, inNested]) {
      const { data } = await api.spaces.getSpaceById(space.id);
      expect(data.deletedAt).toBeTruthy();
      expect(data.parent).toBeUndefined();
      expect(data.visibility).toBe('private');
    }
    expect((await api.spaces.getSpaceById(inKeep.id)).data).toMatchObject({ parent: keep.id, visibility: 'in-collection' });
    expect((await api.orgs.listSpacesInOrganizationById(org.id)).data.items.map((s) => s.id)).toEqual([inKeep.id]);
    const { data: restored } = await api.spaces.restoreSpace(inNested.id);
    expect(restored).toMatchObject({ visibility: 'private' });
    expect(restored.parent).toBeUndefined();
    expect((await sdkError(api.collections.deleteCollectionById(top.id))).status).toBe(404);
  });

  it('transfers a collection with its subtree to another organization', async () => {
    const { org, owner } = await createOrg(server.db);
    const target = await createOrg(server.db, 'Target');
    await server.db.member.create({ data: { organizationId: target.org.id, userId: owner.id, role: 'create' } });
    const api = sdk(server.url, owner.token);
    const parent = (await api.orgs.createCollection(org.id, { title: 'Parent' })).data;
    const col = (await api.orgs.createCollection(org.id, { title: 'Moving', parent: parent.id })).data;
    const sub = (await api.orgs.createCollection(org.id, { title: 'Sub', parent: col.id })).data;
    const live = (await api.orgs.createSpace(org.id, { title: 'Live', parent: sub.id })).data;
    const trashed = (await api.orgs.createSpace(org.id, { title: 'Trashed', parent: col.id })).data;
    await api.spaces.deleteSpaceById(trashed.id);
    const member = await createActor(server.db, { org: org.id, role: 'read' });
    await api.collections.inviteToCollection(sub.id, { role: MemberRole.Admin, users: [member.id] });
    await api.spaces.inviteToSpace(live.id, { role: MemberRole.Edit, users: [member.id] });

    const { data: moved } = await api.collections.transferCollection(col.id, { organization: target.org.id });
    expect(moved).toMatchObject({ object: 'collection', id: col.id, organization: target.org.id });
    expect(moved.parent).toBeUndefined();
    expect((await api.collections.getCollectionById(sub.id)).data).toMatchObject({ organization: target.org.id, parent: col.id });
    expect((await api.spaces.getSpaceById(live.id)).data).toMatchObject({ organization: target.org.id, parent: sub.id });
    const stayed = (await api.spaces.getSpaceById(trashed.id)).data;
    expect(stayed.organization).toBe(org.id);
    expect(stayed.parent).toBeUndefined();
    expect(await server.db.contentPermission.count({ where: { OR: [{ collectionId: sub.id }, { spaceId: live.id }] } })).toBe(0);
    expect((await api.orgs.listCollectionsInOrganizationById(org.id)).data.items.map((c) => c.id)).toEqual([parent.id]);
    expect((await api.orgs.listCollectionsInOrganizationById(target.org.id)).data.items.map((c) => c.id)).toEqual([col.id, sub.id]);
    expect((await sdkError(sdk(server.url, member.token).collections.getCollectionById(sub.id))).status).toBe(404);

    // Already at the root of its organization: nothing would change.
    expect((await sdkError(api.collections.transferCollection(parent.id, { organization: org.id }))).status).toBe(409);
    // Now in the target organization, where the owner only has `create`: transferring it needs admin on it.
    expect((await sdkError(api.collections.transferCollection(col.id, { organization: org.id }))).status).toBe(403);
    const stranger = await createOrg(server.db, 'Stranger');
    expect((await sdkError(api.collections.transferCollection(parent.id, { organization: stranger.org.id }))).status).toBe(404);
    await server.db.member.create({ data: { organizationId: stranger.org.id, userId: owner.id, role: 'edit' } });
    expect((await sdkError(api.collections.transferCollection(parent.id, { organization: stranger.org.id }))).status).toBe(403);
  });

  it('enforces roles: readers read, creators create, admins change; other organizations see 404', async () => {
    const { org, owner } = await createOrg(server.db);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const creator = await createActor(server.db, { org: org.id, role: 'create' });
    const outsider = (await createOrg(server.db, 'Elsewhere')).owner;
    const col = (await sdk(server.url, owner.token).orgs.createCollection(org.id, { title: 'Secret' })).data;
    const sibling = (await sdk(server.url, owner.token).orgs.createCollection(org.id, { title: 'Sibling' })).data;

    const asReader = sdk(server.url, reader.token);
    expect((await asReader.collections.getCollectionById(col.id)).data.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    expect((await asReader.orgs.listCollectionsInOrganizationById(org.id)).data.count).toBe(2);
    for (const call of [
      () => asReader.orgs.createCollection(org.id, {}),
      () => asReader.orgs.createCollection(org.id, { parent: col.id }),
      () => asReader.collections.updateCollectionById(col.id, { title: 'no' }),
      () => asReader.collections.deleteCollectionById(col.id),
      () => asReader.collections.moveCollection(col.id, { parent: sibling.id }),
    ]) {
      expect((await sdkError(call())).status, call.toString()).toBe(403);
    }

    const asCreator = sdk(server.url, creator.token);
    const mine = (await asCreator.orgs.createCollection(org.id, { parent: col.id })).data;
    expect(mine.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    expect((await sdkError(asCreator.collections.updateCollectionById(col.id, { title: 'no' }))).status).toBe(403);

    const asOutsider = sdk(server.url, outsider.token);
    for (const call of [
      () => asOutsider.collections.getCollectionById(col.id),
      () => asOutsider.collections.updateCollectionById(col.id, { title: 'x' }),
      () => asOutsider.collections.deleteCollectionById(col.id),
      () => asOutsider.collections.listSpacesInCollectionById(col.id),
      () => asOutsider.collections.moveCollection(col.id, { parent: null }),
      () => asOutsider.collections.transferCollection(col.id, { organization: org.id }),
      () => asOutsider.orgs.listCollectionsInOrganizationById(org.id),
      () => asOutsider.orgs.createCollection(org.id, {}),
      () => sdk(server.url, owner.token).collections.getCollectionById('col_unknown'),
      () => sdk(server.url, owner.token).collections.moveCollection(col.id, { parent: 'col_unknown' }),
    ]) {
      expect((await sdkError(call())).status, call.toString()).toBe(404);
    }
  });
});

describe('collections over GraphQL', () => {
  it('navigates organization → collections → spaces, parents and nodes', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const top = (await api.orgs.createCollection(org.id, { title: 'Top' })).data;
    const sub = (await api.orgs.createCollection(org.id, { title: 'Sub', parent: top.id })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Doc', parent: sub.id })).data;
    const data = await gqlOk(
      server.url,
      owner.token,
      `query($org: ID!, $space: ID!, $sub: ID!) {
        organization(id: $org) { collections(nested: false, first: 20) { totalCount edges { node { title viewerRole collections(first: 20) { edges { node { title spaces(first: 20) { edges { node { id } } } } } } } } } }
        space(id: $space) { parent { id title parent { id } } }
        node(id: $sub) { __typename ... on Collection { title organization { id } } }
      }`,
      { org: org.id, space: space.id, sub: sub.id },
    );
    expect(data.organization.collections.totalCount).toBe(1);
    const topNode = data.organization.collections.edges[0].node;
    expect(topNode).toMatchObject({ title: 'Top', viewerRole: 'admin' });
    expect(topNode.collections.edges[0].node).toEqual({ title: 'Sub', spaces: { edges: [{ node: { id: space.id } }] } });
    expect(data.space.parent).toEqual({ id: sub.id, title: 'Sub', parent: { id: top.id } });
    expect(data.node).toEqual({ __typename: 'Collection', title: 'Sub', organization: { id: org.id } });
  });
});
