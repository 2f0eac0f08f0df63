/**
 * Change requests (API 4.6) through the public SDK and plain HTTP: numbering under concurrency,
 * filters and pages, subject and status rules, merge and update with real three-way merges,
 * conflicts, access and isolation between organizations.
 */
import { describe, expect, it } from 'vitest';
import { gql, gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { expectDocumented } from './helpers/documented.js';
import { useServer } from './helpers/server.js';

const server = useServer();

type Change = Record<string, unknown>;

const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const para = (key: string, t: string) => ({ object: 'block', type: 'paragraph', key, data: {}, nodes: [text(t)] });
const doc = (...blocks: unknown[]) => ({ document: { object: 'document', data: {}, nodes: blocks } });

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  return { org, owner, api, space };
}

/** Opens a change request, applies `changes` and answers its ID and the created pages' IDs by ref. */
async function propose(api: ReturnType<typeof sdk>, spaceId: string, changes: Change[], subject = 'Edit') {
  const cr = (await api.spaces.createChangeRequest(spaceId, { subject })).data;
  const pages: Record<string, string> = {};
  if (changes.length) {
    const result = (await api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes: changes as never }, { compat: false })).data as any;
    for (const c of result.changes) if (c.ref) pages[c.ref] = c.page.id;
  }
  return { id: cr.id, number: cr.number, pages };
}

async function merge(api: ReturnType<typeof sdk>, spaceId: string, crId: string) {
  return (await api.spaces.mergeChangeRequest(spaceId, crId)).data;
}

/** Title, path and paragraphs of every page of the space's current content, in tree order. */
async function spaceContent(token: string, spaceId: string) {
  const data = await gqlOk(server.url, token, `query($id: ID!) { space(id: $id) { revision { allPages { id title path document } } } }`, { id: spaceId });
  return data.space.revision.allPages.map((p: any) => ({ title: p.title, path: p.path, text: (p.document?.nodes ?? []).map((b: any) => b.nodes?.[0]?.leaves?.[0]?.text) }));
}

describe('change requests', () => {
  it('numbers 50 concurrent creations 1..50 with no gap or duplicate, and keeps the space counters true', async () => {
    const { api, space } = await setup();
    const created = await Promise.all(Array.from({ length: 50 }, (_, i) => api.spaces.createChangeRequest(space.id, { subject: `CR ${i}` })));
    expect(created.map((r) => r.data.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const first = created[0].data;
    expect(first).toMatchObject({ object: 'change-request', status: 'draft', space: space.id, revisionInitial: space.revision, comments: 0, outdated: false });
    expect(first.revision).not.toBe(space.revision);
    await api.spaces.updateChangeRequestById(space.id, String(created[1].data.number), { status: 'open' } as never);
    const after = (await api.spaces.getSpaceById(space.id)).data;
    expect(after).toMatchObject({ changeRequests: 50, changeRequestsDraft: 49, changeRequestsOpen: 1 });
  }, 60_000);

  it('finds a request by ID or by number, and 404s for another space or organization', async () => {
    const { api, space, org, owner } = await setup();
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Hello' })).data;
    expect((await api.spaces.getChangeRequestById(space.id, String(cr.number))).data.id).toBe(cr.id);
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data.number).toBe(cr.number);
    const other = (await api.orgs.createSpace(org.id, { title: 'Other' })).data;
    expect((await sdkError(api.spaces.getChangeRequestById(other.id, cr.id))).status).toBe(404);
    const stranger = await createOrg(server.db, 'Elsewhere');
    const theirs = sdk(server.url, stranger.owner.token);
    expect((await sdkError(theirs.spaces.getChangeRequestById(space.id, cr.id))).status).toBe(404);
    expect((await sdkError(theirs.spaces.updateChangeRequestById(space.id, cr.id, { subject: 'Mine' }))).status).toBe(404);
    expect((await sdkError(theirs.spaces.mergeChangeRequest(space.id, cr.id))).status).toBe(404);
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data.subject).toBe('Hello');
    const query = `query($id: ID!) { node(id: $id) { ... on ChangeRequest { number subject } } }`;
    expect((await gqlOk(server.url, owner.token, query, { id: cr.id })).node).toEqual({ number: cr.number, subject: 'Hello' });
    expect((await gql(server.url, stranger.owner.token, query, { id: cr.id })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('lists by status (open by default) and contributor, newest first, paged in SQL', async () => {
    const { api, space, org } = await setup();
    const writer = await createActor(server.db, { org: org.id, role: 'edit' });
    const numbers: number[] = [];
    for (let i = 0; i < 5; i++) {
      const cr = (await api.spaces.createChangeRequest(space.id, { subject: `Open ${i}` })).data;
      await api.spaces.updateChangeRequestById(space.id, cr.id, { status: 'open' } as never);
      numbers.push(cr.number);
    }
    const theirs = (await sdk(server.url, writer.token).spaces.createChangeRequest(space.id, { subject: 'By writer' })).data;
    const open = (await api.spaces.listChangeRequestsForSpace(space.id, { limit: 2 })).data;
    expect(open.count).toBe(5);
    expect(open.items.map((c) => c.number)).toEqual([numbers[4], numbers[3]]);
    const seen = [...open.items.map((c) => c.number)];
    let next = open.next?.page;
    while (next) {
      const page = (await api.spaces.listChangeRequestsForSpace(space.id, { limit: 2, page: next })).data;
      seen.push(...page.items.map((c) => c.number));
      next = page.next?.page;
    }
    expect(seen).toEqual([...numbers].reverse());
    const drafts = (await api.spaces.listChangeRequestsForSpace(space.id, { status: 'draft' } as never)).data;
    expect(drafts.items.map((c) => c.id)).toEqual([theirs.id]);
    const byWriter = (await api.spaces.listChangeRequestsForSpace(space.id, { status: 'draft', contributor: writer.id } as never)).data;
    expect(byWriter.items.map((c) => c.id)).toEqual([theirs.id]);
    const bad = await http(server.url, writer.token, 'GET', `/spaces/${space.id}/change-requests?status=nope`);
    expect(bad).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('status') } } });
    const badCursor = await http(server.url, writer.token, 'GET', `/spaces/${space.id}/change-requests?page=garbage`);
    expect(badCursor).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('page') } } });
  });

  it('validates subject and status; a merged request is final', async () => {
    const { api, space } = await setup();
    const cr = (await api.spaces.createChangeRequest(space.id, {})).data;
    expect(cr.subject).toBe('');
    const anonymous = await http(server.url, undefined, 'PATCH', `/spaces/${space.id}/change-requests/${cr.id}`, { subject: 'x' });
    expect(anonymous.status).toBe(401);
    const tooLong = await sdkError(api.spaces.updateChangeRequestById(space.id, cr.id, { subject: 'x'.repeat(101) }));
    expect(tooLong).toMatchObject({ status: 400, message: expect.stringContaining('subject') });
    const merged = await sdkError(api.spaces.updateChangeRequestById(space.id, cr.id, { status: 'merged' } as never));
    expect(merged).toMatchObject({ status: 400, message: expect.stringContaining('status') });
    for (const status of ['open', 'archived', 'draft', 'open'] as const) {
      expect((await api.spaces.updateChangeRequestById(space.id, cr.id, { status } as never)).data.status).toBe(status);
    }
    expect((await merge(api, space.id, cr.id)).result).toBe('merge');
    const after = (await api.spaces.getChangeRequestById(space.id, cr.id)).data;
    expect(after).toMatchObject({ status: 'merged', revisionMerged: expect.any(String), mergedBy: { id: cr.createdBy.id } });
    expect((await sdkError(api.spaces.updateChangeRequestById(space.id, cr.id, { status: 'open' } as never))).status).toBe(409);
    expect((await sdkError(api.spaces.mergeChangeRequest(space.id, cr.id))).status).toBe(409);
    expect((await sdkError(api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Late', document: { markdown: 'x' } }] as never }))).status).toBe(409);
  });

  it('refuses writers below edit and a locked space', async () => {
    const { api, space, org } = await setup();
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const cr = (await api.spaces.createChangeRequest(space.id, {})).data;
    const theirs = sdk(server.url, reader.token);
    expect((await sdkError(theirs.spaces.createChangeRequest(space.id, {}))).status).toBe(403);
    expect((await sdkError(theirs.spaces.mergeChangeRequest(space.id, cr.id))).status).toBe(403);
    expect((await theirs.spaces.getChangeRequestById(space.id, cr.id)).data.id).toBe(cr.id);
    await api.spaces.updateSpaceById(space.id, { editMode: 'locked' } as never);
    expect((await sdkError(api.spaces.createChangeRequest(space.id, {}))).status).toBe(403);
    expect((await sdkError(api.spaces.mergeChangeRequest(space.id, cr.id))).status).toBe(403);
  });
});

describe('merging', () => {
  it('fast-forwards a request into the space, keeping page IDs, and writes rows for what changed only', async () => {
    const { api, space, owner } = await setup();
    const first = await propose(api, space.id, [
      { operation: 'insert_page', ref: 'a', title: 'Alpha', document: doc(para('a1', 'one'), para('a2', 'two')) },
      { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: '# Beta\n\nHello **world**.\n' } },
    ]);
    const merged = await merge(api, space.id, first.id);
    expect(merged.result).toBe('merge');
    expect((await api.spaces.getSpaceById(space.id)).data.revision).toBe(merged.revision);
    expect(await spaceContent(owner.token, space.id)).toEqual([
      { title: 'Alpha', path: 'alpha', text: ['one', 'two'] },
      { title: 'Beta', path: 'beta', text: ['Hello '] },
    ]);
    const second = await propose(api, space.id, [{ operation: 'update_page', page: first.pages.a, document: doc(para('a1', 'one!'), para('a2', 'two')) }]);
    const rowsBefore = await server.db.contentEntry.count({ where: { spaceId: space.id } });
    await merge(api, space.id, second.id);
    // One row for the edited page in the request's line before, one in the space's line now.
    expect(await server.db.contentEntry.count({ where: { spaceId: space.id } })).toBe(rowsBefore + 1);
    const page = (await api.spaces.getPageInChangeRequestById(space.id, second.id, first.pages.a)).data as any;
    expect(page).toMatchObject({ id: first.pages.a, title: 'Alpha', path: 'alpha', kind: 'sheet', type: 'document' });
    const meta = (await api.spaces.listChangeRequestPageMetaLinks(space.id, second.id, first.pages.a)).data;
    expectDocumented('GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/meta-links', '200', meta);
    expect(meta).toEqual({ alternates: [] });
    expect((await sdkError(api.spaces.listChangeRequestPageMetaLinks(space.id, second.id, 'nope'))).status).toBe(404);
  });

  it('merges edits of different blocks of the same page made on both sides', async () => {
    const { api, space, owner } = await setup();
    const seed = await propose(api, space.id, [{ operation: 'insert_page', ref: 'p', title: 'Page', document: doc(para('k1', 'one'), para('k2', 'two'), para('k3', 'three')) }]);
    await merge(api, space.id, seed.id);
    const ours = await propose(api, space.id, [{ operation: 'update_page', page: seed.pages.p, document: doc(para('k1', 'ONE'), para('k2', 'two'), para('k3', 'three')) }]);
    const theirs = await propose(api, space.id, [{ operation: 'update_page', page: seed.pages.p, document: doc(para('k1', 'one'), para('k2', 'two'), para('k3', 'THREE')) }]);
    expect((await merge(api, space.id, theirs.id)).result).toBe('merge');
    const cr = (await api.spaces.getChangeRequestById(space.id, ours.id)).data;
    expect(cr.outdated).toBe(true);
    expect((await merge(api, space.id, ours.id)).result).toBe('merge');
    expect(await spaceContent(owner.token, space.id)).toEqual([{ title: 'Page', path: 'page', text: ['ONE', 'two', 'THREE'] }]);
  });

  it('answers conflicts (and writes nothing) when both sides change the same block, then merges once resolved', async () => {
    const { api, space, owner } = await setup();
    const seed = await propose(api, space.id, [{ operation: 'insert_page', ref: 'p', title: 'Page', document: doc(para('k1', 'one')) }]);
    await merge(api, space.id, seed.id);
    const ours = await propose(api, space.id, [{ operation: 'update_page', page: seed.pages.p, document: doc(para('k1', 'ours')) }]);
    const theirs = await propose(api, space.id, [{ operation: 'update_page', page: seed.pages.p, document: doc(para('k1', 'theirs')) }]);
    await merge(api, space.id, theirs.id);
    const headBefore = (await api.spaces.getSpaceById(space.id)).data.revision;
    const attempt = await merge(api, space.id, ours.id);
    expect(attempt).toEqual({ revision: headBefore, result: 'conflicts' });
    expect((await api.spaces.getSpaceById(space.id)).data.revision).toBe(headBefore);
    expect((await api.spaces.getChangeRequestById(space.id, ours.id)).data.status).toBe('draft');
    const conflicts = await gqlOk(server.url, owner.token, `query($s: ID!, $c: ID!) { space(id: $s) { changeRequest(id: $c) { conflicts { entityId reason blocks { path ours theirs } } } } }`, { s: space.id, c: ours.id });
    expect(conflicts.space.changeRequest.conflicts).toEqual([
      { entityId: seed.pages.p, reason: 'document', blocks: [{ path: ['k1'], ours: expect.objectContaining({ key: 'k1' }), theirs: expect.objectContaining({ key: 'k1' }) }] },
    ]);
    const update = (await api.spaces.updateChangeRequest(space.id, ours.id)).data;
    expect(update.result).toBe('conflicts');
    // Resolved by taking the space's text plus ours: the request edits the block once more on top of an update.
    await api.spaces.updateChangeRequestContent(space.id, ours.id, { changes: [{ operation: 'update_page', page: seed.pages.p, document: doc(para('k1', 'theirs')) }] as never });
    expect((await api.spaces.updateChangeRequest(space.id, ours.id)).data.result).toBe('update');
    expect((await api.spaces.getChangeRequestById(space.id, ours.id)).data).toMatchObject({ outdated: false, revisionMergedAncestor: headBefore });
    await api.spaces.updateChangeRequestContent(space.id, ours.id, { changes: [{ operation: 'update_page', page: seed.pages.p, document: doc(para('k1', 'both')) }] as never });
    expect((await merge(api, space.id, ours.id)).result).toBe('merge');
    expect(await spaceContent(owner.token, space.id)).toEqual([{ title: 'Page', path: 'page', text: ['both'] }]);
  });

  it('conflicts on a page deleted on one side and edited on the other, and on moves to different parents', async () => {
    const { api, space } = await setup();
    const seed = await propose(api, space.id, [
      { operation: 'insert_page', ref: 'a', title: 'A', document: doc(para('a', 'a')) },
      { operation: 'insert_page', ref: 'b', title: 'B', document: doc(para('b', 'b')) },
      { operation: 'insert_page', ref: 'c', title: 'C', document: doc(para('c', 'c')) },
    ]);
    await merge(api, space.id, seed.id);
    const del = await propose(api, space.id, [{ operation: 'delete_page', page: seed.pages.a }]);
    const edit = await propose(api, space.id, [{ operation: 'update_page', page: seed.pages.a, title: 'A2' }]);
    await merge(api, space.id, del.id);
    expect((await merge(api, space.id, edit.id)).result).toBe('conflicts');
    const underB = await propose(api, space.id, [{ operation: 'update_page', page: seed.pages.c, into: seed.pages.b }]);
    const toTop = await propose(api, space.id, [{ operation: 'insert_page', ref: 'd', title: 'D', document: {} }]);
    await merge(api, space.id, toTop.id);
    const underD = await propose(api, space.id, [{ operation: 'update_page', page: seed.pages.c, into: (await pageIdByPath(api, space.id, toTop.id, 'd')) }]);
    await merge(api, space.id, underB.id);
    expect((await merge(api, space.id, underD.id)).result).toBe('conflicts');
  });
});

describe('what a change request changes', () => {
  it('lists created, edited, moved and deleted pages and created files, with a limit', async () => {
    const { api, space, owner } = await setup();
    const seed = await propose(api, space.id, [
      { operation: 'insert_page', ref: 'a', title: 'A', document: doc(para('a', 'a')) },
      { operation: 'insert_page', ref: 'b', title: 'B', document: doc(para('b', 'b')) },
      { operation: 'insert_page', ref: 'c', title: 'C', document: {} },
    ]);
    await merge(api, space.id, seed.id);
    const cr = await propose(api, space.id, [
      { operation: 'update_page', page: seed.pages.a, title: 'A2', document: doc(para('a', 'a2')) },
      { operation: 'update_page', page: seed.pages.b, into: seed.pages.a },
      { operation: 'delete_page', page: seed.pages.c },
      { operation: 'insert_page', ref: 'd', title: 'D', document: {} },
      { operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: Buffer.from('x').toString('base64') }] },
    ]);
    const { status, body } = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/changes?limit=100`);
    expect(status).toBe(200);
    const byType = Object.fromEntries(body.changes.map((c: any) => [c.type, c]));
    expect(Object.keys(byType).sort()).toEqual(['file_created', 'page_created', 'page_deleted', 'page_edited', 'page_moved']);
    expect(byType.page_edited).toMatchObject({ page: { id: seed.pages.a, title: 'A2', path: 'a' }, attributes: { title: { before: 'A', after: 'A2' }, document: { before: expect.any(String), after: expect.any(String) } } });
    expect(byType.page_moved).toMatchObject({ page: { id: seed.pages.b, path: 'a/b' }, parent: { after: { id: seed.pages.a } } });
    expect(byType.page_moved.parent.before).toBeUndefined();
    expect(byType.page_deleted.page).toMatchObject({ id: seed.pages.c, title: 'C', path: 'c' });
    expect(byType.page_created.page).toMatchObject({ title: 'D', path: 'd' });
    expect(byType.file_created.file).toMatchObject({ name: 'a.txt', contentType: 'text/plain', downloadURL: expect.any(String) });
    const limited = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/changes?limit=2`);
    expect(limited.body).toMatchObject({ changes: [expect.any(Object), expect.any(Object)], more: 3 });
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/changes?limit=x`)).status).toBe(400);
    const fresh = await propose(api, space.id, []);
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${fresh.id}/changes`)).body).toEqual({ changes: [] });
  });
});

describe('the graph space → change requests → revision → pages', () => {
  /** An organization of `n` spaces, each with `n` open change requests of `n` pages. */
  async function seed(n: number) {
    const { org, owner } = await createOrg(server.db, `Graph ${n}`);
    const api = sdk(server.url, owner.token);
    for (let s = 0; s < n; s++) {
      const space = (await api.orgs.createSpace(org.id, { title: `S${s}` })).data;
      for (let c = 0; c < n; c++) {
        const cr = await propose(api, space.id, Array.from({ length: n }, (_, p) => ({ operation: 'insert_page', title: `P${p}`, document: doc(para(`k${p}`, `text ${p}`)) })));
        await api.spaces.updateChangeRequestById(space.id, cr.id, { status: 'open' } as never);
      }
    }
    return { org, owner };
  }

  const QUERY = `query($id: ID!) { organization(id: $id) { spaces(first: 50) { edges { node { id changeRequests(first: 50) { totalCount edges { node {
    number subject createdBy { displayName } outdated comments revision { id allPages { id title path document markdown } pages { id pages { id } } }
  } } } } } } } }`;

  it('runs a number of SQL statements that does not grow with the number of spaces, requests and pages', async () => {
    const counts: number[] = [];
    for (const n of [2, 4]) {
      const { org, owner } = await seed(n);
      server.queries.length = 0;
      const data = await gqlOk(server.url, owner.token, QUERY, { id: org.id });
      counts.push(server.queries.length);
      const spaces = data.organization.spaces.edges;
      expect(spaces).toHaveLength(n);
      for (const space of spaces) {
        expect(space.node.changeRequests.totalCount).toBe(n);
        for (const cr of space.node.changeRequests.edges) {
          expect(cr.node.revision.allPages).toHaveLength(n);
          expect(cr.node.revision.allPages[0].markdown).toContain('text 0');
        }
      }
    }
    expect(counts[1], `statements: ${counts.join(' vs ')}`).toBe(counts[0]);
  }, 120_000);
});

async function pageIdByPath(api: ReturnType<typeof sdk>, spaceId: string, crId: string, path: string): Promise<string> {
  return ((await api.spaces.getPageInChangeRequestByPath(spaceId, crId, path)).data as { id: string }).id;
}

describe('page mutations over GraphQL', () => {
  it('creates, updates, moves and deletes pages one at a time, answering the page as the request now has it', async () => {
    const { owner, space } = await setup();
    const cr = (await sdk(server.url, owner.token).spaces.createChangeRequest(space.id, {})).data;
    const run = (query: string, variables: Record<string, unknown>) => gqlOk(server.url, owner.token, query, { s: space.id, c: cr.id, ...variables });
    const guide = (await run(`mutation($s: ID!, $c: ID!) { createPage(spaceId: $s, id: $c, input: { markdown: "# Guide\\n\\nRead **me**." }) { id title path markdown } }`, {})).createPage;
    expect(guide).toMatchObject({ title: 'Guide', path: 'guide' });
    expect(guide.markdown).toContain('**me**');
    const group = (await run(`mutation($s: ID!, $c: ID!) { createPage(spaceId: $s, id: $c, type: group, input: { title: "Reference" }) { id path } }`, {})).createPage;
    const install = (await run(`mutation($s: ID!, $c: ID!, $p: ID) { createPage(spaceId: $s, id: $c, parent: $p, input: { title: "Install", document: { object: "document", data: {}, nodes: [] } }) { id path } }`, { p: guide.id })).createPage;
    expect(install.path).toBe('guide/install');
    const renamed = (await run(`mutation($s: ID!, $c: ID!, $p: ID!) { updatePage(spaceId: $s, id: $c, page: $p, input: { title: "Setup", slug: "setup", emoji: "🛠" }) { title path emoji } }`, { p: install.id })).updatePage;
    expect(renamed).toEqual({ title: 'Setup', path: 'guide/setup', emoji: '🛠' });
    const moved = (await run(`mutation($s: ID!, $c: ID!, $p: ID!, $to: ID) { movePage(spaceId: $s, id: $c, page: $p, parent: $to) { path parentId } }`, { p: install.id, to: group.id })).movePage;
    expect(moved).toEqual({ path: 'reference/setup', parentId: group.id });
    const cycle = await gql(server.url, owner.token, `mutation($s: ID!, $c: ID!, $p: ID!, $to: ID) { movePage(spaceId: $s, id: $c, page: $p, parent: $to) { path } }`, { s: space.id, c: cr.id, p: group.id, to: install.id });
    expect(cycle.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
    expect((await run(`mutation($s: ID!, $c: ID!, $p: ID!) { deletePage(spaceId: $s, id: $c, page: $p) }`, { p: group.id })).deletePage).toBe(true);
    const left = await run(`query($s: ID!, $c: ID!) { space(id: $s) { changeRequest(id: $c) { revision { allPages { title path } } } } }`, {});
    expect(left.space.changeRequest.revision.allPages).toEqual([{ title: 'Guide', path: 'guide' }]);
  });
});
