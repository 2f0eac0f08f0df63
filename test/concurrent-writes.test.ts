/**
 * Concurrent writers. The content tree: creates and moves in one parent take turns on the parent's
 * lock, so positions stay unique, and no request fails with a 500 — a transaction
 * PostgreSQL aborts is retried, and one that keeps failing is a 409. Member administration: the
 * caller's role is checked again once the organization is locked.
 */
import { describe, expect, it } from 'vitest';
import { http } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

/** Positions of the live spaces and collections directly in `parentId`. */
async function positions(organizationId: string, parentId: string | null): Promise<number[]> {
  const [spaces, collections] = await Promise.all([
    server.db.space.findMany({ where: { organizationId, parentId, deletedAt: null }, select: { position: true } }),
    server.db.collection.findMany({ where: { organizationId, parentId }, select: { position: true } }),
  ]);
  return [...spaces, ...collections].map((r) => r.position).sort((a, b) => a - b);
}

const distinct = (positions: number[]) => new Set(positions).size === positions.length;

describe('the content tree under concurrent writers', () => {
  it('gives 50 spaces created at once in one collection 50 distinct positions', async () => {
    const { org, owner } = await createOrg(server.db);
    const shelf = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/collections`, { title: 'Shelf' })).body;
    const created = await Promise.all(Array.from({ length: 50 }, (_, i) => http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { title: `S${i}`, parent: shelf.id })));
    expect(created.map((r) => r.status)).toEqual(Array(50).fill(201));
    const placed = await positions(org.id, shelf.id);
    expect(placed).toHaveLength(50);
    expect(distinct(placed)).toBe(true);
  }, 60_000);

  it('keeps positions unique through concurrent moves, in one parent and across two, without a 500', async () => {
    const { org, owner } = await createOrg(server.db);
    const [a, b] = [
      (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/collections`, { title: 'A' })).body,
      (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/collections`, { title: 'B' })).body,
    ];
    const spacesIn = async (parent: string, n: number) => {
      const out = [];
      for (let i = 0; i < n; i++) out.push((await http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { title: `${parent}${i}`, parent })).body.id);
      return out;
    };
    const inA = await spacesIn(a.id, 10);
    const inB = await spacesIn(b.id, 10);
    const moves = [
      // Within A: each to the front, all at once.
      ...inA.slice(0, 6).map((id) => http(server.url, owner.token, 'POST', `/spaces/${id}/move`, { position: { before: inA[9] } })),
      // Across: A → B and B → A at the same time (opposite lock orders if taken naively).
      ...inA.slice(6, 9).map((id) => http(server.url, owner.token, 'POST', `/spaces/${id}/move`, { parent: b.id })),
      ...inB.slice(0, 3).map((id) => http(server.url, owner.token, 'POST', `/spaces/${id}/move`, { parent: a.id })),
    ];
    const statuses = (await Promise.all(moves)).map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const [inAAfter, inBAfter] = [await positions(org.id, a.id), await positions(org.id, b.id)];
    expect(distinct(inAAfter)).toBe(true);
    expect(distinct(inBAfter)).toBe(true);
    expect(inAAfter.length + inBAfter.length).toBe(20);
  }, 60_000);

  it('leaves its siblings where they are when a space goes to the trash, and appends it when restored', async () => {
    const { org, owner } = await createOrg(server.db);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { title: `R${i}` })).body.id);
    const before = await positions(org.id, null);
    const removed = (await server.db.space.findUniqueOrThrow({ where: { id: ids[1] } })).position;
    expect((await http(server.url, owner.token, 'DELETE', `/spaces/${ids[1]}`)).status).toBe(204);
    expect(await positions(org.id, null)).toEqual(before.filter((p) => p !== removed));
    expect((await http(server.url, owner.token, 'POST', `/spaces/${ids[1]}/restore`)).status).toBe(200);
    const restored = (await server.db.space.findUniqueOrThrow({ where: { id: ids[1] } })).position;
    expect(await positions(org.id, null)).toEqual([...before.filter((p) => p !== removed), restored]);
    expect(restored).toBeGreaterThan(Math.max(...before));
  });
});

describe('role checks that guard a write', () => {
  it('are made again inside its transaction: a caller demoted after the check is refused', async () => {
    const { org } = await createOrg(server.db);
    const { createActor } = await import('./helpers/factories.js');
    const { createContext } = await import('../src/schema/context.js');
    const { updateMember } = await import('../src/domain/people/members/update.js');
    const { removeMember } = await import('../src/domain/people/members/remove.js');
    const { createEventBus } = await import('../src/events/bus.js');
    const { loadConfig } = await import('../src/config.js');
    const admin = await createActor(server.db, { org: org.id, role: 'admin' });
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    // The admin's request has passed its role check (the organization row, admin role, is loaded)…
    const ctx = createContext({ db: server.db, config: loadConfig({}), events: createEventBus() }, { userId: admin.id });
    await ctx.access.requireOrganization(org.id, 'manageMembers');
    // …when another write demotes them, before theirs takes the lock.
    await server.db.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: admin.id } }, data: { role: 'read' } });
    await expect(updateMember(server.db, ctx.access, org.id, reader.id, { role: 'admin' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(removeMember(server.db, ctx.access, org.id, reader.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await server.db.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId: org.id, userId: reader.id } } })).role).toBe('read');
  });

  /** A request whose role check has passed on its own loaders, as a resolver's would have. */
  async function checkedContext(userId: string) {
    const { createContext } = await import('../src/schema/context.js');
    const { createEventBus } = await import('../src/events/bus.js');
    const { loadConfig } = await import('../src/config.js');
    return createContext({ db: server.db, config: loadConfig({}), events: createEventBus() }, { userId });
  }

  it('refuse a grant or a creation when the grant that allowed it was revoked after the check', async () => {
    const { org, owner } = await createOrg(server.db);
    const { createActor } = await import('./helpers/factories.js');
    const { inviteToContent } = await import('../src/domain/access/grants.js');
    const { createSpace } = await import('../src/domain/content/spaces/create.js');
    const sharer = await createActor(server.db, { org: org.id, role: 'read' });
    const other = await createActor(server.db, { org: org.id, role: 'read' });
    const shelf = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/collections`, { title: 'Shelf' })).body;
    expect((await http(server.url, owner.token, 'POST', `/collections/${shelf.id}/permissions`, { role: 'admin', users: [sharer.id] })).status).toBe(204);
    const ctx = await checkedContext(sharer.id);
    expect((await ctx.access.requireCollection(shelf.id, 'share')).role).toBe('admin');
    // Revoked between the check and the write.
    await server.db.contentPermission.deleteMany({ where: { collectionId: shelf.id, userId: sharer.id } });
    await expect(inviteToContent(server.db, ctx.access, shelf.id, { role: 'admin', users: [other.id] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(createSpace(server.db, ctx.access, { organizationId: org.id, parent: shelf.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await server.db.contentPermission.count({ where: { collectionId: shelf.id, userId: other.id } })).toBe(0);
    expect(await server.db.space.count({ where: { parentId: shelf.id } })).toBe(0);
  });

  it('refuse a team change when the caller stopped owning the team after the check', async () => {
    const { org, owner } = await createOrg(server.db);
    const { createActor } = await import('./helpers/factories.js');
    const { updateTeamMembers } = await import('../src/domain/people/teams/members.js');
    const lead = await createActor(server.db, { org: org.id, role: 'read' });
    const newcomer = await createActor(server.db, { org: org.id, role: 'read' });
    const team = (await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/teams`, { title: 'Docs' })).body;
    expect((await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/teams/${team.id}/members/${lead.id}`, { role: 'owner' })).status).toBeLessThan(300);
    const ctx = await checkedContext(lead.id);
    const { requireTeam } = await import('../src/domain/people/teams/access.js');
    await requireTeam(ctx.access, team.id, 'manage', org.id);
    await server.db.teamMember.update({ where: { teamId_userId: { teamId: team.id, userId: lead.id } }, data: { role: 'member' } });
    await expect(updateTeamMembers(server.db, ctx.access, org.id, team.id, { add: [newcomer.id] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await server.db.teamMember.count({ where: { teamId: team.id, userId: newcomer.id } })).toBe(0);
  });

  it('wait for a change of access in progress, then check against it', async () => {
    const { org, owner } = await createOrg(server.db);
    const { createActor } = await import('./helpers/factories.js');
    const { lockAccess } = await import('../src/domain/access/guarded-write.js');
    const { updateSpace } = await import('../src/domain/content/spaces/update.js');
    const editor = await createActor(server.db, { org: org.id, role: 'edit' });
    const space = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { title: 'Before' })).body;
    const ctx = await checkedContext(editor.id);
    await ctx.access.requireSpace(space.id, 'rename');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // An access change holds the organization's lock; the rename, its check passed, must queue behind it.
    const change = server.db.$transaction(async (tx) => {
      await lockAccess(tx, [org.id], 'change');
      await tx.member.update({ where: { organizationId_userId: { organizationId: org.id, userId: editor.id } }, data: { role: 'read' } });
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Its outcome is taken at once: it may be refused while the test still awaits `change` (an unhandled rejection otherwise).
    const rename = updateSpace(server.db, ctx.access, space.id, { title: 'After' }).then(
      () => null,
      (error: unknown) => error,
    );
    const waitingOnLock = async () =>
      Number((await server.db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)[0].n);
    for (let i = 0; i < 100 && (await waitingOnLock()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await waitingOnLock()).toBeGreaterThan(0);
    release();
    await change;
    expect(await rename).toMatchObject({ code: 'FORBIDDEN' });
    expect((await server.db.space.findUniqueOrThrow({ where: { id: space.id } })).title).toBe('Before');
  });

  it('leave no 500 and keep an admin when admins demote each other all at once', async () => {
    const { org, owner } = await createOrg(server.db);
    const { createActor } = await import('./helpers/factories.js');
    const admins = [owner, ...(await Promise.all(Array.from({ length: 9 }, () => createActor(server.db, { org: org.id, role: 'admin' }))))];
    const answers = await Promise.all(admins.map((admin, i) => http(server.url, admin.token, 'PATCH', `/orgs/${org.id}/members/${admins[(i + 1) % admins.length].id}`, { role: 'read' })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 403 || s === 409)).toBe(true);
    expect(await server.db.member.count({ where: { organizationId: org.id, role: 'admin' } })).toBeGreaterThan(0);
  }, 60_000);
});
