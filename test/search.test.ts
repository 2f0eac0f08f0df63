/**
 * Organization search (API 4.8, `GET /orgs/{organizationId}/search`, GraphQL `Organization.search`):
 * pages split into sections at their headings, ranking (titles over headings over bodies), who
 * sees what, the index following merges and duplicates, pages of spaces with cursors, and input
 * that must be refused (400 naming the field) or must simply work (never a 500).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { MemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { createPrismaClient } from '../src/db/client.js';
import { ensureDatabase } from '../src/db/embedded.js';
import { applyMigrations, diffMigrationsToSchema } from '../src/db/schema-engine.js';
import { searchOrganization, type SearchPage } from '../src/domain/versions/search/query.js';
import { pageSections } from '../src/domain/versions/search/sections.js';
import type { JSONDocument } from '../src/lib/documents/types.js';
import { gql, gqlOk, http, sdk } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer({ worker: true });
type Api = ReturnType<typeof sdk>;
type Change = Record<string, unknown>;
type Hit = { id: string; title: string; score: number; pages: { id: string; title: string; path: string; rank: number; score: number; sections: { id: string; title: string; path: string; body: string; urls: { app: string } }[]; urls: { app: string } }[] };

/** Opens a change request on the space, applies `changes`, merges it; answers the created pages' IDs by ref. */
async function mergeChanges(api: Api, spaceId: string, changes: Change[]): Promise<Record<string, string>> {
  const cr = (await api.spaces.createChangeRequest(spaceId, { subject: 'Edit' })).data;
  const result = (await api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes: changes as never }, { compat: false })).data as any;
  const merged = (await api.spaces.mergeChangeRequest(spaceId, cr.id)).data;
  expect(merged.result).toBe('merge');
  return Object.fromEntries(result.changes.filter((c: any) => c.ref).map((c: any) => [c.ref, c.page.id]));
}

const insert = (title: string, markdown: string, extra: Change = {}): Change => ({ operation: 'insert_page', ref: title, title, document: { markdown }, ...extra });

/** A space holding `pages` (title → markdown), merged into its content. */
async function spaceWith(api: Api, orgId: string, title: string, pages: Record<string, string>) {
  const space = (await api.orgs.createSpace(orgId, { title })).data;
  const ids = Object.keys(pages).length ? await mergeChanges(api, space.id, Object.entries(pages).map(([t, md]) => insert(t, md))) : {};
  return { space, ids };
}

async function setup() {
  const { org, owner } = await createOrg(server.db);
  return { org, owner, api: sdk(server.url, owner.token) };
}

function search(token: string, orgId: string, query: string | null, extra: Record<string, string> = {}) {
  const params = new URLSearchParams(extra);
  if (query !== null) params.set('query', query);
  return http(server.url, token, 'GET', `/orgs/${orgId}/search?${params}`);
}

/** The answer's items, after checking it is a 200. */
async function hits(token: string, orgId: string, query: string, extra: Record<string, string> = {}): Promise<Hit[]> {
  const response = await search(token, orgId, query, extra);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.items;
}

const pageTitles = (items: Hit[]) => items.flatMap((s) => s.pages.map((p) => p.title));

const document = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(document, 'openapi');

describe('sections of a page', () => {
  const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
  const block = (type: string, nodes: unknown[] = [], data: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({ object: 'block', type, data, nodes, ...extra });
  const para = (t: string) => block('paragraph', [text(t)]);
  const fragment = (name: string, ...nodes: unknown[]) => ({ object: 'fragment', fragment: name, nodes });

  it('splits at top-level headings, with unique anchors, and reads the text of every kind of block', () => {
    const doc = {
      object: 'document',
      data: {},
      nodes: [
        para('Before any heading.'),
        block('heading-1', [text('Getting  started')]),
        block('list-unordered', [block('list-item', [para('first item')]), block('list-item', [block('list-unordered', [block('list-item', [para('nested item')])])])]),
        block('hint', [para('a hint')], { style: 'info' }),
        block('tabs', [block('tabs-item', [para('tab body')], { title: 'macOS' })]),
        block('expandable', [], {}, { isVoid: true, fragments: [fragment('expandable-title', para('More')), fragment('expandable-body', para('hidden detail'))] }),
        block('heading-2', [text('Getting started')]),
        block('table', [], { view: {}, records: {}, definition: {} }, { isVoid: true, fragments: [fragment('cell-1', para('cell text'))] }),
        block('images', [block('image', [], { ref: { kind: 'url', url: 'x' } }, { isVoid: true, fragments: [fragment('caption', para('a caption'))] })]),
        block('code', [block('code-line', [text('npm install quire')])]),
        block('divider', [], {}, { isVoid: true }),
        block('heading-3', [text('Custom')], { id: 'my-anchor' }),
        block('blockquote', [para('quoted '), para('words')]),
        block('heading-1', [text('¿Qué   tal?')]),
      ],
    } as JSONDocument;
    const sections = pageSections(doc);
    expect(sections.map((s) => [s.anchor, s.title, s.position])).toEqual([
      ['', '', 0],
      ['getting-started', 'Getting started', 1],
      ['getting-started-1', 'Getting started', 2],
      ['my-anchor', 'Custom', 3],
      ['que-tal', '¿Qué tal?', 4],
    ]);
    expect(sections[0].body).toBe('Before any heading.');
    expect(sections[1].body.split('\n')).toEqual(['first item', 'nested item', 'a hint', 'macOS', 'tab body', 'More', 'hidden detail']);
    expect(sections[2].body.split('\n')).toEqual(['cell text', 'a caption', 'npm install quire']);
    expect(sections[3].body.split('\n')).toEqual(['quoted', 'words']);
    expect(sections[4].body).toBe('');
  });

  it('keeps an empty page (one section: it is found by its title), drops an empty intro, and caps long bodies', () => {
    expect(pageSections(null)).toEqual([{ anchor: '', title: '', body: '', position: 0 }]);
    expect(pageSections({ object: 'document', data: {}, nodes: [] })).toHaveLength(1);
    const headed = pageSections({ object: 'document', data: {}, nodes: [block('heading-1', [text('Only')]), para('x')] } as JSONDocument);
    expect(headed).toEqual([{ anchor: 'only', title: 'Only', body: 'x', position: 0 }]);
    const long = pageSections({ object: 'document', data: {}, nodes: Array.from({ length: 3000 }, () => para('word '.repeat(20))) } as JSONDocument);
    expect(long[0].body.length).toBeLessThanOrEqual(100_000);
    expect(long[0].body.length).toBeGreaterThan(90_000);
  });
});

describe('organization search', () => {
  it('ranks a title hit above a heading hit above a body hit, and answers as documented', async () => {
    const { org, owner, api } = await setup();
    const { space, ids } = await spaceWith(api, org.id, 'Guides', {
      'Other notes': 'Some text mentioning zephyr once.',
      'Zephyr basics': 'Nothing relevant here.',
      Setup: 'Intro.\n\n## Zephyr tuning\n\nDetails.',
    });
    await spaceWith(api, org.id, 'Unrelated', { Nothing: 'No match at all.' });
    const response = await search(owner.token, org.id, 'zephyr');
    expect(response.status).toBe(200);
    const validate = ajv.getSchema('openapi#/components/schemas/SearchSpaceResult') ?? ajv.compile({ $ref: 'openapi#/components/schemas/SearchSpaceResult' });
    for (const item of response.body.items) expect(validate(item) ? [] : validate.errors).toEqual([]);
    expect(response.body.count).toBe(1);
    const [hit] = response.body.items as Hit[];
    expect(hit).toMatchObject({ id: space.id, title: 'Guides' });
    expect(hit.pages.map((p) => p.id)).toEqual([ids['Zephyr basics'], ids.Setup, ids['Other notes']]);
    expect(hit.pages.map((p) => p.rank)).toEqual([1, 2, 3]);
    const scores = hit.pages.map((p) => p.score);
    expect(scores[0]).toBeGreaterThan(scores[1]);
    expect(scores[1]).toBeGreaterThan(scores[2]);
    expect(hit.score).toBe(scores[0]);
    const body = hit.pages[2];
    expect(body).toMatchObject({ title: 'Other notes', path: 'other-notes', urls: { app: expect.stringMatching(new RegExp(`/s/${space.id}/other-notes$`)) } });
    expect(body.sections).toEqual([expect.objectContaining({ id: ids['Other notes'], title: '', path: 'other-notes', body: 'Some text mentioning zephyr once.' })]);
    expect(hit.pages[1].sections[0]).toMatchObject({ title: 'Zephyr tuning', path: 'setup#zephyr-tuning', urls: { app: expect.stringMatching(/\/setup#zephyr-tuning$/) } });
    // Words are matched exactly, whatever the case ('simple' configuration: no stemming).
    expect(pageTitles(await hits(owner.token, org.id, 'ZEPHYR'))).toHaveLength(3);
    expect(await hits(owner.token, org.id, 'zephyrs')).toEqual([]);
  });

  it('ranks spaces by their best section, then by ID', async () => {
    const { org, owner, api } = await setup();
    const body = await spaceWith(api, org.id, 'Body', { Page: 'an osprey flies' });
    const title = await spaceWith(api, org.id, 'Title', { 'Osprey facts': 'birds' });
    const twins = [await spaceWith(api, org.id, 'Twin', { Twin: '## Osprey notes\n\nTwin.' }), await spaceWith(api, org.id, 'Twin', { Twin: '## Osprey notes\n\nTwin.' })];
    const items = await hits(owner.token, org.id, 'osprey');
    const sortedTwins = twins.map((t) => t.space.id).sort();
    expect(items.map((s) => s.id)).toEqual([title.space.id, ...sortedTwins, body.space.id]);
  });

  it('makes headings sections with anchors, paths and excerpts of their text', async () => {
    const { org, owner, api } = await setup();
    const long = `${'filler words here '.repeat(1000)}the platypus is here ${'more filler '.repeat(1000)}`;
    const { space, ids } = await spaceWith(api, org.id, 'Docs', {
      Parent: 'Top.',
      Manual: ['Intro about nothing.', '## Getting started', 'Install the tool.', '## Getting started', 'Then configure the quokka.', '### Deep dive', long].join('\n\n'),
    });
    // A child page: its path holds its parent's slug.
    const child = await mergeChanges(api, space.id, [insert('Child page', '## Section\n\nWhere the echidna lives.', { into: ids.Parent })]);
    const [quokka] = await hits(owner.token, org.id, 'quokka');
    expect(quokka.pages).toHaveLength(1);
    expect(quokka.pages[0].sections).toEqual([
      expect.objectContaining({ id: `${ids.Manual}#getting-started-1`, title: 'Getting started', path: 'manual#getting-started-1', body: 'Then configure the quokka.' }),
    ]);
    const [platypus] = await hits(owner.token, org.id, 'platypus');
    const excerpt = platypus.pages[0].sections[0];
    expect(excerpt).toMatchObject({ title: 'Deep dive', path: 'manual#deep-dive' });
    expect(excerpt.body).toContain('platypus');
    expect(excerpt.body.length).toBeLessThan(500);
    const [echidna] = await hits(owner.token, org.id, 'echidna');
    expect(echidna.pages[0]).toMatchObject({ id: child['Child page'], path: 'parent/child-page', ancestors: [{ title: 'Parent' }] });
    expect(echidna.pages[0].sections[0]).toMatchObject({ path: 'parent/child-page#section', urls: { app: expect.stringMatching(new RegExp(`/s/${space.id}/parent/child-page#section$`)) } });
    // A page found by its title alone answers its opening words.
    const [byTitle] = await hits(owner.token, org.id, 'manual');
    expect(byTitle.pages[0].sections[0]).toMatchObject({ path: 'manual', body: 'Intro about nothing.' });
  });

  it('caps pages per space (5) and sections per page (3)', async () => {
    const { org, owner, api } = await setup();
    const pages = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`Page ${i}`, Array.from({ length: 5 }, (_, j) => `## Part ${j}\n\nthe ibis ${'ibis '.repeat(i)}`).join('\n\n')]));
    await spaceWith(api, org.id, 'Many', pages);
    const [hit] = await hits(owner.token, org.id, 'ibis');
    expect(hit.pages).toHaveLength(5);
    expect(hit.pages.map((p) => p.title)).toEqual(['Page 6', 'Page 5', 'Page 4', 'Page 3', 'Page 2']);
    for (const page of hit.pages) expect(page.sections).toHaveLength(3);
    // Ties between sections: in page order.
    expect(hit.pages[0].sections.map((s) => s.title)).toEqual(['Part 0', 'Part 1', 'Part 2']);
  });

  it('shows a guest only the spaces their grants reach; 404 for another organization; deleted spaces are not found', async () => {
    const { org, owner, api } = await setup();
    const open = await spaceWith(api, org.id, 'Granted', { Open: 'the lynx page' });
    const closed = await spaceWith(api, org.id, 'Not granted', { Closed: 'the lynx secret' });
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    await api.spaces.inviteToSpace(open.space.id, { role: MemberRole.Read, users: [guest.id] });
    expect((await hits(owner.token, org.id, 'lynx')).map((s) => s.id).sort()).toEqual([open.space.id, closed.space.id].sort());
    expect((await hits(reader.token, org.id, 'lynx')).map((s) => s.id).sort()).toEqual([open.space.id, closed.space.id].sort());
    const guestAnswer = await search(guest.token, org.id, 'lynx');
    expect(guestAnswer.body).toMatchObject({ count: 1, items: [{ id: open.space.id, pages: [{ title: 'Open' }] }] });
    expect(await hits(guest.token, org.id, 'secret')).toEqual([]);
    const stranger = await createOrg(server.db, 'Elsewhere');
    const foreign = await search(stranger.owner.token, org.id, 'lynx');
    expect(foreign.status).toBe(404);
    const outsider = await gql(server.url, stranger.owner.token, `query($id: ID!) { organization(id: $id) { search(query: "lynx") { totalCount } } }`, { id: org.id });
    expect(outsider.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(await hits(stranger.owner.token, stranger.org.id, 'lynx')).toEqual([]);
    await api.spaces.deleteSpaceById(closed.space.id);
    expect((await hits(owner.token, org.id, 'lynx')).map((s) => s.id)).toEqual([open.space.id]);
    expect(await hits(owner.token, org.id, 'secret')).toEqual([]);
    await api.spaces.restoreSpace(closed.space.id);
    expect((await hits(owner.token, org.id, 'secret')).map((s) => s.id)).toEqual([closed.space.id]);
  });

  it('follows merges: edits, renames, moves and deletions; unmerged changes are not found', async () => {
    const { org, owner, api } = await setup();
    const { space, ids } = await spaceWith(api, org.id, 'Zoo', { Animals: 'The walrus sleeps.', Plants: 'A fern.', Folder: 'Holder.' });
    expect(pageTitles(await hits(owner.token, org.id, 'walrus'))).toEqual(['Animals']);
    await mergeChanges(api, space.id, [{ operation: 'update_page', page: ids.Animals, document: { markdown: 'The narwhal swims.' } }]);
    expect(await hits(owner.token, org.id, 'walrus')).toEqual([]);
    expect(pageTitles(await hits(owner.token, org.id, 'narwhal'))).toEqual(['Animals']);
    await mergeChanges(api, space.id, [
      { operation: 'update_page', page: ids.Animals, title: 'Sea creatures' },
      { operation: 'update_page', page: ids.Plants, into: ids.Folder },
    ]);
    const [renamed] = await hits(owner.token, org.id, 'creatures');
    expect(renamed.pages[0]).toMatchObject({ id: ids.Animals, title: 'Sea creatures' });
    expect(await hits(owner.token, org.id, 'animals')).toEqual([]);
    const [moved] = await hits(owner.token, org.id, 'fern');
    expect(moved.pages[0]).toMatchObject({ path: 'folder/plants', ancestors: [{ title: 'Folder' }] });
    await mergeChanges(api, space.id, [{ operation: 'delete_page', page: ids.Animals }]);
    expect(await hits(owner.token, org.id, 'narwhal')).toEqual([]);
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Draft' })).data;
    await api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [insert('Draft', 'The pelican waits.')] as never });
    expect(await hits(owner.token, org.id, 'pelican')).toEqual([]);
  });

  it('indexes a duplicated space', async () => {
    const { org, owner, api } = await setup();
    const { space } = await spaceWith(api, org.id, 'Original', { Birds: 'The toucan.' });
    const copy = (await api.spaces.duplicateSpace(space.id)).data;
    expect((await hits(owner.token, org.id, 'toucan')).map((s) => s.id).sort()).toEqual([space.id, copy.id].sort());
  });

  it('pages spaces with the cursor, in REST and GraphQL alike', async () => {
    const { org, owner, api } = await setup();
    for (let i = 0; i < 5; i++) await spaceWith(api, org.id, `Space ${i}`, { [`Heron ${i}`]: `heron ${'heron '.repeat(i)}` });
    await spaceWith(api, org.id, 'Without', { Nothing: 'no bird' });
    const all = await hits(owner.token, org.id, 'heron', { limit: '100' });
    expect(all).toHaveLength(5);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const response = await search(owner.token, org.id, 'heron', { limit: '2', ...(page ? { page } : {}) });
      expect(response.status).toBe(200);
      expect(response.body.count).toBe(5);
      expect(response.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...response.body.items.map((s: Hit) => s.id));
      page = response.body.next?.page;
    } while (page);
    expect(seen).toEqual(all.map((s) => s.id));
    // The SDK reads the same pages.
    const first = (await sdk(server.url, owner.token).orgs.searchOrganizationContent(org.id, { query: 'heron', limit: 3 })).data;
    expect(first.items.map((s) => s.id)).toEqual(seen.slice(0, 3));
    const query = `query($id: ID!, $q: String!, $after: String) {
      organization(id: $id) { search(query: $q, first: 3, after: $after) {
        totalCount pageInfo { hasNextPage endCursor }
        edges { cursor node { id title score space { id title } pages { id title path rank sections { anchor title path body urls { app } } urls { app } } } }
      } }
    }`;
    const one = await gqlOk(server.url, owner.token, query, { id: org.id, q: 'heron' });
    expect(one.organization.search.totalCount).toBe(5);
    expect(one.organization.search.pageInfo.hasNextPage).toBe(true);
    const two = await gqlOk(server.url, owner.token, query, { id: org.id, q: 'heron', after: one.organization.search.pageInfo.endCursor });
    expect(two.organization.search.pageInfo.hasNextPage).toBe(false);
    expect([...one.organization.search.edges, ...two.organization.search.edges].map((e: any) => e.node.space.id)).toEqual(seen);
    // Backwards too: the last two, then the one before them.
    const backwards = `query($id: ID!, $before: String) { organization(id: $id) { search(query: "heron", last: 2, before: $before) {
      pageInfo { hasPreviousPage startCursor } edges { node { id } } } } }`;
    const last = (await gqlOk(server.url, owner.token, backwards, { id: org.id })).organization.search;
    expect(last.edges.map((e: any) => e.node.id)).toEqual(seen.slice(3));
    expect(last.pageInfo.hasPreviousPage).toBe(true);
    const before = (await gqlOk(server.url, owner.token, backwards, { id: org.id, before: last.pageInfo.startCursor })).organization.search;
    expect(before.edges.map((e: any) => e.node.id)).toEqual(seen.slice(1, 3));
    // A cursor belongs to its query.
    const other = await search(owner.token, org.id, 'bird', { page: response(one).pageInfo.endCursor });
    expect(other).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('"page"') } } });
  });

  it('refuses a missing, empty or too long query and a forged cursor, naming the field', async () => {
    const { org, owner } = await setup();
    for (const [query, extra, field] of [
      [null, {}, 'query'],
      ['', {}, 'query'],
      ['   ', {}, 'query'],
      ['x'.repeat(513), {}, 'query'],
      ['x', { page: 'garbage' }, 'page'],
      ['x', { page: Buffer.from(JSON.stringify(['search:x', 1, 'y'])).toString('base64url') }, 'page'],
      ['x', { limit: '1001' }, 'limit'],
    ] as const) {
      const response = await search(owner.token, org.id, query, extra);
      expect(response, `${query?.slice(0, 20)} ${JSON.stringify(extra)}`).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining(`"${field}"`) } } });
    }
    expect((await search(owner.token, org.id, 'x'.repeat(512))).status).toBe(200);
    const graphql = await gql(server.url, owner.token, `query($id: ID!) { organization(id: $id) { search(query: "x", after: "garbage") { totalCount } } }`, { id: org.id });
    expect(graphql.errors?.[0]).toMatchObject({ message: expect.stringContaining('"after"'), extensions: { code: 'BAD_REQUEST' } });
    const tooLong = await gql(server.url, owner.token, `query($id: ID!, $q: String!) { organization(id: $id) { search(query: $q) { totalCount } } }`, { id: org.id, q: 'y'.repeat(513) });
    expect(tooLong.errors?.[0]).toMatchObject({ message: expect.stringContaining('"query"'), extensions: { code: 'BAD_REQUEST' } });
  });

  it('never fails on special characters in the query', async () => {
    const { org, owner, api } = await setup();
    await spaceWith(api, org.id, 'Symbols', { 'C and C++': 'Use a & b | c, then !d and "quoted text" (parens) <-> :* \\ \' % _ ; -- done.' });
    const queries = ['"unterminated', 'a & | ! b', '-', '--', '-quoted', 'a or -b', '"', '""', "'", '\\', ':*', 'a:*', '<->', '<2>', '(((', ')', '!', '!!b', '&&', '|', 'or', 'and', 'not',
      '%', '_', "'; DROP TABLE \"SearchSection\"; --", '\u00e9\u0301', '💡', '中文', 'a\tb\nc', 'x'.repeat(512), '"quoted text"', 'C++'];
    for (const query of queries) {
      const response = await search(owner.token, org.id, query);
      expect(response.status, `${JSON.stringify(query)}: ${JSON.stringify(response.body)}`).toBe(200);
      expect(Array.isArray(response.body.items)).toBe(true);
    }
    expect(pageTitles(await hits(owner.token, org.id, '"quoted text"'))).toEqual(['C and C++']);
    expect(pageTitles(await hits(owner.token, org.id, '"text quoted"'))).toEqual([]);
    expect(pageTitles(await hits(owner.token, org.id, 'quoted -parens'))).toEqual([]);
    expect(pageTitles(await hits(owner.token, org.id, 'quoted -nothing'))).toEqual(['C and C++']);
    // A query that excludes only matches nothing (instead of scanning every section).
    expect(await hits(owner.token, org.id, '-nothing')).toEqual([]);
  });
});

describe('organization search bounded by what it returns', () => {
  const member = (id: string) => ({ userId: id, guest: false });
  const spaceIds = (page: SearchPage) => page.rows.map((s) => s.id);

  it('ranks at most its share of each space (title matches first), keeps the count exact and pages stably', async () => {
    const { org, owner, api } = await setup();
    const notes = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`Notes ${i}`, `the crane, note ${i}`]));
    const many = await spaceWith(api, org.id, 'Many', { ...notes, 'Crane handbook': 'heron notes' });
    const few = await spaceWith(api, org.id, 'Few', { Birds: 'a crane' });
    await spaceWith(api, org.id, 'None', { Other: 'nothing' });
    // Unbounded (the space's matches fit its share): every page ranked, the title match first.
    const exact = await searchOrganization(server.db, member(owner.id), org.id, 'crane', { first: 10 });
    expect(exact.totalCount).toBe(2);
    expect(spaceIds(exact)).toEqual([many.space.id, few.space.id]);
    expect(exact.rows[0].pages.map((p) => p.title)).toHaveLength(5);
    expect(exact.rows[0].pages[0].title).toBe('Crane handbook');
    // Two candidates of each kind: the title match, then two of the six notes; the count stays exact.
    const bounded = await searchOrganization(server.db, member(owner.id), org.id, 'crane', { first: 10 }, { candidatesPerSpace: 2 });
    expect(bounded.totalCount).toBe(2);
    expect(spaceIds(bounded)).toEqual([many.space.id, few.space.id]);
    expect(bounded.rows[0].pages).toHaveLength(3);
    expect(bounded.rows[0].pages[0].title).toBe('Crane handbook');
    expect(bounded.rows[0].pages.slice(1).every((p) => p.title.startsWith('Notes '))).toBe(true);
    // The best sections of an answered page are ranked among all of the page's matches.
    expect(bounded.rows[0].pages[0].sections).toHaveLength(1);
    // A title match that the body excludes is no match.
    const excluding = await searchOrganization(server.db, member(owner.id), org.id, 'crane -heron', { first: 10 }, { candidatesPerSpace: 2 });
    const manyExcluding = excluding.rows.find((s) => s.id === many.space.id)!;
    expect(manyExcluding.pages.map((p) => p.title)).not.toContain('Crane handbook');
    expect(manyExcluding.pages).toHaveLength(2);
    // Page by page (one space a page), the same spaces in the same order, each once.
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await searchOrganization(server.db, member(owner.id), org.id, 'crane', { first: 1, after }, { candidatesPerSpace: 2 });
      expect(page.totalCount).toBe(2);
      seen.push(...spaceIds(page));
      after = page.hasNextPage ? page.cursorOf(page.rows[page.rows.length - 1]) : undefined;
    } while (after);
    expect(seen).toEqual(spaceIds(bounded));
  });

  it('past SPACES_ONE_BY_ONE live spaces, reads a member\'s candidates organization-wide: title matches, then the newest', async () => {
    const { org, owner, api } = await setup();
    const older = await spaceWith(api, org.id, 'Older', { Notes: 'the crane, noted' });
    const named = await spaceWith(api, org.id, 'Named', { 'Crane handbook': 'heron notes' });
    const newer = await spaceWith(api, org.id, 'Newer', { Birds: 'a crane' });
    await spaceWith(api, org.id, 'None', { Other: 'nothing' });
    const trashed = await spaceWith(api, org.id, 'Trashed', { Cranes: 'crane crane' });
    await api.spaces.deleteSpaceById(trashed.space.id);
    // Four live spaces. Space by space (at most four), every match is ranked: three spaces.
    const oneByOne = await searchOrganization(server.db, member(owner.id), org.id, 'crane', { first: 10 }, { spacesOneByOne: 4, organizationCandidates: 1 });
    expect([oneByOne.totalCount, spaceIds(oneByOne)]).toEqual([3, [named.space.id, expect.any(String), expect.any(String)]]);
    // Organization-wide with room for every match: the same answer, the deleted space left out.
    const wide = await searchOrganization(server.db, member(owner.id), org.id, 'crane', { first: 10 }, { spacesOneByOne: 3 });
    expect([wide.totalCount, spaceIds(wide)]).toEqual([oneByOne.totalCount, spaceIds(oneByOne)]);
    expect(wide.rows.map((s) => s.pages.map((p) => p.title))).toEqual(oneByOne.rows.map((s) => s.pages.map((p) => p.title)));
    // One candidate of each kind: the title match, and the body match indexed last (the newer
    // space's page, merged after the older one's); the count is that of the candidates' spaces.
    const bounded = await searchOrganization(server.db, member(owner.id), org.id, 'crane', { first: 10 }, { spacesOneByOne: 3, organizationCandidates: 1 });
    expect([bounded.totalCount, spaceIds(bounded)]).toEqual([2, [named.space.id, newer.space.id]]);
    expect(spaceIds(bounded)).not.toContain(older.space.id);
    // Page by page, the same spaces in the same order.
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await searchOrganization(server.db, member(owner.id), org.id, 'crane', { first: 1, after }, { spacesOneByOne: 3, organizationCandidates: 1 });
      seen.push(...spaceIds(page));
      after = page.hasNextPage ? page.cursorOf(page.rows[page.rows.length - 1]) : undefined;
    } while (after);
    expect(seen).toEqual([named.space.id, newer.space.id]);
    // A title match that the body excludes is no match; a query of exclusions only matches nothing.
    const excluding = await searchOrganization(server.db, member(owner.id), org.id, 'crane -heron', { first: 10 }, { spacesOneByOne: 0 });
    expect(spaceIds(excluding).sort()).toEqual([older.space.id, newer.space.id].sort());
    expect((await searchOrganization(server.db, member(owner.id), org.id, '-heron', { first: 10 }, { spacesOneByOne: 0 })).totalCount).toBe(0);
  });

  it('keeps a transferred space\'s sections with its new organization', async () => {
    const { org, owner, api } = await setup();
    const other = await createOrg(server.db, 'Other owls');
    await server.db.member.create({ data: { organizationId: other.org.id, userId: owner.id, role: 'admin' } });
    const moving = await spaceWith(api, org.id, 'Moving', { Owls: 'the owl hoots' });
    const moved = await http(server.url, owner.token, 'POST', `/spaces/${moving.space.id}/transfer`, { organization: other.org.id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const sections = await server.db.$queryRaw<{ organizationId: string }[]>`SELECT DISTINCT "organizationId" FROM "SearchSection" WHERE "spaceId" = ${moving.space.id}`;
    expect(sections).toEqual([{ organizationId: other.org.id }]);
    for (const options of [{}, { spacesOneByOne: 0 }]) {
      expect(spaceIds(await searchOrganization(server.db, member(owner.id), org.id, 'owl', { first: 10 }, options))).toEqual([]);
      expect(spaceIds(await searchOrganization(server.db, member(owner.id), other.org.id, 'owl', { first: 10 }, options))).toEqual([moving.space.id]);
    }
  });

  it('reads only the spaces the reader may see, never another organization\'s', async () => {
    const { org, owner, api } = await setup();
    const granted = await spaceWith(api, org.id, 'Granted', { Ibex: 'the ibex climbs' });
    const hidden = await spaceWith(api, org.id, 'Hidden', { Ibex: 'the ibex sleeps' });
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    await api.spaces.inviteToSpace(granted.space.id, { role: MemberRole.Read, users: [guest.id] });
    const other = await createOrg(server.db, 'Other ibexes');
    const foreign = await spaceWith(sdk(server.url, other.owner.token), other.org.id, 'Foreign', { Ibex: 'the ibex climbs' });
    for (const options of [{}, { candidatesPerSpace: 1 }, { spacesOneByOne: 0 }]) {
      const asGuest = await searchOrganization(server.db, { userId: guest.id, guest: true }, org.id, 'ibex climbs', { first: 20 }, options);
      expect([asGuest.totalCount, spaceIds(asGuest)]).toEqual([1, [granted.space.id]]);
      const asMember = await searchOrganization(server.db, member(owner.id), org.id, 'ibex', { first: 20 }, options);
      expect(spaceIds(asMember).sort()).toEqual([granted.space.id, hidden.space.id].sort());
      const elsewhere = await searchOrganization(server.db, member(other.owner.id), other.org.id, 'ibex', { first: 20 }, options);
      expect([elsewhere.totalCount, spaceIds(elsewhere)]).toEqual([1, [foreign.space.id]]);
    }
  });
});

describe('search statement planning', () => {
  it('plans the search for its words on every execution (never a named statement), without JIT', async () => {
    const { org, owner, api } = await setup();
    await spaceWith(api, org.id, 'Planned', { Plover: 'a plover nests' });
    // One connection: its prepared statements are those of every search below.
    const db = createPrismaClient(server.databaseUrl, { poolMax: 1 });
    try {
      // More than the five executions after which a named statement may keep a generic plan.
      for (let i = 0; i < 7; i++) expect((await searchOrganization(db, { userId: owner.id, guest: false }, org.id, 'plover', { first: 20 })).totalCount).toBe(1);
      const prepared = await db.$queryRaw<{ statement: string }[]>`SELECT statement FROM pg_prepared_statements`;
      expect(prepared.filter((p) => p.statement.includes('SearchSection'))).toEqual([]);
      expect(prepared.length).toBeGreaterThan(0); // other statements are still named
      expect(await db.$queryRaw`SELECT current_setting('jit') AS "jit"`).toEqual([{ jit: 'off' }]);
    } finally {
      await db.$disconnect();
    }
  });
});

describe('search index migration', () => {
  it('applies on a fresh database (btree_gin created), and the migrations agree with schema.prisma', async () => {
    const url = new URL(server.databaseUrl);
    const name = `${url.pathname.slice(1)}_search_${randomUUID().slice(0, 8)}`;
    const admin = new URL(url);
    admin.pathname = '/postgres';
    await ensureDatabase(admin.toString(), name);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      expect(await applyMigrations(url.toString())).toContain('20261126100100_search_by_space');
      expect(await diffMigrationsToSchema(url.toString())).toBe('');
      const fresh = new pg.Client({ connectionString: url.toString() });
      await fresh.connect();
      const { rows } = await fresh.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'SearchSection' ORDER BY indexname`);
      const { rowCount } = await fresh.query(`SELECT 1 FROM pg_extension WHERE extname = 'btree_gin'`);
      await fresh.end();
      expect(rows.map((r) => r.indexname)).toEqual([
        'SearchSection_organizationId_newest_idx',
        'SearchSection_organizationId_titleTsv_idx',
        'SearchSection_organizationId_tsv_idx',
        'SearchSection_pkey',
        'SearchSection_spaceId_pageId_id_idx',
        'SearchSection_spaceId_titleTsv_idx',
        'SearchSection_spaceId_tsv_idx',
      ]);
      // The title passes' indexes carry the title words, and the organization's orders by the
      // negated ID (Prisma can declare neither: the migrations do, and the diff leaves them be).
      expect(rows[4].indexdef).toMatch(/\("spaceId", "pageId", id\) INCLUDE \("titleTsv"\)$/);
      expect(rows[0].indexdef).toMatch(/\("organizationId", \(\(- id\)\)\) INCLUDE \(id, "spaceId", "titleTsv"\)$/);
      expect(rowCount).toBe(1);
    } finally {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    }
  }, 180_000);
});

/** The search connection of a GraphQL answer. */
function response(data: any) {
  return data.organization.search;
}
