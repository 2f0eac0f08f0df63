/**
 * Content links of a space's current revision (`GET /spaces/{spaceId}/links`, `Space.links`):
 * statuses, filter, pages, stats (with open change requests) and a fixed SQL statement count.
 * Pages are written as users write them: in change requests, merged into the space.
 */
import { describe, expect, it } from 'vitest';
import { pageLinksOf } from '../src/domain/versions/content-links/revision-links.js';
import { resolveStatus } from '../src/domain/versions/content-links/status.js';
import { gql, gqlOk, http, sdk } from './helpers/clients.js';
import { createOrg, type Actor } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const link = (ref: Ref) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [text('link')] });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [text('See '), ...nodes] });
const doc = (...blocks: unknown[]) => ({ object: 'document', data: {}, nodes: blocks });

type Ref = Record<string, unknown>;
type Change = Record<string, unknown>;
type Api = ReturnType<typeof sdk>;

/** Opens a change request on the space and applies the batches of changes in turn; answers its ID and the pages created, by ref. */
async function proposeChanges(api: Api, spaceId: string, ...batches: ((pages: Record<string, string>) => Change[])[]) {
  const cr = (await api.spaces.createChangeRequest(spaceId, { subject: 'Seed' })).data;
  const pages: Record<string, string> = {};
  for (const batch of batches) {
    const result = (await api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes: batch(pages) as never }, { compat: false })).data as any;
    for (const c of result.changes) if (c.ref) pages[c.ref] = c.page.id;
  }
  return { id: cr.id, pages };
}

/** Writes pages into the space's current content: a change request, merged. */
async function publishChanges(api: Api, spaceId: string, ...batches: ((pages: Record<string, string>) => Change[])[]) {
  const { id, pages } = await proposeChanges(api, spaceId, ...batches);
  expect((await api.spaces.mergeChangeRequest(spaceId, id)).data.result).toBe('merge');
  return pages;
}

const insert = (ref: string, title: string, more: Change = {}): Change => ({ operation: 'insert_page', ref, title, document: {}, ...more });
const body = (document: unknown) => ({ document });

async function createSpace(owner: Actor, organizationId: string, title = 'Docs') {
  return (await sdk(server.url, owner.token).orgs.createSpace(organizationId, { title })).data;
}

const links = (token: string | undefined, spaceId: string, query = '') => http(server.url, token, 'GET', `/spaces/${spaceId}/links${query}`);

/** A space whose pages hold one link of every status, next to the spaces, collection and users they point at. */
async function seedStatuses() {
  const { org, owner } = await createOrg(server.db);
  const other = await createOrg(server.db, 'Elsewhere');
  const space = await createSpace(owner, org.id);
  const sibling = await createSpace(owner, org.id, 'Sibling');
  const trashed = await createSpace(owner, org.id, 'Trashed');
  await sdk(server.url, owner.token).spaces.deleteSpaceById(trashed.id);
  const foreign = await createSpace(other.owner, other.org.id, 'Foreign');
  const collection = (await sdk(server.url, owner.token).orgs.createCollection(org.id, { title: 'Guides' })).data;
  const foreignCollection = (await sdk(server.url, other.owner.token).orgs.createCollection(other.org.id, { title: 'Theirs' })).data;
  const api = sdk(server.url, owner.token);
  const siblingPage = (await publishChanges(api, sibling.id, () => [insert('intro', 'Intro')])).intro;
  const foreignPage = (await publishChanges(sdk(server.url, other.owner.token), foreign.id, () => [insert('intro', 'Intro')])).intro;

  let introId = '';
  const refs = (): [Ref, string][] => [
    [{ kind: 'url', url: 'https://example.com/docs' }, 'ok'],
    [{ kind: 'url', url: space.urls.app }, 'in-app'],
    [{ kind: 'url', url: `${space.urls.location}?x=1` }, 'in-app'],
    // Same characters as the base URL, but another port: not the app.
    [{ kind: 'url', url: `${new URL(space.urls.app).origin}0/elsewhere` }, 'ok'],
    [{ kind: 'page', page: introId }, 'ok'],
    [{ kind: 'page', page: 'page_missing' }, 'broken'],
    [{ kind: 'anchor', anchor: 'install' }, 'ok'],
    [{ kind: 'anchor', anchor: 'install', page: 'page_missing' }, 'broken'],
    [{ kind: 'page', page: siblingPage, space: sibling.id }, 'ok'],
    [{ kind: 'page', page: introId, space: sibling.id }, 'broken'],
    [{ kind: 'page', page: foreignPage, space: foreign.id }, 'broken'],
    [{ kind: 'space', space: sibling.id }, 'ok'],
    [{ kind: 'space', space: trashed.id }, 'broken'],
    [{ kind: 'space', space: foreign.id }, 'broken'],
    [{ kind: 'collection', collection: collection.id }, 'ok'],
    [{ kind: 'collection', collection: foreignCollection.id }, 'broken'],
    [{ kind: 'user', user: owner.id }, 'ok'],
    [{ kind: 'user', user: other.owner.id }, 'broken'],
    [{ kind: 'file', file: 'file_1' }, 'broken'],
    [{ kind: 'reusable-content', reusableContent: 'rc_1' }, 'broken'],
  ];
  const pages = await publishChanges(
    api,
    space.id,
    () => [insert('intro', 'Intro'), insert('reference', 'Reference', { type: 'group', document: undefined })],
    (p) => [
      insert('status', 'Status', { type: 'link', into: p.reference, document: undefined, target: { kind: 'url', url: 'https://status.example.com' } }),
    ],
    (p) => {
      introId = p.intro;
      const all = refs();
      return [
        // Inserted first among its siblings, yet listed after "intro": it is a child of a later page.
        insert('api', 'API', { into: p.reference, at: 0, document: body(doc(paragraph(link({ kind: 'page', page: p.status })))) }),
        {
          operation: 'update_page',
          page: p.intro,
          document: body(
            doc(
              paragraph(...all.slice(0, 10).map(([ref]) => link(ref))),
              // A link node without a reference has no target to report.
              paragraph({ object: 'inline', type: 'link', data: {}, nodes: [text('nowhere')] }),
              { object: 'block', type: 'expandable', data: {}, fragments: [{ object: 'fragment', fragment: 'body', nodes: [paragraph(...all.slice(10).map(([ref]) => link(ref)))] }] },
            ),
          ),
        },
      ];
    },
  );
  const linkPage = pages.status;
  const nested = pages.api;

  const expected = [
    ...refs().map(([target, status]) => ({ object: 'content-link', status, target, location: { page: introId, path: 'intro' } })),
    { object: 'content-link', status: 'ok', target: { kind: 'page', page: linkPage }, location: { page: nested, path: 'reference/api' } },
    { object: 'content-link', status: 'ok', target: { kind: 'url', url: 'https://status.example.com' }, location: { page: linkPage, path: 'reference/status' } },
  ];
  return { org, owner, other, space, expected };
}

describe('GET /spaces/{spaceId}/links', () => {
  it('lists every link of the current revision with its status, in page order', async () => {
    const { owner, space, expected } = await seedStatuses();
    const { status, body } = await links(owner.token, space.id);
    expect(status).toBe(200);
    expect(body.items).toEqual(expected);
    expect(body.count).toBe(expected.length);
    expect(body.next).toBeUndefined();
    const broken = expected.filter((l) => l.status === 'broken').length;
    expect(broken).toBe(10);
    expect(body.stats).toEqual({ total: expected.length, broken: { total: broken, changeRequest: 0 } });
  });

  it('filters by status, keeping stats over all links', async () => {
    const { owner, space, expected } = await seedStatuses();
    for (const wanted of ['ok', 'broken', 'in-app']) {
      const { status, body } = await links(owner.token, space.id, `?status=${wanted}`);
      expect(status).toBe(200);
      expect(body.items).toEqual(expected.filter((l) => l.status === wanted));
      expect(body.count).toBe(body.items.length);
      expect(body.stats.total).toBe(expected.length);
    }
  });

  it('paginates with limit and page', async () => {
    const { owner, space, expected } = await seedStatuses();
    const seen: unknown[] = [];
    let query = '?limit=7';
    for (let i = 0; i < 10; i++) {
      const { body } = await links(owner.token, space.id, query);
      expect(body.count).toBe(expected.length);
      expect(body.items.length).toBeLessThanOrEqual(7);
      seen.push(...body.items);
      if (!body.next) break;
      query = `?limit=7&page=${encodeURIComponent(body.next.page)}`;
    }
    expect(seen).toEqual(expected);
    const empty = await links(owner.token, space.id, '?limit=0');
    expect(empty.body).toMatchObject({ items: [], count: expected.length });
  });

  it('counts broken links of open change requests in stats, not of draft ones', async () => {
    const { org, owner } = await createOrg(server.db);
    const space = await createSpace(owner, org.id);
    const api = sdk(server.url, owner.token);
    const main = (await publishChanges(api, space.id, () => [insert('main', 'Main', { document: body(doc(paragraph(link({ kind: 'page', page: 'page_gone' })))) })])).main;

    // The open request removes `main` and adds a page linking to it (now broken there), to itself, and to a tag.
    const open = await proposeChanges(
      api,
      space.id,
      () => [{ operation: 'delete_page', page: main }, insert('proposed', 'Proposed')],
      (p) => [{ operation: 'update_page', page: p.proposed, document: body(doc(paragraph(link({ kind: 'page', page: main }), link({ kind: 'page', page: p.proposed }), link({ kind: 'tag', tag: 'beta' })))) }],
    );
    await api.spaces.updateChangeRequestById(space.id, open.id, { status: 'open' } as never);
    // The draft keeps `main` (and its broken link) and adds two more broken links.
    const draft = await proposeChanges(api, space.id, () => [insert('draft', 'Draft', { document: body(doc(paragraph(link({ kind: 'file', file: 'f' }), link({ kind: 'space', space: 'spc_none' })))) })]);

    const { body: answer } = await links(owner.token, space.id);
    expect(answer.items.map((l: { status: string }) => l.status)).toEqual(['broken']);
    expect(answer.stats).toEqual({ total: 1, broken: { total: 1, changeRequest: 2 } });

    await api.spaces.updateChangeRequestById(space.id, draft.id, { status: 'open' } as never);
    expect((await links(owner.token, space.id)).body.stats.broken.changeRequest).toBe(5);
  });

  it('refuses link pages whose target is not a content reference of its kind (400 naming the field), writing nothing', async () => {
    const { org, owner } = await createOrg(server.db);
    const space = await createSpace(owner, org.id);
    const cr = (await sdk(server.url, owner.token).spaces.createChangeRequest(space.id, { subject: 'Links' })).data;
    const content = `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`;
    const bad: [Ref, string][] = [
      [{ kind: 'url', url: 5 }, 'url'],
      [{ kind: 'url', url: { a: 1 } }, 'url'],
      [{ kind: 'url' }, 'url'],
      [{ kind: 'page', page: 5 }, 'page'],
      [{ kind: 'space', space: ['x'] }, 'space'],
      [{ kind: 'user', user: null }, 'user'],
      [{ kind: 'url', url: 'https://example.com', evil: 'x'.repeat(2000) }, ''],
      [{ kind: 'tag', tag: 'x' }, 'kind'],
    ];
    for (const [target, field] of bad) {
      const response = await http(server.url, owner.token, 'POST', content, { changes: [{ operation: 'insert_page', type: 'link', title: 'L', target }] });
      expect({ target, status: response.status }).toEqual({ target, status: 400 });
      expect(response.body.error.message).toContain(`target${field ? `.${field}` : ''}`);
    }
    const pages = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content`);
    expect(pages.body.pages).toEqual([]);
    const ok = await http(server.url, owner.token, 'POST', content, { changes: [{ operation: 'insert_page', type: 'link', title: 'L', target: { kind: 'page', page: 'page_x', space: space.id } }] });
    expect(ok.status).toBe(200);
  });

  it('answers 400 naming a bad status, 401 without a token, 404 for unknown spaces and other organizations', async () => {
    const { owner, space, other } = await seedStatuses();
    const bad = await links(owner.token, space.id, '?status=dead');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Invalid value for "status": must be one of ok, broken, in-app');
    expect((await links(undefined, space.id)).status).toBe(401);
    expect(await links(other.owner.token, space.id)).toEqual({ status: 404, body: { error: { code: 404, message: 'Space not found' } } });
    expect((await links(other.owner.token, 'spc_unknown')).status).toBe(404);
  });

  it('rejects the GraphQL spelling of in-app, and answers 404 for a deleted space', async () => {
    const { owner, space } = await seedStatuses();
    const bad = await links(owner.token, space.id, '?status=in_app');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('"status"');
    await sdk(server.url, owner.token).spaces.deleteSpaceById(space.id);
    expect((await links(owner.token, space.id)).status).toBe(404);
  });
});

describe('Space.links over GraphQL', () => {
  const QUERY = /* GraphQL */ `
    query Links($id: ID!, $status: ContentLinkStatus, $first: Int) {
      space(id: $id) {
        links(status: $status, first: $first) {
          totalCount
          edges { node { status target location { page path } } }
          stats { total broken { total changeRequest } }
        }
      }
    }
  `;

  it('lists links with stats, `in_app` for in-app', async () => {
    const { owner, space, expected } = await seedStatuses();
    const data = await gqlOk(server.url, owner.token, QUERY, { id: space.id, status: 'in_app' });
    const inApp = expected.filter((l) => l.status === 'in-app');
    expect(data.space.links.totalCount).toBe(inApp.length);
    expect(data.space.links.edges.map((e: { node: unknown }) => e.node)).toEqual(inApp.map(({ object: _, ...l }) => ({ ...l, status: 'in_app' })));
    const broken = expected.filter((l) => l.status === 'broken').length;
    expect(data.space.links.stats).toEqual({ total: expected.length, broken: { total: broken, changeRequest: 0 } });

    const unknown = await gql(server.url, owner.token, QUERY, { id: space.id, status: 'in-app' });
    expect(unknown.errors?.[0].message).toContain('ContentLinkStatus');
  });
});

describe('link statuses', () => {
  /** A space with `n` pages, each linking to every kind of target, and an open change request changing each of them. */
  async function seed(n: number) {
    const { org, owner } = await createOrg(server.db, `Links ${n}`);
    const api = sdk(server.url, owner.token);
    const space = await createSpace(owner, org.id);
    const sibling = await createSpace(owner, org.id, 'Sibling');
    const collection = (await api.orgs.createCollection(org.id, { title: 'C' })).data;
    const siblingPages = await publishChanges(api, sibling.id, () => Array.from({ length: n }, (_, i) => insert(`s${i}`, `S${i}`)));
    const pageDocument = (i: number, suffix: string) =>
      body(
        doc(
          paragraph(
            link({ kind: 'url', url: `https://example.com/${i}${suffix}` }),
            link({ kind: 'url', url: `${space.urls.app}/${i}` }),
            link({ kind: 'page', page: `page_missing_${i}` }),
            link({ kind: 'anchor', anchor: `a${i}` }),
            link({ kind: 'page', page: siblingPages[`s${i}`], space: sibling.id }),
            link({ kind: 'space', space: i % 2 ? sibling.id : `spc_missing_${i}` }),
            link({ kind: 'collection', collection: i % 2 ? collection.id : `col_missing_${i}` }),
            link({ kind: 'user', user: i % 2 ? owner.id : `usr_missing_${i}` }),
            link({ kind: 'file', file: `file_${i}` }),
          ),
        ),
      );
    const pages = await publishChanges(api, space.id, () => Array.from({ length: n }, (_, i) => insert(`p${i}`, `Page ${i}`, { document: pageDocument(i, '') })));
    const open = await proposeChanges(api, space.id, () => Array.from({ length: n }, (_, i) => ({ operation: 'update_page', page: pages[`p${i}`], document: pageDocument(i, '?v2') })));
    await api.spaces.updateChangeRequestById(space.id, open.id, { status: 'open' } as never);
    return { owner, space };
  }

  async function statementsFor(n: number) {
    const { owner, space } = await seed(n);
    server.queries.length = 0;
    const { status, body } = await links(owner.token, space.id);
    const count = server.queries.length;
    expect(status).toBe(200);
    expect(body.count).toBe(9 * n);
    // Per page: the missing page and the file, and on even pages the space, collection and user.
    const broken = 2 * n + 3 * (n / 2);
    expect(body.stats).toEqual({ total: 9 * n, broken: { total: broken, changeRequest: broken } });
    return { count, sql: [...server.queries] };
  }

  it('are decided with a number of SQL statements that does not grow with pages and links', async () => {
    const small = await statementsFor(2);
    const large = await statementsFor(20);
    expect(small.count).toBeGreaterThan(0);
    expect(large.count, `2 pages:\n${small.sql.join('\n')}\n\n20 pages:\n${large.sql.join('\n')}`).toBe(small.count);
  }, 120_000);
});

describe('resolveStatus', () => {
  it('treats URLs under the app URL or the public URL as in-app, at a path boundary', () => {
    const urls = { appUrl: 'https://app.example', publicUrl: 'https://api.example:8443' };
    const space = { id: 'spc_a', organizationId: 'org_a' };
    const targets = { spaces: new Map(), collections: new Map(), members: new Set<string>(), pages: new Set<string>() };
    const statusOf = (url: string) => {
      const links = pageLinksOf({ type: 'document', data: {} }, { page: 'page_a', path: 'a' }, [{ kind: 'url', url }]);
      const source = { space, pageIds: new Set(['page_a']), links };
      return resolveStatus(source.links[0], source, targets, urls);
    };
    expect(statusOf('https://app.example')).toBe('in-app');
    expect(statusOf('https://app.example/s/spc_a#top')).toBe('in-app');
    expect(statusOf('https://api.example:8443/v1/spaces/spc_a')).toBe('in-app');
    expect(statusOf('https://app.example.org/docs')).toBe('ok');
    expect(statusOf('https://api.example:84430/v1')).toBe('ok');
    expect(statusOf('http://app.example/s/spc_a')).toBe('ok');
  });
});
