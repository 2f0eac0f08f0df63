import { describe, expect, it } from 'vitest';
import { sdk, sdkError, http } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer({ worker: true });

describe('spaces over REST (SDK)', () => {
  it('creates, reads, lists and updates a space', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const { data: created } = await api.orgs.createSpace(org.id, { title: 'Handbook', emoji: '📘' });
    expect(created).toMatchObject({ object: 'space', title: 'Handbook', emoji: '📘', organization: org.id, visibility: 'private' });
    expect(created.permissions).toEqual({ view: true, access: true, admin: true, viewInviteLinks: true, edit: true, triggerGitSync: true, comment: true, merge: true, review: true, installIntegration: false });
    const { data: fetched } = await api.spaces.getSpaceById(created.id);
    expect(fetched.id).toBe(created.id);
    const { data: list } = await api.orgs.listSpacesInOrganizationById(org.id);
    expect(list.count).toBe(1);
    expect(list.items.map((s) => s.id)).toEqual([created.id]);
    const { data: updated } = await api.spaces.updateSpaceById(created.id, { title: 'Guide', editMode: 'locked' as never });
    expect(updated).toMatchObject({ title: 'Guide', editMode: 'locked' as never });
  });

  it('counts change requests by status and open comments', async () => {
    const { newId } = await import('../src/domain/kernel/ids.js');
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const { data: space } = await api.orgs.createSpace(org.id, { title: 'Busy' });
    const statuses = ['open', 'open', 'draft', 'merged'] as const;
    await server.db.changeRequest.createMany({
      data: statuses.map((status, i) => ({
        id: newId('ChangeRequest'),
        spaceId: space.id,
        number: i + 1,
        status,
        createdById: owner.id,
        revisionId: space.revision,
        revisionInitialId: space.revision,
      })),
    });
    await server.db.comment.createMany({
      data: ['open', 'open', 'resolved'].map((status) => ({ id: newId('Comment'), spaceId: space.id, revisionId: space.revision, authorId: owner.id, body: { object: 'document', data: {}, nodes: [] }, status: status as 'open' })),
    });
    const { data } = await api.spaces.getSpaceById(space.id);
    expect(data).toMatchObject({ changeRequests: 4, changeRequestsOpen: 2, changeRequestsDraft: 1, comments: 2 });
  });

  it('validates input with a 400 naming the field', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const tooLong = await sdkError(api.orgs.createSpace(org.id, { title: 'x'.repeat(51) }));
    expect(tooLong.status).toBe(400);
    expect(tooLong.message).toContain('title');
    const wrongType = await http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { emoji: 12 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toContain('emoji');
    const malformed = await http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, '{"title":');
    expect(malformed).toEqual({ status: 400, body: { error: { code: 400, message: 'Malformed JSON in request body' } } });
    const limit = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/spaces?limit=1001`);
    expect(limit.status).toBe(400);
    expect(limit.body.error.message).toContain('limit');
    const badEnum = await http(server.url, owner.token, 'PATCH', `/spaces/${(await api.orgs.createSpace(org.id, {})).data.id}`, { editMode: 'frozen' });
    expect(badEnum.status).toBe(400);
    expect(badEnum.body.error.message).toContain('editMode');
  });

  it('paginates with page cursors and count', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    for (let i = 0; i < 5; i++) await api.orgs.createSpace(org.id, { title: `S${i}` });
    const first = (await api.orgs.listSpacesInOrganizationById(org.id, { limit: 2 })).data;
    expect(first.count).toBe(5);
    expect(first.items.map((s) => s.title)).toEqual(['S0', 'S1']);
    const second = (await api.orgs.listSpacesInOrganizationById(org.id, { limit: 2, page: first.next!.page })).data;
    expect(second.items.map((s) => s.title)).toEqual(['S2', 'S3']);
    const last = (await api.orgs.listSpacesInOrganizationById(org.id, { limit: 2, page: second.next!.page })).data;
    expect(last.items.map((s) => s.title)).toEqual(['S4']);
    expect(last.next).toBeUndefined();
  });

  it('lists times on the wire as read by ID: ISO 8601 with milliseconds, ties paged by their cursor', async () => {
    const { org, owner } = await createOrg(server.db);
    const collection = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/collections`, { title: 'Shelf' })).body;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { title: `T${i}`, parent: collection.id })).body.id);
    // PostgreSQL writes these as `12:00:00`, `12:00:00.5` and `12:00:00.123` (trailing zeros dropped);
    // the first two spaces were created at the same instant (a tie their IDs break).
    const times = [
      ['2026-01-31T12:00:00.000Z', '2026-01-31T12:00:00.500Z'],
      ['2026-01-31T12:00:00.000Z', '2026-02-01T00:00:00.120Z'],
      ['0999-12-31T23:59:59.123Z', '9999-12-31T23:59:59.999Z'],
    ];
    for (const [i, [createdAt, updatedAt]] of times.entries()) await server.db.space.update({ where: { id: ids[i] }, data: { createdAt: new Date(createdAt), updatedAt: new Date(updatedAt) } });
    const wire = (space: { createdAt: string; updatedAt: string }) => [space.createdAt, space.updatedAt];
    const byId = await Promise.all(ids.map(async (id) => (await http(server.url, owner.token, 'GET', `/spaces/${id}`)).body));
    expect(byId.map(wire)).toEqual(times);
    expect(byId.every((space) => !('deletedAt' in space))).toBe(true);
    const inCollection = (await http(server.url, owner.token, 'GET', `/collections/${collection.id}/spaces`)).body.items;
    expect(inCollection).toEqual(byId);
    // Oldest first, one a page: each cursor carries its space's time as the list read it.
    const paged: unknown[] = [];
    let page: string | undefined;
    do {
      const body = (await http(server.url, owner.token, 'GET', `/orgs/${org.id}/spaces?limit=1${page ? `&page=${page}` : ''}`)).body;
      paged.push(...body.items);
      page = body.next?.page;
    } while (page);
    const oldestFirst = [byId[2], ...byId.slice(0, 2).sort((a, b) => (a.id < b.id ? -1 : 1))];
    expect(paged).toEqual(oldestFirst);
    expect(JSON.stringify(paged)).toBe(JSON.stringify(oldestFirst));
  });

  it('deletes to the trash, restores within 7 days, and not after', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const { data: space } = await api.orgs.createSpace(org.id, { title: 'Trash me' });
    await api.spaces.deleteSpaceById(space.id);
    const { data: deleted } = await api.spaces.getSpaceById(space.id);
    expect(deleted.deletedAt).toBeTruthy();
    expect((await api.orgs.listSpacesInOrganizationById(org.id)).data.count).toBe(0);
    expect((await sdkError(api.spaces.updateSpaceById(space.id, { title: 'x' }))).status).toBe(404);
    const { data: restored } = await api.spaces.restoreSpace(space.id);
    expect(restored.deletedAt).toBeUndefined();
    expect((await sdkError(api.spaces.restoreSpace(space.id))).status).toBe(409);

    await api.spaces.deleteSpaceById(space.id);
    await server.db.space.update({ where: { id: space.id }, data: { deletedAt: new Date(Date.now() - 8 * 24 * 3600 * 1000) } });
    expect((await sdkError(api.spaces.restoreSpace(space.id))).status).toBe(404);
    expect((await sdkError(api.spaces.getSpaceById(space.id))).status).toBe(404);
  });

  it('purges spaces deleted more than 7 days ago, and only those, each through a job', async () => {
    const { schedulePurges } = await import('../src/domain/content/spaces/trash.js');
    const { waitForJob } = await import('../src/jobs/wait.js');
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const old = (await api.orgs.createSpace(org.id, { title: 'old' })).data;
    const recent = (await api.orgs.createSpace(org.id, { title: 'recent' })).data;
    await api.spaces.deleteSpaceById(old.id);
    await api.spaces.deleteSpaceById(recent.id);
    await server.db.space.update({ where: { id: old.id }, data: { deletedAt: new Date(Date.now() - 7 * 24 * 3600 * 1000 - 60_000) } });
    expect(await schedulePurges(server.db)).toBeGreaterThanOrEqual(1);
    const job = await server.db.job.findFirstOrThrow({ where: { spaceId: old.id, kind: 'space_purge' } });
    expect(await server.db.job.count({ where: { spaceId: recent.id } })).toBe(0);
    expect(await schedulePurges(server.db)).toBe(0); // one purge job per space at a time
    expect(await waitForJob(server.db, server.events, job.id, 20_000)).toMatchObject({ state: 'succeeded', result: { purged: true }, organizationId: org.id, createdById: null });
    expect(await server.db.space.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await server.db.space.findUnique({ where: { id: recent.id } })).not.toBeNull();
    // The purge announces itself (the server's own write: no actor), in the job's transaction.
    const purged = await server.db.outboxEvent.findMany({ where: { kind: 'spacePurged', organizationId: org.id } });
    expect(purged).toMatchObject([{ subjectId: old.id, spaceId: null, actorId: null }]);
  });

  it('duplicates a space right after the original', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const a = (await api.orgs.createSpace(org.id, { title: 'A' })).data;
    const b = (await api.orgs.createSpace(org.id, { title: 'B' })).data;
    const { data: copy } = await api.spaces.duplicateSpace(a.id);
    expect(copy).toMatchObject({ title: 'A (copy)', organization: org.id });
    expect(copy.id).not.toBe(a.id);
    expect(copy.revision).not.toBe(a.revision);
    const order = await server.db.space.findMany({ where: { organizationId: org.id }, orderBy: { position: 'asc' }, select: { id: true } });
    expect(order.map((s) => s.id)).toEqual([a.id, copy.id, b.id]);
  });

  it('moves a space before/after a sibling, and to the end by default', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map(async (title) => (await api.orgs.createSpace(org.id, { title })).data));
    const order = async () =>
      (await server.db.space.findMany({ where: { organizationId: org.id }, orderBy: { position: 'asc' }, select: { title: true } })).map((s) => s.title).join('');
    const sorted = await order();
    expect(sorted.length).toBe(3);
    await api.spaces.moveSpace(c.id, { position: { before: { type: 'space', space: a.id } } });
    expect((await order()).indexOf('C')).toBe((await order()).indexOf('A') - 1);
    await api.spaces.moveSpace(c.id, { position: { after: { type: 'space', space: a.id } } });
    expect((await order()).indexOf('C')).toBe((await order()).indexOf('A') + 1);
    await api.spaces.moveSpace(a.id, { parent: null });
    expect((await order()).endsWith('A')).toBe(true);
    expect(b.id).toBeTruthy();
    const bad = await sdkError(api.spaces.moveSpace(a.id, { position: { before: { type: 'space', space: 'spc_missing' } } }));
    expect(bad.status).toBe(400);
  });

  it('transfers a space to another organization the caller can create in', async () => {
    const { org, owner } = await createOrg(server.db);
    const other = await createOrg(server.db, 'Other');
    await server.db.member.create({ data: { organizationId: other.org.id, userId: owner.id, role: 'admin' } });
    const api = sdk(server.url, owner.token);
    const space = (await api.orgs.createSpace(org.id, { title: 'Moving' })).data;
    const moved = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/transfer`, { organization: other.org.id });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ object: 'space', organization: other.org.id });
    const again = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/transfer`, { organization: other.org.id });
    expect(again.status).toBe(409);
    const stranger = await createOrg(server.db, 'Stranger');
    const denied = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/transfer`, { organization: stranger.org.id });
    expect(denied.status).toBe(404);
    const missing = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/transfer`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('organization');
  });

  it('enforces roles: readers read, only admins delete, other organizations see 404', async () => {
    const { org, owner } = await createOrg(server.db);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const outsider = (await createOrg(server.db, 'Elsewhere')).owner;
    const space = (await sdk(server.url, owner.token).orgs.createSpace(org.id, { title: 'Secret' })).data;

    const asReader = sdk(server.url, reader.token);
    const { data: seen } = await asReader.spaces.getSpaceById(space.id);
    expect(seen.permissions).toMatchObject({ access: true, admin: false, edit: false });
    expect((await sdkError(asReader.spaces.deleteSpaceById(space.id))).status).toBe(403);
    expect((await sdkError(asReader.spaces.updateSpaceById(space.id, { title: 'no' }))).status).toBe(403);
    expect((await sdkError(asReader.orgs.createSpace(org.id, { title: 'no' }))).status).toBe(403);
    expect((await sdkError(asReader.spaces.duplicateSpace(space.id))).status).toBe(403);
    expect((await sdkError(asReader.spaces.moveSpace(space.id, { parent: null }))).status).toBe(403);
    expect((await sdkError(asReader.spaces.restoreSpace(space.id))).status).toBe(403);
    const asEditor = sdk(server.url, (await createActor(server.db, { org: org.id, role: 'edit' })).token);
    expect((await asEditor.spaces.updateSpaceById(space.id, { title: 'Edited' })).data.title).toBe('Edited');
    expect((await sdkError(asEditor.spaces.updateSpaceById(space.id, { defaultLevel: 'admin' as never }))).status).toBe(403);

    const asOutsider = sdk(server.url, outsider.token);
    expect((await sdkError(asOutsider.spaces.getSpaceById(space.id))).status).toBe(404);
    expect((await sdkError(asOutsider.spaces.deleteSpaceById(space.id))).status).toBe(404);
    expect((await sdkError(asOutsider.orgs.listSpacesInOrganizationById(org.id))).status).toBe(404);
  });

  it('requires a valid bearer token', async () => {
    const { org } = await createOrg(server.db);
    expect((await http(server.url, undefined, 'GET', `/orgs/${org.id}/spaces`)).status).toBe(401);
    expect((await http(server.url, 'quire_not-a-token', 'GET', `/orgs/${org.id}/spaces`)).status).toBe(401);
  });
});
