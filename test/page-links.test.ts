/**
 * Links of one page and backlinks of pages and files (API 4.7 `…/page/{pageId}/links`,
 * `…/page/{pageId}/backlinks`, `…/files/{fileId}/backlinks`; `Page.links`, `Page.backlinks`,
 * `RevisionFile.backlinks`), kept as "DocumentLink" rows written with the documents. Content is
 * written as users write it: in change requests, merged into the space.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { documentLinkRows, linkPageTarget } from '../src/lib/documents/extract-links.js';
import { gqlOk, http, sdk } from './helpers/clients.js';
import { createOrg, type Actor } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

type Ref = Record<string, unknown>;
type Change = Record<string, unknown>;
type Api = ReturnType<typeof sdk>;

const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const link = (ref: Ref) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [text('link')] });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [text('See '), ...nodes] });
const doc = (...blocks: unknown[]) => ({ object: 'document', data: {}, nodes: blocks });
/** A document page's body: one paragraph of links. */
const linking = (...refs: Ref[]) => ({ document: doc(paragraph(...refs.map(link))) });

const insert = (ref: string, title: string, more: Change = {}): Change => ({ operation: 'insert_page', ref, title, document: {}, ...more });
const linkPage = (ref: string, title: string, target: Ref, more: Change = {}): Change => insert(ref, title, { type: 'link', document: undefined, target, ...more });

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

type Refs = Record<string, string>;

/** Applies batches of changes to a change request; `refs` collects the IDs of created pages and files by ref. */
async function write(owner: Actor, spaceId: string, crId: string, refs: Refs, ...batches: ((refs: Refs) => Change[])[]) {
  for (const batch of batches) {
    const { status, body } = await http(server.url, owner.token, 'POST', `/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { changes: batch(refs) });
    expect(status, JSON.stringify(body)).toBe(200);
    for (const c of body.changes) if (c.ref) refs[c.ref] = c.page.id;
  }
  return refs;
}

async function openRequest(api: Api, spaceId: string, subject = 'Edits') {
  return (await api.spaces.createChangeRequest(spaceId, { subject })).data;
}

async function merge(api: Api, spaceId: string, crId: string) {
  expect((await api.spaces.mergeChangeRequest(spaceId, crId)).data.result).toBe('merge');
}

async function insertFile(owner: Actor, spaceId: string, crId: string, name: string): Promise<string> {
  const { body } = await http(server.url, owner.token, 'POST', `/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, {
    changes: [{ operation: 'insert_files', files: [{ name, contentType: 'image/png', base64: PNG }] }],
  });
  return body.insertedFiles[0].id;
}

async function createReusableContent(owner: Actor, spaceId: string, crId: string): Promise<string> {
  const data = await gqlOk(server.url, owner.token, `mutation($s: ID!, $c: ID!, $d: JSON) { createReusableContent(spaceId: $s, id: $c, title: "Note", document: $d) { id } }`, {
    s: spaceId,
    c: crId,
    d: { markdown: 'Careful.' },
  });
  return data.createReusableContent.id;
}

const cr = (spaceId: string, crId: string) => `/spaces/${spaceId}/change-requests/${crId}/content`;
const get = (token: string | undefined, path: string) => http(server.url, token, 'GET', path);
const pageIdsOf = (body: { items: { page: { id: string } }[] }) => body.items.map((l) => l.page.id);

/** The links of `source`: one of every kind of target, ok, in-app and broken. */
function sourceRefs(p: Refs, at: { logo: string; reusable: string; spaceId: string; appUrl: string }): Ref[] {
  return [
    { kind: 'page', page: p.target },
    { kind: 'anchor', anchor: 'install', page: p.target },
    { kind: 'anchor', anchor: 'top' },
    { kind: 'file', file: at.logo },
    { kind: 'url', url: 'https://example.com/docs' },
    { kind: 'url', url: `${at.appUrl}/elsewhere` },
    { kind: 'page', page: 'page_missing' },
    { kind: 'file', file: 'file_missing' },
    { kind: 'reusable-content', reusableContent: at.reusable },
    { kind: 'reusable-content', reusableContent: 'rc_missing' },
    { kind: 'space', space: at.spaceId },
    { kind: 'page', page: p.doomed },
  ];
}

/**
 * A published space: `target` (with a child), `doomed`, `other` (links to `target` and the
 * logo), `shortcut` (a link page to `target`), `logoPage` (a link page to the logo) and `source`,
 * whose document links to one of every kind of target. Then an open change request `edits`.
 */
async function seed() {
  const { org, owner } = await createOrg(server.db);
  const other = await createOrg(server.db, 'Elsewhere');
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Docs' })).data;
  const first = await openRequest(api, space.id, 'Seed');
  const logo = await insertFile(owner, space.id, first.id, 'logo.png');
  const unused = await insertFile(owner, space.id, first.id, 'unused.png');
  const reusable = await createReusableContent(owner, space.id, first.id);
  const pages = await write(
    owner,
    space.id,
    first.id,
    {},
    () => [insert('target', 'Target'), insert('doomed', 'Doomed'), insert('guides', 'Guides', { type: 'group', document: undefined })],
    (p) => [
      insert('child', 'Child', { into: p.target }),
      insert('other', 'Other', { into: p.guides, document: linking({ kind: 'page', page: p.target }, { kind: 'file', file: logo }, { kind: 'page', page: p.target }) }),
      linkPage('shortcut', 'Shortcut', { kind: 'page', page: p.target }),
      linkPage('logoPage', 'Logo', { kind: 'file', file: logo }),
      // Names the target's ID in another space: not a link to this space's page.
      insert('elsewhere', 'Elsewhere', { document: linking({ kind: 'page', page: p.target, space: 'spc_other' }) }),
    ],
    (p) => [
      insert('source', 'Source', {
        document: linking(...sourceRefs(p, { logo, reusable, spaceId: space.id, appUrl: space.urls.app })),
      }),
    ],
  );
  await merge(api, space.id, first.id);
  const edits = await openRequest(api, space.id);
  return { org, owner, other, api, space, first, edits, pages, logo, unused, reusable };
}

describe('GET …/content/page/{pageId}/links', () => {
  it('lists the links of one page with their statuses, in document order, with stats', async () => {
    const { org, owner, space, edits, pages, logo, reusable } = await seed();
    // The request removes a page the source links to, and adds a broken link.
    const source = (p: Refs) => [
      { operation: 'delete_page', page: p.doomed },
      {
        operation: 'update_page',
        page: p.source,
        document: linking(...sourceRefs(p, { logo, reusable, spaceId: space.id, appUrl: space.urls.app }), { kind: 'page', page: 'page_new_missing' }),
      },
    ];
    await write(owner, space.id, edits.id, { ...pages }, source);

    const { status, body } = await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.source}/links`);
    expect(status).toBe(200);
    const expected: [Ref, string][] = [
      [{ kind: 'page', page: pages.target }, 'ok'],
      [{ kind: 'anchor', anchor: 'install', page: pages.target }, 'ok'],
      [{ kind: 'anchor', anchor: 'top' }, 'ok'],
      [{ kind: 'file', file: logo }, 'ok'],
      [{ kind: 'url', url: 'https://example.com/docs' }, 'ok'],
      [{ kind: 'url', url: `${space.urls.app}/elsewhere` }, 'in-app'],
      [{ kind: 'page', page: 'page_missing' }, 'broken'],
      [{ kind: 'file', file: 'file_missing' }, 'broken'],
      [{ kind: 'reusable-content', reusableContent: reusable }, 'ok'],
      [{ kind: 'reusable-content', reusableContent: 'rc_missing' }, 'broken'],
      [{ kind: 'space', space: space.id }, 'ok'],
      [{ kind: 'page', page: pages.doomed }, 'broken'],
      [{ kind: 'page', page: 'page_new_missing' }, 'broken'],
    ];
    expect(body.items.map((l: { target: Ref; status: string }) => [l.target, l.status])).toEqual(expected);
    expect(body.count).toBe(expected.length);
    // Broken in the request: the deleted page and the new link (the other broken links were already broken).
    expect(body.stats).toEqual({ total: expected.length, broken: { total: 5, changeRequest: 2 } });

    const [first] = body.items;
    expect(first).toMatchObject({ status: 'ok', relation: 'reference', locationReferences: [{ kind: 'page' }] });
    expect(body.items[4].targetReference).toEqual({ kind: 'url', url: 'https://example.com/docs' });
    const location = first.locationReferences[0];
    expect(location.organization).toMatchObject({ object: 'organization', id: org.id });
    expect(location.space).toMatchObject({ object: 'space', id: space.id });
    expect(location.page).toMatchObject({ id: pages.source, type: 'document', path: 'source', pages: [] });

    // Pages of `limit`, stats over every link.
    const seen: unknown[] = [];
    let query = '?limit=5';
    for (let i = 0; i < 5; i++) {
      const { body: page } = await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.source}/links${query}`);
      expect(page.count).toBe(expected.length);
      expect(page.stats.total).toBe(expected.length);
      seen.push(...page.items.map((l: { target: Ref }) => l.target));
      if (!page.next) break;
      query = `?limit=5&page=${encodeURIComponent(page.next.page)}`;
    }
    expect(seen).toEqual(expected.map(([ref]) => ref));
  });

  it('lists a link page\'s target, and nothing for a group; 404 for a missing page', async () => {
    const { owner, space, edits, pages } = await seed();
    const shortcut = await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.shortcut}/links`);
    expect(shortcut.body.items.map((l: { target: Ref; status: string }) => [l.target, l.status])).toEqual([[{ kind: 'page', page: pages.target }, 'ok']]);
    expect(shortcut.body.stats).toEqual({ total: 1, broken: { total: 0, changeRequest: 0 } });
    const group = await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.guides}/links`);
    expect(group.body).toEqual({ items: [], count: 0, stats: { total: 0, broken: { total: 0, changeRequest: 0 } } });
    expect(await get(owner.token, `${cr(space.id, edits.id)}/page/page_missing/links`)).toEqual({ status: 404, body: { error: { code: 404, message: 'Page not found' } } });
  });
});

describe('links to other spaces', () => {
  it('are ok when the page or reusable content is in the current revision of a live space of the organization', async () => {
    const { org, owner, other, api, space, edits, pages } = await seed();
    const sibling = (await api.orgs.createSpace(org.id, { title: 'Sibling' })).data;
    const request = await openRequest(api, sibling.id);
    const shared = await createReusableContent(owner, sibling.id, request.id);
    const siblingPages = await write(owner, sibling.id, request.id, {}, () => [insert('intro', 'Intro')]);
    await merge(api, sibling.id, request.id);
    const foreignSpace = (await sdk(server.url, other.owner.token).orgs.createSpace(other.org.id, { title: 'Foreign' })).data;
    const refs: [Ref, string][] = [
      [{ kind: 'reusable-content', reusableContent: shared, space: sibling.id }, 'ok'],
      [{ kind: 'reusable-content', reusableContent: shared }, 'broken'],
      [{ kind: 'reusable-content', reusableContent: 'rc_missing', space: sibling.id }, 'broken'],
      [{ kind: 'reusable-content', reusableContent: shared, space: foreignSpace.id }, 'broken'],
      [{ kind: 'page', page: siblingPages.intro, space: sibling.id }, 'ok'],
      [{ kind: 'page', page: pages.target, space: sibling.id }, 'broken'],
    ];
    await write(owner, space.id, edits.id, { ...pages }, (p) => [{ operation: 'update_page', page: p.other, document: linking(...refs.map(([ref]) => ref)) }]);
    const { body } = await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.other}/links`);
    expect(body.items.map((l: { target: Ref; status: string }) => [l.target, l.status])).toEqual(refs);
    // The target page is no longer linked from `other` in the request (its links name another space).
    expect(pageIdsOf((await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.target}/backlinks`)).body)).toEqual([pages.shortcut, pages.source].sort());
  });
});

describe('Page.links over GraphQL', () => {
  it('filters by status and has no change-request count in the space revision', async () => {
    const { owner, space, pages } = await seed();
    const data = await gqlOk(
      server.url,
      owner.token,
      `query($s: ID!, $p: ID!) { space(id: $s) { revision { page(id: $p) {
        broken: links(status: broken) { totalCount edges { node { status target } } stats { total broken { total changeRequest } } }
        inApp: links(status: in_app, first: 1) { totalCount }
      } } } }`,
      { s: space.id, p: pages.source },
    );
    const page = data.space.revision.page;
    expect(page.broken.edges.map((e: { node: { target: Ref } }) => e.node.target)).toEqual([
      { kind: 'page', page: 'page_missing' },
      { kind: 'file', file: 'file_missing' },
      { kind: 'reusable-content', reusableContent: 'rc_missing' },
    ]);
    expect(page.broken.stats).toEqual({ total: 12, broken: { total: 3, changeRequest: null } });
    expect(page.inApp.totalCount).toBe(1);
  });
});

describe('backlinks', () => {
  it('lists the pages linking to a page, from documents and link pages, once each, by page ID', async () => {
    const { org, owner, space, edits, pages } = await seed();
    const { status, body } = await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.target}/backlinks`);
    expect(status).toBe(200);
    const expected = [pages.other, pages.shortcut, pages.source].sort();
    expect(pageIdsOf(body)).toEqual(expected);
    expect(body.count).toBe(3);
    const other = body.items.find((l: { page: { id: string } }) => l.page.id === pages.other);
    expect(other).toMatchObject({ kind: 'page', organization: { object: 'organization', id: org.id }, space: { object: 'space', id: space.id } });
    expect(other.page).toMatchObject({ id: pages.other, title: 'Other', path: 'guides/other', pages: [] });
    const shortcut = body.items.find((l: { page: { id: string } }) => l.page.id === pages.shortcut);
    expect(shortcut.page).toMatchObject({ type: 'link', target: { kind: 'page', page: pages.target } });

    // The page with a child links to nothing; its own record still has its subtree.
    const child = await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.child}/backlinks`);
    expect(child.body).toEqual({ items: [], count: 0 });
  });

  it('lists the pages linking to a file', async () => {
    const { owner, space, edits, pages, logo, unused } = await seed();
    const { body } = await get(owner.token, `${cr(space.id, edits.id)}/files/${logo}/backlinks`);
    expect(pageIdsOf(body)).toEqual([pages.logoPage, pages.other, pages.source].sort());
    expect(body.count).toBe(3);
    expect((await get(owner.token, `${cr(space.id, edits.id)}/files/${unused}/backlinks`)).body).toEqual({ items: [], count: 0 });
    expect(await get(owner.token, `${cr(space.id, edits.id)}/files/file_missing/backlinks`)).toEqual({ status: 404, body: { error: { code: 404, message: 'File not found' } } });
  });

  it('follows edits and merges: a removed link leaves the new revision\'s backlinks, not the old one\'s', async () => {
    const { owner, api, space, first, edits, pages, logo } = await seed();
    // In the request: `other` drops its links, `shortcut` points elsewhere, a new page links to the target and a subpage of it.
    await write(owner, space.id, edits.id, { ...pages }, (p) => [
      { operation: 'update_page', page: p.other, document: linking({ kind: 'url', url: 'https://example.com' }) },
      { operation: 'update_page', page: p.shortcut, target: { kind: 'url', url: 'https://example.com' } },
      { operation: 'delete_page', page: p.logoPage },
      insert('fresh', 'Fresh', { into: p.child, document: linking({ kind: 'anchor', anchor: 'a', page: p.target }, { kind: 'file', file: logo }) }),
    ]);
    const inRequest = await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.target}/backlinks`);
    const fresh = inRequest.body.items.find((l: { page: { title: string } }) => l.page.title === 'Fresh');
    expect(fresh.page.path).toBe('target/child/fresh');
    expect(pageIdsOf(inRequest.body)).toEqual([fresh.page.id, pages.source].sort());
    expect(pageIdsOf((await get(owner.token, `${cr(space.id, edits.id)}/files/${logo}/backlinks`)).body)).toEqual([fresh.page.id, pages.source].sort());

    const spaceBacklinks = async () => {
      const data = await gqlOk(
        server.url,
        owner.token,
        `query($s: ID!, $p: ID!, $f: ID!) { space(id: $s) { revision {
          page(id: $p) { backlinks { totalCount edges { node { id path } } } }
          file(id: $f) { backlinks { totalCount edges { node { id } } } }
        } } }`,
        { s: space.id, p: pages.target, f: logo },
      );
      const { page, file } = data.space.revision;
      return { page: page.backlinks.edges.map((e: { node: { id: string } }) => e.node.id), pageCount: page.backlinks.totalCount, file: file.backlinks.edges.map((e: { node: { id: string } }) => e.node.id) };
    };
    // The space's revision is not changed by the open request.
    expect(await spaceBacklinks()).toEqual({ page: [pages.other, pages.shortcut, pages.source].sort(), pageCount: 3, file: [pages.logoPage, pages.other, pages.source].sort() });

    await merge(api, space.id, edits.id);
    expect(await spaceBacklinks()).toEqual({ page: [fresh.page.id, pages.source].sort(), pageCount: 2, file: [fresh.page.id, pages.source].sort() });
    // The first request's revision (older content) keeps its backlinks.
    const old = await get(owner.token, `${cr(space.id, first.id)}/page/${pages.target}/backlinks`);
    expect(pageIdsOf(old.body)).toEqual([pages.other, pages.shortcut, pages.source].sort());
    const oldFile = await get(owner.token, `${cr(space.id, first.id)}/files/${logo}/backlinks`);
    expect(pageIdsOf(oldFile.body)).toEqual([pages.logoPage, pages.other, pages.source].sort());
  });

  it('paginates by page ID with limit and page', async () => {
    const { owner, space, edits, pages } = await seed();
    const seen: string[] = [];
    let query = '?limit=2';
    for (let i = 0; i < 5; i++) {
      const { body } = await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.target}/backlinks${query}`);
      expect(body.count).toBe(3);
      expect(body.items.length).toBeLessThanOrEqual(2);
      seen.push(...pageIdsOf(body));
      if (!body.next) break;
      query = `?limit=2&page=${encodeURIComponent(body.next.page)}`;
    }
    expect(seen).toEqual([pages.other, pages.shortcut, pages.source].sort());
    expect((await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.target}/backlinks?limit=0`)).body).toEqual({ items: [], count: 3 });
    // A cursor of another list is refused.
    const files = await get(owner.token, `${cr(space.id, edits.id)}/files?limit=1`);
    expect((await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.target}/backlinks?page=${encodeURIComponent(files.body.next.page)}`)).status).toBe(400);
  });

  it('answers 404 to another organization, 401 without a token', async () => {
    const { other, owner, space, edits, pages, logo } = await seed();
    for (const suffix of [`/page/${pages.target}/backlinks`, `/page/${pages.source}/links`, `/files/${logo}/backlinks`]) {
      expect(await get(other.owner.token, `${cr(space.id, edits.id)}${suffix}`)).toEqual({ status: 404, body: { error: { code: 404, message: 'Space not found' } } });
      expect((await get(undefined, `${cr(space.id, edits.id)}${suffix}`)).status).toBe(401);
      expect((await get(owner.token, `${cr(space.id, 'cr_missing')}${suffix}`)).status).toBe(404);
    }
  });

  it('of a page cost a number of SQL statements that does not grow with the space', async () => {
    async function statementsFor(n: number) {
      const { org, owner } = await createOrg(server.db, `Backlinks ${n}`);
      const api = sdk(server.url, owner.token);
      const space = (await api.orgs.createSpace(org.id, { title: 'Docs' })).data;
      const request = await openRequest(api, space.id);
      const pages = await write(owner, space.id, request.id, {}, () => [insert('target', 'Target'), insert('group', 'Group', { type: 'group', document: undefined })]);
      const linkers = (from: number, to: number) => (p: Refs) =>
        Array.from({ length: to - from }, (_, k) => {
          const i = from + k;
          // Every other page links to the target (some through an anchor), every fifth is a link page to it.
          if (i % 5 === 0) return linkPage(`p${i}`, `Page ${i}`, { kind: 'page', page: p.target }, { into: p.group });
          const refs = i % 2 ? [{ kind: 'anchor', anchor: `a${i}`, page: p.target }] : [{ kind: 'url', url: `https://example.com/${i}` }];
          return insert(`p${i}`, `Page ${i}`, { into: p.group, document: linking(...refs) });
        });
      for (let from = 0; from < n; from += 30) await write(owner, space.id, request.id, pages, linkers(from, Math.min(n, from + 30)));
      await merge(api, space.id, request.id);
      const edits = await openRequest(api, space.id);
      // The request changes a few pages: backlinks there read the request's rows and the space's.
      await write(owner, space.id, edits.id, pages, (p) => [{ operation: 'update_page', page: p.p1, document: linking({ kind: 'url', url: 'https://example.com' }) }]);

      const expected = Array.from({ length: n }, (_, i) => i).filter((i) => i !== 1 && (i % 5 === 0 || i % 2 === 1)).length;
      server.queries.length = 0;
      const { status, body } = await get(owner.token, `${cr(space.id, edits.id)}/page/${pages.target}/backlinks`);
      const count = server.queries.length;
      expect(status).toBe(200);
      expect(body.count).toBe(expected);
      expect(body.items).toHaveLength(expected);
      // Link pages' records have no path (as documented).
      expect(body.items.every((l: { page: { type: string; path?: string } }) => l.page.type === 'link' || l.page.path!.startsWith('group/'))).toBe(true);
      return { count, sql: [...server.queries] };
    }
    const small = await statementsFor(10);
    const large = await statementsFor(60);
    expect(small.count).toBeGreaterThan(0);
    expect(large.count, `10 pages:\n${small.sql.join('\n')}\n\n60 pages:\n${large.sql.join('\n')}`).toBe(small.count);
  }, 120_000);
});

describe('DocumentLink rows', () => {
  const migrations = path.resolve(import.meta.dirname, '../prisma/migrations');
  const migration = readFileSync(path.join(migrations, readdirSync(migrations).find((n) => n.endsWith('_document_links'))!, 'migration.sql'), 'utf8');

  it('are what the migration backfills for documents stored before it, and link pages get their link target', async () => {
    const backfill = migration.slice(migration.indexOf('-- Backfill: DocumentLink'));
    expect(backfill).toContain('INSERT INTO "DocumentLink"');
    const odd = { object: 'inline', type: 'link', data: { ref: 'not an object' }, nodes: [] };
    const document = doc(
      paragraph(link({ kind: 'page', page: 'page_a', space: 'spc_b' }), { ...link({ kind: 'url', url: 'https://x' }), nodes: [link({ kind: 'anchor', anchor: 'z' })] }, odd),
      {
        object: 'block',
        type: 'tabs',
        data: {},
        nodes: [
          paragraph(link({ kind: 'file', file: 'file_a' })),
          { object: 'block', type: 'images', data: {}, nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'file_img' } } }] },
          { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'file_att' } } },
          { object: 'block', type: 'content-ref', data: { ref: { kind: 'page', page: 'page_ref' } }, nodes: [] },
          { object: 'block', type: 'paragraph', data: { ref: { kind: 'page', page: 'page_not_a_ref_block' } }, nodes: [] },
        ],
        fragments: [{ object: 'fragment', fragment: 'f', nodes: [paragraph(link({ kind: 'reusable-content', reusableContent: 'rc_a' }), link({ kind: 'user', user: 7 }), link({ kind: 'tag', tag: 't' }))] }],
      },
      paragraph({ object: 'inline', type: 'link', data: {}, nodes: [] }, link({ kind: 'collection', collection: 'col_a' }), link({ page: 'page_x' })),
    );
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      // Tables of this transaction only, which the migration's statements name first (pg_temp comes first in the search path).
      await client.query(`CREATE TEMP TABLE "Document" (LIKE public."Document" INCLUDING ALL) ON COMMIT DROP;
        CREATE TEMP TABLE "DocumentLink" (LIKE public."DocumentLink" INCLUDING ALL) ON COMMIT DROP;
        CREATE TEMP TABLE "ContentEntry" (LIKE public."ContentEntry" INCLUDING ALL) ON COMMIT DROP;`);
      await client.query(`INSERT INTO "Document" ("id", "body", "size") VALUES ('doc_a', $1, 1), ('doc_empty', '{}', 1)`, [JSON.stringify(document)]);
      const targets = [{ kind: 'page', page: 'page_t' }, { kind: 'anchor', anchor: 'x', page: 'page_u' }, { kind: 'file', file: 'file_t' }, { kind: 'url', url: 'https://x' }, { kind: 'page' }];
      for (const [i, target] of targets.entries()) {
        await client.query(`INSERT INTO "ContentEntry" ("spaceId", "lineId", "fromSeq", "kind", "entityId", "type", "data", "createdAt") VALUES ('spc', 'spc', 1, 'page', $1, 'link', $2, now())`, [`page_${i}`, JSON.stringify({ target })]);
      }
      await client.query(backfill);
      // Idempotent: a second run adds nothing.
      await client.query(backfill);
      const { rows } = await client.query(`SELECT "ordinal", "kind", "target", "ref" FROM "DocumentLink" WHERE "documentId" = 'doc_a' ORDER BY "ordinal"`);
      expect(rows).toEqual(documentLinkRows(document));
      expect(rows.map((r) => r.kind)).toEqual(['page', 'url', 'anchor', 'file', 'file', 'file', 'page', 'reusable-content', 'user', 'tag', 'collection', '']);
      const entries = await client.query(`SELECT "entityId", "linkTarget" FROM "ContentEntry" ORDER BY "entityId"`);
      expect(entries.rows.map((r) => r.linkTarget)).toEqual(targets.map((t) => linkPageTarget(t)));
      expect(entries.rows.map((r) => r.linkTarget)).toEqual(['page_t', 'page_u', 'file_t', null, null]);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });

  it('are written with the documents the content writes store', async () => {
    const { space, pages, logo } = await seed();
    const rows = await server.db.$queryRawUnsafe<{ kind: string; target: string | null }[]>(
      `SELECT l."kind", l."target" FROM "ContentEntry" e JOIN "DocumentLink" l ON l."documentId" = e."documentId"
       WHERE e."lineId" = $1 AND e."entityId" = $2 AND e."toSeq" IS NULL ORDER BY l."ordinal"`,
      space.id,
      pages.other,
    );
    expect(rows).toEqual([
      { kind: 'page', target: pages.target },
      { kind: 'file', target: logo },
      { kind: 'page', target: pages.target },
    ]);
  });
});
