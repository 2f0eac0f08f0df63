/**
 * What a user of the existing slices tripped over (issue 23, section 4), each measured and fixed:
 * a zip's SUMMARY.md groups each keep their pages; a slow REST import answers 202 with the job's
 * Location whatever the wait and the request time limit are set to; a finished import's progress
 * says what was imported. (Later items of the same list: members' `sites`, change-request list
 * parameters, site PATCH fields, SAML and font shapes, `insert_page` titles.)
 */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { effectiveImportWaitMs } from '../src/config.js';
import { silentLogger } from '../src/observability/logger.js';
import { gqlOk, http, sdk } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { zipOf } from './helpers/zip.js';
import { useSites } from './helpers/site.js';

const server = useServer({ worker: true });

const site = useSites();

async function changeRequest() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Measured' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Import' })).data;
  return { org, owner, api, space, cr, base: `/spaces/${space.id}/change-requests/${cr.id}/content` };
}

type PageItem = { id: string; title: string; type: string; pages?: PageItem[] };
const outline = (pages: PageItem[]): unknown[] => pages.map((p) => (p.pages?.length ? [p.title, p.type, outline(p.pages)] : [p.title, p.type]));

describe('zip import with SUMMARY.md groups', () => {
  it('puts each group’s pages under that group', async () => {
    const { owner, base } = await changeRequest();
    const zip = await zipOf({
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n\n## Guides\n\n* [Start](start.md)\n* [Deploy](deploy.md)\n\n## Reference\n\n* [API](api.md)\n\n## More\n\n* [FAQ](faq.md)\n',
      'README.md': '# Home\n',
      'start.md': '# Start\n',
      'deploy.md': '# Deploy\n',
      'api.md': '# API\n',
      'faq.md': '# FAQ\n',
    });
    const s = await site({ '/docs.zip': { type: 'application/zip', body: zip } });
    const answer = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${s.url}/docs.zip`, source: 'zip' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ importedResources: 8, totalResources: 8 });
    const tree: PageItem[] = (await http(server.url, owner.token, 'GET', `${base}/pages`)).body.pages;
    expect(outline(tree)).toEqual([
      ['Home', 'document'],
      ['Guides', 'group', [['Start', 'document'], ['Deploy', 'document']]],
      ['Reference', 'group', [['API', 'document']]],
      ['More', 'group', [['FAQ', 'document']]],
    ]);
  });
});

describe('a slow REST import', () => {
  it('keeps the wait below the request time limit, whatever either is set to', () => {
    expect(effectiveImportWaitMs({ importWaitMs: 30_000, graphqlTimeoutMs: 30_000 })).toBe(25_000);
    expect(effectiveImportWaitMs({ importWaitMs: 10_000, graphqlTimeoutMs: 30_000 })).toBe(10_000);
    expect(effectiveImportWaitMs({ importWaitMs: 60_000, graphqlTimeoutMs: 0 })).toBe(60_000);
    expect(effectiveImportWaitMs({ importWaitMs: 5_000, graphqlTimeoutMs: 1_000 })).toBe(750);
  });

  it('answers 202 with Location when the wait is set as long as the request time limit', async () => {
    const { owner, base } = await changeRequest();
    const s = await site({ '/slow.md': { type: 'text/markdown', body: '# Slow\n', delayMs: 2500 } });
    // The defaults' shape (wait = limit), at a small scale: before, this answered 504 without the job.
    const config = { ...server.config, importWaitMs: 1200, graphqlTimeoutMs: 1200 };
    const app = buildApp({ db: server.db, config, logger: silentLogger(), events: server.events });
    const { port } = await app.start(0, '127.0.0.1');
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v1${base}/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${s.url}/slow.md`, source: 'markdown' }),
      });
      expect(response.status).toBe(202);
      const job = await response.json();
      expect(job).toMatchObject({ object: 'job', kind: 'import' });
      expect(response.headers.get('location')).toMatch(new RegExp(`/v1/jobs/${job.id}$`));
      await expect.poll(async () => (await http(server.url, owner.token, 'GET', `/jobs/${job.id}`)).body.state, { timeout: 20_000, interval: 250 }).toBe('succeeded');
    } finally {
      await app.stop();
    }
  });
});

describe('a finished import job', () => {
  it('ends with its progress saying what its result says', async () => {
    const { owner, base } = await changeRequest();
    const zip = await zipOf({ 'README.md': '# Home\n', 'a/README.md': '# A\n', 'a/one.md': '# One\n', 'a/two.md': '# Two\n', 'b/three.md': '# Three\n', 'b/four.md': '# Four\n' });
    const s = await site({ '/docs.zip': { type: 'application/zip', body: zip } });
    const impatient = buildApp({ db: server.db, config: { ...server.config, importWaitMs: 0 }, logger: silentLogger(), events: server.events });
    const { port } = await impatient.start(0, '127.0.0.1');
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v1${base}/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${s.url}/docs.zip`, source: 'zip' }),
      });
      expect(response.status).toBe(202);
      const { id } = await response.json();
      await expect.poll(async () => (await http(server.url, owner.token, 'GET', `/jobs/${id}`)).body.state, { timeout: 20_000, interval: 250 }).toBe('succeeded');
      const job = (await http(server.url, owner.token, 'GET', `/jobs/${id}`)).body;
      const imported = job.result.importedResources;
      expect(imported).toBeGreaterThan(3);
      expect(job.progress).toMatchObject({ done: imported, total: imported });
    } finally {
      await impatient.stop();
    }
  });
});

describe('a member’s sites', () => {
  it('counts the sites the member can see: all of the organization’s for a member with a role, none for a guest', async () => {
    const { org, owner } = await createOrg(server.db);
    const writer = await createActor(server.db, { org: org.id, role: 'edit' });
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    const other = await createOrg(server.db);
    await http(server.url, other.owner.token, 'POST', `/orgs/${other.org.id}/sites`, { title: 'Elsewhere' });
    for (const title of ['Docs', 'Help']) expect((await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites`, { title })).status).toBe(201);
    const list = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/members`);
    expect(list.status).toBe(200);
    expectDocumented('get', '/orgs/{organizationId}/members', '200', list.body);
    const sites = Object.fromEntries(list.body.items.map((m: { id: string; sites: number }) => [m.id, m.sites]));
    expect(sites).toEqual({ [owner.id]: 2, [writer.id]: 2, [guest.id]: 0 });
    const one = await http(server.url, writer.token, 'GET', `/orgs/${org.id}/members/${writer.id}`);
    expect(one.body.sites).toBe(2);
    const data = await gqlOk(server.url, owner.token, 'query($id: ID!) { organization(id: $id) { members(first: 10) { edges { node { id sites } } } } }', { id: org.id });
    expect(data.organization.members.edges.map((e: { node: { sites: number } }) => e.node.sites).sort()).toEqual([0, 2, 2]);
  });

  it('reads the count of a whole member list in one statement', async () => {
    const { org, owner } = await createOrg(server.db);
    for (let i = 0; i < 6; i++) await createActor(server.db, { org: org.id, role: 'read' });
    await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites`, { title: 'Docs' });
    server.queries.length = 0;
    const list = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/members`);
    expect(list.body.items.every((m: { sites: number }) => m.sites === 1)).toBe(true);
    expect(server.queries.filter((q) => q.includes('"Site"')).length).toBe(1);
  });
});

describe('the change-request list', () => {
  const LIST = '/spaces/{spaceId}/change-requests';

  it('filters by creator and requested reviewer, orders by createdAt or updatedAt (the default) in keyset pages, and refuses topic', async () => {
    const { org, owner } = await createOrg(server.db);
    const writer = await createActor(server.db, { org: org.id, role: 'edit' });
    const reviewer = await createActor(server.db, { org: org.id, role: 'edit' });
    const space = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { title: 'Listed' })).body;
    const open = async (token: string, subject: string) => (await http(server.url, token, 'POST', `/spaces/${space.id}/change-requests`, { subject })).body;
    const a = await open(owner.token, 'A');
    const b = await open(writer.token, 'B');
    const c = await open(owner.token, 'C');
    await new Promise((r) => setTimeout(r, 20));
    expect((await http(server.url, owner.token, 'PATCH', `/spaces/${space.id}/change-requests/${a.id}`, { subject: 'A, again' })).status).toBe(200);
    expect((await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${b.id}/requested-reviewers`, { users: [reviewer.id] })).status).toBeLessThan(300);
    const status = a.status;
    const list = async (query: string) => {
      const answer = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests?status=${status}&${query}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expectDocumented('get', LIST, '200', answer.body);
      return answer.body as { items: { id: string }[]; next?: { page: string } };
    };
    const idsOf = (body: { items: { id: string }[] }) => body.items.map((i) => i.id);
    expect(idsOf(await list(''))).toEqual([a.id, c.id, b.id]);
    expect(idsOf(await list('orderBy=updatedAt'))).toEqual([a.id, c.id, b.id]);
    expect(idsOf(await list('orderBy=createdAt'))).toEqual([c.id, b.id, a.id]);
    expect(idsOf(await list(`creator=${owner.id}`))).toEqual([a.id, c.id]);
    expect(idsOf(await list(`creator=${writer.id}&orderBy=createdAt`))).toEqual([b.id]);
    expect(idsOf(await list(`requestedReviewer=${reviewer.id}`))).toEqual([b.id]);
    expect(idsOf(await list(`requestedReviewer=${owner.id}`))).toEqual([]);
    // Keyset pages in both orders.
    for (const [order, expected] of [['updatedAt', [a.id, c.id, b.id]], ['createdAt', [c.id, b.id, a.id]]] as const) {
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const body = await list(`orderBy=${order}&limit=1${page ? `&page=${encodeURIComponent(page)}` : ''}`);
        seen.push(...idsOf(body));
        page = body.next?.page;
      } while (page);
      expect(seen).toEqual(expected);
    }
    const refused = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests?orderBy=title`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('orderBy');
    const topic = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests?topic=x`);
    expect(topic.status).toBe(400);
    expect(topic.body.error.message).toContain('topic');
  });
});

describe('PATCH of a site', () => {
  const SITE = '/orgs/{organizationId}/sites/{siteId}';

  it('honours every documented field it stores, and refuses proxy, adaptiveContent off and styleguide with a 400 naming them', async () => {
    const { org, owner } = await createOrg(server.db);
    const post = async (path: string, body: unknown) => (await http(server.url, owner.token, 'POST', path, body)).body;
    const one = await post(`/orgs/${org.id}/spaces`, { title: 'One' });
    const two = await post(`/orgs/${org.id}/spaces`, { title: 'Two' });
    const three = await post(`/orgs/${org.id}/spaces`, { title: 'Three' });
    const created = await post(`/orgs/${org.id}/sites`, { title: 'Docs', spaces: [one.id, two.id] });
    const path = `/orgs/${org.id}/sites/${created.id}`;
    const patch = (body: unknown) => http(server.url, owner.token, 'PATCH', path, body);

    const changed = await patch({ title: 'Handbook', visibility: 'unlisted', basename: 'handbook', defaultLevel: 'read' });
    expect(changed.status).toBe(200);
    expectDocumented('patch', SITE, '200', changed.body);
    expect(changed.body).toMatchObject({ title: 'Handbook', visibility: 'unlisted', basename: 'handbook', defaultLevel: 'read' });
    expect((await http(server.url, owner.token, 'GET', path)).body).toMatchObject({ title: 'Handbook', visibility: 'unlisted', basename: 'handbook', defaultLevel: 'read' });

    // defaultSiteSpace: the root site space marked default.
    const rootSpaces = (await http(server.url, owner.token, 'GET', `${path}/site-spaces`)).body.items as { id: string; default: boolean; space: { id: string } }[];
    const second = rootSpaces.find((s) => s.space.id === two.id)!;
    expect((await patch({ defaultSiteSpace: second.id })).status).toBe(200);
    const after = (await http(server.url, owner.token, 'GET', `${path}/site-spaces`)).body.items as typeof rootSpaces;
    expect(after.filter((s) => s.default).map((s) => s.id)).toEqual([second.id]);

    // defaultSiteSection: the section marked default.
    const sectioned = await post(`/orgs/${org.id}/sites`, { title: 'Sections', spaces: [one.id] });
    const spath = `/orgs/${org.id}/sites/${sectioned.id}`;
    await post(`${spath}/sections`, { spaceId: two.id, title: 'Two' });
    const third = await post(`${spath}/sections`, { spaceId: three.id, title: 'Three' });
    expect((await http(server.url, owner.token, 'PATCH', spath, { defaultSiteSection: third.id })).status).toBe(200);
    const sections = (await http(server.url, owner.token, 'GET', `${spath}/sections`)).body.items as { id: string; default: boolean }[];
    expect(sections.filter((s) => s.default).map((s) => s.id)).toEqual([third.id]);

    for (const [field, value] of [
      ['proxy', 'company.com/docs'],
      ['adaptiveContent', { enabled: false }],
      ['styleguide', 'spc_x'],
    ] as const) {
      const refused = await patch({ title: 'Not this', [field]: value });
      expect(refused.status, field).toBe(400);
      expect(refused.body.error.message).toContain(field);
    }
    // Every site here is adaptive: turning it on changes nothing, and the site says so.
    const adaptive = await patch({ adaptiveContent: { enabled: true } });
    expect(adaptive.status).toBe(200);
    expectDocumented('patch', SITE, '200', adaptive.body);
    expect(adaptive.body.adaptiveContent).toEqual({ enabled: true });
    // Removing a proxy or detaching a style guide there never was: accepted.
    expect((await patch({ proxy: null, styleguide: null })).status).toBe(200);
    expect((await http(server.url, owner.token, 'GET', path)).body.title).toBe('Handbook');
  });
});

describe('insert_page with a title and a markdown heading', () => {
  it('takes the title as the public document says: leading heading, then front matter, then title, then a default', async () => {
    const { owner, space, cr } = await changeRequest();
    const base = `/spaces/${space.id}/change-requests/${cr.id}/content`;
    const written = await http(server.url, owner.token, 'POST', `${base}?compat=false`, {
      changes: [
        { operation: 'insert_page', ref: 'heading', title: 'Install', document: { markdown: '# Setup\n\nRun it.\n' } },
        { operation: 'insert_page', ref: 'front', title: 'Given', document: { markdown: '---\ntitle: From front matter\n---\n\nBody.\n' } },
        { operation: 'insert_page', ref: 'given', title: 'Given', document: { markdown: 'No heading.\n' } },
        { operation: 'insert_page', ref: 'none', document: { markdown: 'Nothing at all.\n' } },
      ],
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    const idOf = (ref: string) => written.body.changes.find((c: { ref?: string }) => c.ref === ref).page.id as string;
    const page = async (ref: string) => (await http(server.url, owner.token, 'GET', `${base}/page/${idOf(ref)}?format=markdown`)).body;
    const heading = await page('heading');
    expect(heading.title).toBe('Setup');
    // The heading became the title: it is not also kept in the body.
    expect(heading.markdown).toBe('# Setup\n\nRun it.\n');
    expect((await page('front')).title).toBe('From front matter');
    expect((await page('given')).title).toBe('Given');
    expect((await page('none')).title).toBe('Untitled');

    // update_page: the same rule; without a heading, the page keeps its title unless `title` says otherwise.
    const update = (change: Record<string, unknown>) => http(server.url, owner.token, 'POST', base, { changes: [{ operation: 'update_page', page: idOf('heading'), ...change }] });
    expect((await update({ title: 'Ignored', document: { markdown: '# Renamed\n\nAgain.\n' } })).status).toBe(200);
    expect((await page('heading')).title).toBe('Renamed');
    expect((await update({ document: { markdown: 'Plain.\n' } })).status).toBe(200);
    expect((await page('heading')).title).toBe('Renamed');
  });
});
