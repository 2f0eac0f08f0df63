/**
 * Imports end to end, as clients meet them: REST `…/content/import` and `…/content/page/{pageId}/import`
 * answering `{revision, importedResources, totalResources}`, GraphQL `importContent` answering the
 * job at once and `subscription { job }` streaming it over graphql-ws and SSE, every source from a
 * local server, links between imported pages and files resolved, input and access refused.
 */
import { createClient } from 'graphql-ws';
import { Document, ImageRun, Packer, Paragraph, HeadingLevel, TextRun } from 'docx';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../src/app.js';
import { newId } from '../src/domain/kernel/ids.js';
import { JOB_HANDLERS } from '../src/jobs/tasks.js';
import { runJob } from '../src/jobs/runner.js';
import { silentLogger } from '../src/observability/logger.js';
import { gqlOk, http, sdk } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { zipOf } from './helpers/zip.js';
import { useSites } from './helpers/site.js';

const server = useServer({ worker: true });

const site = useSites();

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function changeRequest() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Imports' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Import' })).data;
  return { org, owner, api, space, cr, base: `/spaces/${space.id}/change-requests/${cr.id}/content` };
}

type PageItem = { id: string; title: string; slug: string; path: string; type: string; pages?: PageItem[] };

async function pages(token: string, base: string): Promise<PageItem[]> {
  return (await http(server.url, token, 'GET', `${base}/pages`)).body.pages;
}

async function pageDocument(token: string, base: string, id: string) {
  return (await http(server.url, token, 'GET', `${base}/page/${id}?format=document`)).body.document;
}

/** Every `data.ref` of a document, in order. */
function refs(node: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (!node || typeof node !== 'object') return out;
  const n = node as { data?: { ref?: Record<string, unknown> }; nodes?: unknown[]; fragments?: unknown[] };
  if (n.data?.ref) out.push(n.data.ref);
  for (const child of [...(n.nodes ?? []), ...(n.fragments ?? [])]) refs(child, out);
  return out;
}

describe('REST imports', () => {
  it('imports a markdown file into a change request: one new revision, the documented answer', async () => {
    const { owner, api, space, cr, base } = await changeRequest();
    const s = await site({ '/guide.md': { type: 'text/markdown', body: '# Setup guide\n\nInstall it with **npm**.\n\n## Next\n\nRead on.\n' } });
    const answer = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${s.url}/guide.md`, source: 'markdown' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ revision: expect.stringMatching(/^rev_/), importedResources: 1, totalResources: 1 });
    const after = (await api.spaces.getChangeRequestById(space.id, cr.id)).data;
    expect(after.revision).toBe(answer.body.revision);
    const [page] = await pages(owner.token, base);
    expect(page).toMatchObject({ title: 'Setup guide', slug: 'setup-guide', type: 'document' });
    const document = await pageDocument(owner.token, base, page.id);
    expect(document.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'heading-1', 'paragraph']);
  });

  it('imports a zip as a page tree: folders, images as files, relative links as page and file references', async () => {
    const { owner, base } = await changeRequest();
    const zip = await zipOf({
      'README.md': '# Welcome\n\nSee [the setup](guide/setup.md#install) and ![logo](images/logo.png).\n',
      'guide/README.md': '# Guide\n\nThe guide.\n',
      'guide/setup.md': '# Setup\n\n## Install\n\nBack to [home](../README.md).\n',
      'images/logo.png': PNG,
    });
    const s = await site({ '/docs.zip': { type: 'application/zip', body: zip } });
    const answer = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${s.url}/docs.zip`, source: 'zip' });
    expect(answer.body).toMatchObject({ importedResources: 4, totalResources: 4 });
    const tree = await pages(owner.token, base);
    expect(tree.map((p) => p.title)).toEqual(['Welcome', 'Guide']);
    expect(tree[1].pages?.map((p) => p.title)).toEqual(['Setup']);
    const setup = tree[1].pages![0];
    const welcome = refs(await pageDocument(owner.token, base, tree[0].id));
    expect(welcome).toContainEqual({ kind: 'anchor', page: setup.id, anchor: 'install' });
    const image = welcome.find((r) => r.kind === 'file');
    expect(image).toBeDefined();
    const file = await http(server.url, owner.token, 'GET', `${base}/files/${image!.file}`);
    expect(file.body).toMatchObject({ name: 'logo.png', contentType: 'image/png', size: PNG.length, dimensions: { width: 1, height: 1 } });
    const download = new URL(file.body.downloadURL); // the public URL names port 0: fetch it from this server
    const bytes = Buffer.from(await (await fetch(`${server.url}${download.pathname}${download.search}`)).arrayBuffer());
    expect(bytes.equals(PNG)).toBe(true);
    expect(refs(await pageDocument(owner.token, base, setup.id))).toContainEqual({ kind: 'page', page: tree[0].id });
  });

  it('imports an HTML page (its main content) and a .docx (its images become files)', async () => {
    const { owner, base } = await changeRequest();
    const docx = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph({ text: 'Quarterly report', heading: HeadingLevel.HEADING_1 }),
              new Paragraph({ children: [new TextRun({ text: 'Revenue grew.', bold: true })] }),
              new Paragraph({ children: [new ImageRun({ type: 'png', data: PNG, transformation: { width: 10, height: 10 } })] }),
            ],
          },
        ],
      }),
    );
    const s = await site({
      '/page.html': { type: 'text/html; charset=utf-8', body: '<html><head><title>T</title></head><body><nav>Menu</nav><main><h1>Release notes</h1><p>Fixed <code>bugs</code>.</p></main></body></html>' },
      '/report.docx': { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', body: docx },
    });
    expect((await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${s.url}/page.html`, source: 'html' })).body).toMatchObject({ importedResources: 1 });
    expect((await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${s.url}/report.docx`, source: 'docx' })).body).toMatchObject({ importedResources: 2, totalResources: 2 });
    const [html, report] = await pages(owner.token, base);
    expect(html.title).toBe('Release notes');
    expect(JSON.stringify(await pageDocument(owner.token, base, html.id))).not.toContain('Menu');
    expect(report.title).toBe('Quarterly report');
    expect(refs(await pageDocument(owner.token, base, report.id)).some((r) => r.kind === 'file')).toBe(true);
  });

  it('imports a website: the start page and the same-origin pages it links to, linked to each other', async () => {
    const { owner, base } = await changeRequest();
    const page = (title: string, body: string) => ({ type: 'text/html', body: `<html><body><main><h1>${title}</h1>${body}</main></body></html>` });
    const s = await site({
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' },
      '/': page('Home', '<p><a href="/a">A</a> <a href="/b">B</a> <a href="/private">P</a> <a href="https://example.com/">out</a></p>'),
      '/a': page('Page A', '<p><a href="/">home</a></p>'),
      '/b': page('Page B', '<p>b</p>'),
      '/private': page('Private', '<p>no</p>'),
    });
    const answer = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${s.url}/`, source: 'website' });
    expect(answer.status).toBe(200);
    const titles = (await pages(owner.token, base)).map((p) => p.title);
    expect(titles).toEqual(['Home', 'Page A', 'Page B']);
    expect(s.hits).not.toContain('/private');
    const [home, a] = await pages(owner.token, base);
    expect(refs(await pageDocument(owner.token, base, home.id))).toContainEqual({ kind: 'page', page: a.id });
    expect(refs(await pageDocument(owner.token, base, a.id))).toContainEqual({ kind: 'page', page: home.id });
  });

  it('imports into a page: its body (keeping its ID), and for a zip its children too', async () => {
    const { owner, base } = await changeRequest();
    await http(server.url, owner.token, 'POST', base, { changes: [{ operation: 'insert_page', title: 'Target', document: { markdown: 'old body' } }] });
    const [target] = await pages(owner.token, base);
    await http(server.url, owner.token, 'POST', base, { changes: [{ operation: 'insert_page', into: target.id, title: 'Old child', document: {} }] });
    const s = await site({
      '/new.md': { type: 'text/markdown', body: '# Renamed\n\nnew body\n' },
      '/tree.zip': { type: 'application/zip', body: await zipOf({ 'README.md': '# Root\n\nroot body\n', 'child.md': '# Child\n\nchild body\n' }) },
    });
    expect((await http(server.url, owner.token, 'POST', `${base}/page/${target.id}/import`, { url: `${s.url}/new.md`, source: 'markdown' })).status).toBe(200);
    let [page] = await pages(owner.token, base);
    expect(page).toMatchObject({ id: target.id, title: 'Renamed' });
    expect(page.pages?.map((p) => p.title)).toEqual(['Old child']); // a single page keeps the children
    expect(JSON.stringify(await pageDocument(owner.token, base, target.id))).toContain('new body');

    expect((await http(server.url, owner.token, 'POST', `${base}/page/${target.id}/import`, { url: `${s.url}/tree.zip`, source: 'zip' })).status).toBe(200);
    [page] = await pages(owner.token, base);
    expect(page).toMatchObject({ id: target.id, title: 'Root' });
    expect(page.pages?.map((p) => p.title)).toEqual(['Child']);
  });

  it('refuses bad input with a 400 naming the field, third-party sources included', async () => {
    const { owner, base } = await changeRequest();
    const cases: [unknown, string][] = [
      [{ url: 'http://x.test/a.md', source: 'pdf' }, 'source'],
      [{ url: 'ftp://x.test/a.md', source: 'markdown' }, 'url'],
      [{ url: 'not a url', source: 'markdown' }, 'url'],
      [{ source: 'markdown' }, 'url'],
      [{ url: 'http://x.test/a.md', source: 'markdown', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const answer = await http(server.url, owner.token, 'POST', `${base}/import`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toContain(`"${field}"`);
    }
    expect((await http(server.url, owner.token, 'POST', `${base}/import`, { url: 'http://x.test/a.md', source: 'myspace' })).body.error.message).toMatch(/"source".*github-wiki/);
    expect(await server.db.job.count({ where: { changeRequestId: base.split('/')[4] } })).toBe(0);
  });

  it('answers a failed import with its reason, and writes nothing', async () => {
    const { owner, api, space, cr, base } = await changeRequest();
    const s = await site({ '/page.html': { type: 'text/html', body: '<p>x</p>' } });
    const before = (await api.spaces.getChangeRequestById(space.id, cr.id)).data.revision;
    const missing = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${s.url}/missing.md`, source: 'markdown' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/HTTP_ERROR/);
    const wrongType = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${s.url}/page.html`, source: 'docx' });
    expect(wrongType.body.error.message).toMatch(/UNSUPPORTED_CONTENT_TYPE/);
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data.revision).toBe(before);
    expect(await pages(owner.token, base)).toEqual([]);
  });

  it('lets only editors of the space import: another organization gets 404, a reader 403, nothing queued', async () => {
    const { org, owner, base } = await changeRequest();
    const s = await site({ '/a.md': { type: 'text/markdown', body: '# A\n' } });
    const other = await createOrg(server.db);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const body = { url: `${s.url}/a.md`, source: 'markdown' };
    expect((await http(server.url, other.owner.token, 'POST', `${base}/import`, body)).status).toBe(404);
    expect((await http(server.url, reader.token, 'POST', `${base}/import`, body)).status).toBe(403);
    expect((await http(server.url, owner.token, 'POST', `${base}/page/page_nope/import`, body)).status).toBe(404);
    expect(s.hits).toEqual([]);
  });

  it('answers 202 with the job and its Location when the import outlasts the wait', async () => {
    const { owner, base } = await changeRequest();
    const s = await site({ '/slow.md': { type: 'text/markdown', body: '# Slow\n', delayMs: 1500 } });
    const impatient = buildApp({ db: server.db, config: { ...server.config, importWaitMs: 200 }, logger: silentLogger(), events: server.events });
    const { port } = await impatient.start(0, '127.0.0.1');
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v1${base}/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${s.url}/slow.md`, source: 'markdown' }),
      });
      expect(response.status).toBe(202);
      const job = await response.json();
      expect(job).toMatchObject({ object: 'job', kind: 'import', state: expect.stringMatching(/queued|running/) });
      expect(response.headers.get('location')).toBe(job.urls.location);
      await expect.poll(async () => (await http(server.url, owner.token, 'GET', `/jobs/${job.id}`)).body.state, { timeout: 20_000, interval: 250 }).toBe('succeeded');
      expect((await http(server.url, owner.token, 'GET', `/jobs/${job.id}`)).body.result).toMatchObject({ importedResources: 1, totalResources: 1 });
    } finally {
      await impatient.stop();
    }
  });

  it('refuses private addresses unless the operator allows them (QUIRE_FETCH_ALLOW_PRIVATE_NETWORKS)', async () => {
    const { org, owner, space, cr } = await changeRequest();
    const s = await site({ '/a.md': { type: 'text/markdown', body: '# A\n' } });
    // Jobs run here directly (rows without a queue entry): only the settings given here apply.
    const run = async (allow: boolean) => {
      const job = await server.db.job.create({
        data: { id: newId('Job'), kind: 'import', organizationId: org.id, spaceId: space.id, changeRequestId: cr.id, createdById: owner.id, input: { url: `${s.url}/a.md`, source: 'markdown' } },
      });
      const services = { db: server.db, events: server.events, logger: silentLogger(), config: { ...server.config, fetchAllowPrivateNetworks: allow } };
      await runJob(services, JOB_HANDLERS, job.id, { job: { locked_by: 'test' } as never });
      return server.db.job.findUniqueOrThrow({ where: { id: job.id } });
    };
    expect(await run(false)).toMatchObject({ state: 'failed', errorCode: 'BLOCKED_ADDRESS' });
    expect(s.hits).toEqual([]);
    expect(await run(true)).toMatchObject({ state: 'succeeded', result: { importedResources: 1 } });
  });
});

describe('GraphQL imports and the job subscription', () => {
  const IMPORT = `mutation($cr: ID!, $url: String!) { importContent(changeRequest: $cr, url: $url, source: website) { id state kind } }`;
  const WATCH = `subscription($id: ID!) { job(id: $id) { id state progress { done total } message importResult { importedResources totalResources } } }`;

  async function slowSite() {
    const page = (title: string, links: string) => ({ type: 'text/html', delayMs: 300, body: `<html><body><main><h1>${title}</h1><p>${links}</p></main></body></html>` });
    return site({
      '/': page('Start', ['/1', '/2', '/3', '/4'].map((p) => `<a href="${p}">${p}</a>`).join(' ')),
      '/1': page('One', ''),
      '/2': page('Two', ''),
      '/3': page('Three', ''),
      '/4': page('Four', ''),
    });
  }

  it('answers the job at once, and streams its changes over graphql-ws until it succeeds', async () => {
    const { owner, cr } = await changeRequest();
    const s = await slowSite();
    const { importContent: job } = await gqlOk(server.url, owner.token, IMPORT, { cr: cr.id, url: `${s.url}/` });
    expect(job).toMatchObject({ kind: 'import', state: expect.stringMatching(/queued|running/) });
    const client = createClient({ url: `${server.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${owner.token}` }, retryAttempts: 0 });
    const seen: { state: string; progress: { done: number } ; importResult: unknown }[] = [];
    await new Promise<void>((resolve, reject) => client.subscribe({ query: WATCH, variables: { id: job.id } }, { next: (r) => void seen.push((r.data as { job: (typeof seen)[number] }).job), error: reject, complete: resolve }));
    await client.dispose();
    expect(seen.at(-1)).toMatchObject({ state: 'succeeded', importResult: { importedResources: 5, totalResources: 5 } });
    expect(seen.some((j) => j.state === 'running' && j.progress.done > 0)).toBe(true);
  });

  it('streams the same over SSE, and refuses another organization’s job on subscribe', async () => {
    const { owner, cr } = await changeRequest();
    const s = await slowSite();
    const { importContent: job } = await gqlOk(server.url, owner.token, IMPORT, { cr: cr.id, url: `${s.url}/` });
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ query: WATCH, variables: { id: job.id } }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text(); // the stream ends when the job has finished
    const states = [...text.matchAll(/"state":"(\w+)"/g)].map((m) => m[1]);
    expect(states.at(-1)).toBe('succeeded');

    const other = await createOrg(server.db);
    const refused = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${other.owner.token}` },
      body: JSON.stringify({ query: WATCH, variables: { id: job.id } }),
    });
    const refusal = await refused.text();
    expect(refusal).toMatch(/NOT_FOUND/);
    expect(refusal).not.toMatch(/"state"/);
  });
});
