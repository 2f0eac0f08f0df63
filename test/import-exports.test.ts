/**
 * Imports of what Dropbox Paper, Quip and Google Docs export (`source: "dropbox-paper"`, `"quip"`,
 * `"google-docs"`): fixtures built here in each product's format — Paper's markdown (`# Title`
 * first, images on Dropbox's servers) and .docx and a folder's zip; Quip's HTML (its `<h1>` title,
 * links between documents as relative paths, images and attachments in `blobs/`) and a folder's
 * zip; a Google Docs .docx export and a page published to the web (`#contents`, class styles,
 * redirected links, flat nested lists) — served from 127.0.0.1 and imported through REST and
 * GraphQL; hostile exports refused within the caps.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Document, HeadingLevel, ImageRun, Packer, Paragraph, TextRun } from 'docx';
import yazl from 'yazl';
import { afterAll, describe, expect, it } from 'vitest';
import { exportUrl } from '../src/lib/import-readers/sources/google-docs/url.js';
import { readGoogleDocs } from '../src/lib/import-readers/sources/google-docs/index.js';
import { DEFAULT_IMPORT_LIMITS } from '../src/lib/import-readers/tree.js';
import { googleDocsHtml } from '../src/lib/import-readers/sources/google-docs/published-html.js';
import { formOf } from '../src/lib/import-readers/sources/exported-document.js';
import { gqlOk, http, sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { useSites } from './helpers/site.js';
import { zipOf } from './helpers/zip.js';
import { importFailure, refsWithText } from './helpers/imports.js';

const server = useServer({ worker: true });
const site = useSites();

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

async function docx(title: string, text: string): Promise<Buffer> {
  return Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: title, heading: HeadingLevel.TITLE }),
            new Paragraph({ children: [new TextRun({ text, bold: true })] }),
            new Paragraph({ children: [new ImageRun({ type: 'png', data: PNG, transformation: { width: 10, height: 10 } })] }),
          ],
        },
      ],
    }),
  );
}

type PageItem = { id: string; title: string; slug: string; pages?: PageItem[] };

async function changeRequest() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Moving in' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Import' })).data;
  const base = `/spaces/${space.id}/change-requests/${cr.id}/content`;
  return {
    owner,
    cr,
    base,
    importing: (url: string, source: string) => http(server.url, owner.token, 'POST', `${base}/import`, { url, source }),
    pages: async (): Promise<PageItem[]> => (await http(server.url, owner.token, 'GET', `${base}/pages`)).body.pages,
    document: async (id: string) => (await http(server.url, owner.token, 'GET', `${base}/page/${id}?format=document`)).body.document,
    file: async (id: string) => (await http(server.url, owner.token, 'GET', `${base}/files/${id}`)).body,
  };
}


const outline = (pages: PageItem[]): unknown[] => pages.map((p) => (p.pages?.length ? [p.title, ...outline(p.pages)] : p.title));

/** A GraphQL import, waited for through `job(id)`. */
async function graphqlImport(token: string, cr: string, url: string, source: string) {
  const { importContent } = await gqlOk(server.url, token, `mutation($cr: ID!, $url: String!) { importContent(changeRequest: $cr, url: $url, source: ${source}) { id state } }`, { cr, url });
  const read = async () =>
    (await gqlOk(server.url, token, 'query($id: ID!) { job(id: $id) { state progress { done total } error { code } importResult { importedResources totalResources } } }', { id: importContent.id })).job;
  await expect.poll(async () => (await read()).state, { timeout: 20_000, interval: 200 }).toMatch(/succeeded|failed/);
  return read();
}

function bombZip(name: string): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  let sent = 0;
  const chunk = Buffer.alloc(1024 * 1024, 0x41);
  archive.addReadStream(new Readable({ read() { sent += chunk.length; this.push(sent <= 300 * 1024 * 1024 ? chunk : null); } }), name);
  archive.end();
  return (async () => {
    const chunks: Buffer[] = [];
    for await (const c of archive.outputStream) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  })();
}

/** A zip with an entry renamed to climb out of the archive. */
async function climbingZip(entries: Record<string, string>, placeholder: string, name: string): Promise<Buffer> {
  const archive = await zipOf(entries);
  const from = Buffer.from(placeholder);
  for (let i = archive.indexOf(from); i >= 0; i = archive.indexOf(from, i + 1)) Buffer.from(name).copy(archive, i);
  return archive;
}

describe('dropbox-paper', () => {
  const paperMarkdown = [
    '# Launch checklist',
    '',
    'Owner: **Sam**',
    '',
    '- [ ] Write the announcement',
    '- [x] Book the room',
    '',
    '![](https://paper-attachments.dropbox.com/s_5E1F/1700000000_chart.png)',
    '',
  ].join('\n');

  it('imports a document exported as markdown, and one exported as .docx (its images become files)', async () => {
    const c = await changeRequest();
    const s = await site({
      '/Launch%20checklist.md': { type: 'application/octet-stream', body: paperMarkdown },
      '/Retro.docx': { type: DOCX, body: await docx('Retro notes', 'What went well') },
    });
    expect((await c.importing(`${s.url}/Launch%20checklist.md`, 'dropbox-paper')).body).toMatchObject({ importedResources: 1, totalResources: 1 });
    expect((await c.importing(`${s.url}/Retro.docx`, 'dropbox-paper')).body).toMatchObject({ importedResources: 2, totalResources: 2 });
    const [launch, retro] = await c.pages();
    expect([launch.title, retro.title]).toEqual(['Launch checklist', 'Retro notes']);
    const launchDoc = JSON.stringify(await c.document(launch.id));
    expect(launchDoc).toContain('Write the announcement');
    expect(launchDoc).toContain('paper-attachments.dropbox.com'); // Paper's images stay where Paper keeps them
    expect(refsWithText(await c.document(retro.id)).some(([, ref]) => ref.kind === 'file')).toBe(true);
  });

  it('imports a folder’s export (a zip) as a page tree, through GraphQL too; refuses a zip bomb and `..`', async () => {
    const c = await changeRequest();
    const folder = await zipOf({
      'Product/Launch checklist.md': paperMarkdown,
      'Product/Roadmap.md': '# Roadmap\n\nSee [the checklist](Launch%20checklist.md).\n',
      'Product/Archive/2023 plan.md': '# 2023 plan\n',
    });
    const s = await site({
      '/product.zip': { type: 'application/zip', body: folder },
      '/bomb.zip': { type: 'application/zip', body: await bombZip('Product/Huge.md') },
      '/climb.zip': { type: 'application/zip', body: await climbingZip({ 'Product/A.md': '# A\n', 'xx/evil.md': 'x' }, 'xx/evil.md', '../evil.md') },
    });
    const job = await graphqlImport(c.owner.token, c.cr.id, `${s.url}/product.zip`, 'dropbox_paper');
    // The wrapping folder is stripped: Archive (a page without body), its document, and the two others.
    expect(job).toMatchObject({ state: 'succeeded', progress: { done: 4, total: 4 }, importResult: { importedResources: 4, totalResources: 4 } });
    const tree = await c.pages();
    expect(outline(tree)).toEqual([['Archive', '2023 plan'], 'Launch checklist', 'Roadmap']);
    expect(refsWithText(await c.document(tree[2].id))).toEqual([['the checklist', { kind: 'page', page: tree[1].id }]]);

    const bomb = await c.importing(`${s.url}/bomb.zip`, 'dropbox-paper');
    expect(bomb.status).toBe(400);
    expect(bomb.body.error.message).toMatch(/TOO_LARGE/);
    const climb = await c.importing(`${s.url}/climb.zip`, 'dropbox-paper');
    expect(climb.status).toBe(400);
    expect(climb.body.error.message).toMatch(/PARSE_ERROR/);
    expect(await c.pages()).toHaveLength(3); // nothing more written
  });

  it('imports a folder of Word documents (Paper’s export of all docs): each a page, their pictures files of their own', async () => {
    const c = await changeRequest();
    const folder = await zipOf({
      'Paper/Team/Design review.docx': await docx('Design review', 'Decisions'),
      'Paper/Team/Budget.docx': await docx('Budget 2025', 'Numbers'),
      'Paper/Welcome.md': '# Welcome\n\nStart with the [design review](Team/Design%20review.docx).\n',
    });
    const s = await site({ '/paper-export.zip': { type: 'application/zip', body: folder } });
    const answer = await c.importing(`${s.url}/paper-export.zip`, 'dropbox-paper');
    expect(answer.body).toMatchObject({ importedResources: 6, totalResources: 6 });
    const tree = await c.pages();
    expect(outline(tree)).toEqual([['Team', 'Budget 2025', 'Design review'], 'Welcome']);
    const [budget, design] = tree[0].pages!;
    expect(refsWithText(await c.document(tree[1].id))).toEqual([['design review', { kind: 'page', page: design.id }]]);
    const pictures = await Promise.all([budget, design].map(async (page) => refsWithText(await c.document(page.id)).find(([, ref]) => ref.kind === 'file')![1].file));
    expect(new Set(pictures).size).toBe(2); // the same picture name, a file each
    expect(JSON.stringify(await c.document(budget.id))).toContain('Numbers');
  });

  it('refuses what Paper does not export (an HTML page), naming what it reads', async () => {
    const c = await changeRequest();
    const s = await site({ '/page.html': { type: 'text/html', body: '<html><body><h1>Not Paper</h1></body></html>' } });
    const answer = await c.importing(`${s.url}/page.html`, 'dropbox-paper');
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/UNSUPPORTED_CONTENT_TYPE/);
  });
});

describe('quip', () => {
  /** A Quip document as its HTML export writes it. */
  const quipHtml = (title: string, body: string, css = '../document.css') =>
    `<!DOCTYPE html><html><head><meta charset="UTF-8"><title>${title}</title><link rel="stylesheet" href="${css}"></head><body><h1 id="TcE9CAfmXBX">${title}</h1>${body}</body></html>`;

  it('imports a folder export: folders as pages, links between documents, images and attachments from blobs/', async () => {
    const c = await changeRequest();
    const folder = await zipOf({
      'document.css': 'body { font-family: sans-serif }',
      'Private/Launch plan.html': quipHtml(
        'Launch plan',
        `<p id="a1">Read the <a href="../Engineering/Runbook.html">runbook</a> and the <a href="blobs/Spec.pdf">spec</a>.</p><div data-section-style="11"><img src="blobs/chart.png" alt="chart"></div><ul id="b1"><li id="b2" class="checked">Kick-off</li></ul><p>Ask <a href="https://quip.com/aBcDeFgHiJkL">someone not exported</a>.</p>`,
      ),
      'Private/blobs/chart.png': PNG,
      'Private/blobs/Spec.pdf': Buffer.from('%PDF-1.4\n%EOF\n'),
      'Engineering/Runbook.html': quipHtml('Runbook', '<pre id="c1">npm run deploy</pre><p>Back to the <a href="../Private/Launch%20plan.html">plan</a>.</p>'),
    });
    const s = await site({ '/quip-export.zip': { type: 'application/zip', body: folder } });
    const answer = await c.importing(`${s.url}/quip-export.zip`, 'quip');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ importedResources: 6, totalResources: 6 });
    const tree = await c.pages();
    expect(outline(tree)).toEqual([['Engineering', 'Runbook'], ['Private', 'Launch plan']]);
    const plan = tree[1].pages![0];
    const runbook = tree[0].pages![0];
    const planRefs = refsWithText(await c.document(plan.id));
    expect(planRefs).toContainEqual(['runbook', { kind: 'page', page: runbook.id }]);
    expect(planRefs).toContainEqual(['someone not exported', { kind: 'url', url: 'https://quip.com/aBcDeFgHiJkL' }]);
    const files = await Promise.all(planRefs.filter(([, ref]) => ref.kind === 'file').map(([, ref]) => c.file(String(ref.file))));
    expect(files.map((f) => [f.name, f.contentType]).sort()).toEqual([
      ['Spec.pdf', 'application/pdf'],
      ['chart.png', 'image/png'],
    ]);
    expect(refsWithText(await c.document(runbook.id))).toEqual([['plan', { kind: 'page', page: plan.id }]]);
    expect(JSON.stringify(await c.document(runbook.id))).toContain('npm run deploy');
  });

  it('imports a single document as HTML or .docx, through GraphQL too; refuses a zip bomb', async () => {
    const c = await changeRequest();
    const s = await site({
      '/Weekly%20sync.html': { type: 'text/html; charset=utf-8', body: quipHtml('Weekly sync', '<p>Notes of the week.</p>') },
      '/Spec.docx': { type: 'application/octet-stream', body: await docx('Spec', 'Scope') },
      '/bomb.zip': { type: 'application/zip', body: await bombZip('Folder/Doc.html') },
    });
    const job = await graphqlImport(c.owner.token, c.cr.id, `${s.url}/Weekly%20sync.html`, 'quip');
    expect(job).toMatchObject({ state: 'succeeded', importResult: { importedResources: 1 } });
    expect((await c.importing(`${s.url}/Spec.docx`, 'quip')).body).toMatchObject({ importedResources: 2 });
    expect((await c.pages()).map((p) => p.title)).toEqual(['Weekly sync', 'Spec']);
    const bomb = await c.importing(`${s.url}/bomb.zip`, 'quip');
    expect(bomb.body.error.message).toMatch(/TOO_LARGE/);
  });
});

describe('google-docs', () => {
  it('turns a document’s URL into its .docx export; leaves published pages and other URLs alone', () => {
    const id = '1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abc';
    expect(exportUrl(`https://docs.google.com/document/d/${id}/edit?usp=sharing`)).toBe(`https://docs.google.com/document/d/${id}/export?format=docx`);
    expect(exportUrl(`https://docs.google.com/document/u/1/d/${id}/edit#heading=h.x`)).toBe(`https://docs.google.com/document/d/${id}/export?format=docx`);
    expect(exportUrl(`https://docs.google.com/document/d/${id}`)).toBe(`https://docs.google.com/document/d/${id}/export?format=docx`);
    const published = 'https://docs.google.com/document/d/e/2PACX-1vQabcdefghijklmnopqrstuvwxyz/pub';
    expect(exportUrl(published)).toBe(published);
    expect(exportUrl('https://example.com/document/d/1AbCdEfGhIjKlMnOpQrStUvWxYz/edit')).toBe('https://example.com/document/d/1AbCdEfGhIjKlMnOpQrStUvWxYz/edit');
    expect(exportUrl(`https://docs.google.com/spreadsheets/d/${id}/edit`)).toBe(`https://docs.google.com/spreadsheets/d/${id}/edit`);
  });

  /** A page as Google Docs publishes it. */
  const PUBLISHED = [
    '<html><head><meta content="text/html; charset=UTF-8" http-equiv="content-type"><title>Release process</title></head><body>',
    '<div id="banners"><div id="publish-banner"><div>Published using Google Docs</div><a href="https://docs.google.com/abuse">Report abuse</a></div></div>',
    '<div id="title">Release process</div>',
    '<div id="contents"><style type="text/css">.lst-kix_a-1>li:before{content:"\\0025cb  "}.c1{font-weight:700}.c2{font-style:italic}.c3{font-family:"Courier New";font-weight:400}.c9{color:inherit;text-decoration:inherit}</style>',
    '<p class="c5 title" id="h.t"><span class="c4">Release process</span></p>',
    '<h2 class="c6" id="h.s"><span>Steps</span></h2>',
    '<ul class="c7 lst-kix_a-0 start"><li class="c0 li-bullet-0"><span class="c1">Tag</span><span> the release</span></li></ul>',
    '<ul class="c7 lst-kix_a-1 start"><li class="c0 li-bullet-1"><span class="c2">Sign</span><span> the tag</span></li></ul>',
    '<ul class="c7 lst-kix_a-0"><li class="c0 li-bullet-0"><span>Publish with </span><span class="c3">npm publish</span></li></ul>',
    '<p class="c8"><span>See </span><span class="c10"><a class="c9" href="https://www.google.com/url?q=https://example.com/runbook&amp;sa=D&amp;source=editors&amp;ust=1700000000&amp;usg=AOvVaw0">the runbook</a></span></p>',
    '</div><div id="footer"><div id="footer-content">Updated automatically every 5 minutes</div></div></body></html>',
  ].join('');

  it('reads a published page: its title, styles from classes, real link targets, nested lists, no Google chrome', () => {
    const { title, markdown } = googleDocsHtml({ bytes: Buffer.from(PUBLISHED) });
    expect(title).toBe('Release process');
    expect(markdown).toBe(
      [
        '# Release process',
        '',
        '## Steps',
        '',
        '* **Tag** the release',
        '  * _Sign_ the tag',
        '* Publish with `npm publish`',
        '',
        'See [the runbook](https://example.com/runbook)',
        '',
      ].join('\n'),
    );
  });

  it('imports a .docx export and a published page through REST and GraphQL', async () => {
    const c = await changeRequest();
    const s = await site({
      '/document/d/1AbC/export': { type: DOCX, body: await docx('Design doc', 'Goals') },
      '/document/d/e/2PACX-1vQ/pub': { type: 'text/html; charset=utf-8', body: PUBLISHED },
    });
    expect((await c.importing(`${s.url}/document/d/1AbC/export?format=docx`, 'google-docs')).body).toMatchObject({ importedResources: 2, totalResources: 2 });
    const job = await graphqlImport(c.owner.token, c.cr.id, `${s.url}/document/d/e/2PACX-1vQ/pub`, 'google_docs');
    expect(job).toMatchObject({ state: 'succeeded', progress: { done: 1, total: 1 } });
    const [design, release] = await c.pages();
    expect([design.title, release.title]).toEqual(['Design doc', 'Release process']);
    expect(refsWithText(await c.document(design.id)).some(([, ref]) => ref.kind === 'file')).toBe(true);
    const releaseDoc = await c.document(release.id);
    expect(refsWithText(releaseDoc)).toEqual([['the runbook', { kind: 'url', url: 'https://example.com/runbook' }]]);
    expect(JSON.stringify(releaseDoc)).not.toContain('Published using Google Docs');
  });

  it('refuses a redirect loop, a zip that is not a document, and a markdown file', async () => {
    const loop = createServer((req, res) => res.writeHead(302, { location: req.url === '/a' ? '/b' : '/a' }).end());
    loop.listen(0, '127.0.0.1');
    await once(loop, 'listening');
    afterAll(() => void loop.close());
    const c = await changeRequest();
    const answer = await c.importing(`http://127.0.0.1:${(loop.address() as AddressInfo).port}/a`, 'google-docs');
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/FETCH_ERROR/);
    const s = await site({ '/export.zip': { type: 'application/zip', body: await zipOf({ 'a.md': '# A\n' }) }, '/a.md': { type: 'text/markdown', body: '# A\n' } });
    for (const path of ['/export.zip', '/a.md']) expect((await c.importing(`${s.url}${path}`, 'google-docs')).body.error.message).toMatch(/UNSUPPORTED_CONTENT_TYPE/);
    expect(await c.pages()).toEqual([]);
  });

  it('refuses the sign-in page Google answers for a document that is not shared', async () => {
    const context = { fetch: async () => { throw new Error('no fetch'); }, limits: DEFAULT_IMPORT_LIMITS, signal: new AbortController().signal, progress: () => {} };
    const signIn = { url: 'https://accounts.google.com/v3/signin/identifier', status: 200, contentType: 'text/html', bytes: Buffer.from('<html><body><h1>Sign in</h1></body></html>') };
    const error = await importFailure(readGoogleDocs(signIn, context, true));
    expect(error.code).toBe('HTTP_ERROR');
    expect(error.message).toMatch(/share the document/);
    // The same page asked for as a published page is read.
    await expect(readGoogleDocs(signIn, context, false)).resolves.toMatchObject({ pages: [{ title: 'Sign in' }] });
  });

  it('tells the forms apart by their bytes', async () => {
    expect(await formOf({ bytes: await docx('T', 'x'), contentType: 'application/octet-stream' })).toBe('docx');
    expect(await formOf({ bytes: await zipOf({ 'a.md': '# A' }), contentType: 'application/octet-stream' })).toBe('zip');
    // A folder of .docx documents, one stored uncompressed (its part names readable in the bytes), is a folder.
    const stored = new yazl.ZipFile();
    stored.addBuffer(await docx('T', 'x'), 'Folder/Spec.docx', { compress: false });
    stored.end();
    const chunks: Buffer[] = [];
    for await (const c of stored.outputStream) chunks.push(c as Buffer);
    const folder = Buffer.concat(chunks);
    expect(folder.includes('word/document.xml')).toBe(true);
    expect(await formOf({ bytes: folder, contentType: 'application/zip' })).toBe('zip');
    expect(await formOf({ bytes: Buffer.from('\uFEFF  <!DOCTYPE html><html>'), contentType: 'application/octet-stream' })).toBe('html');
    expect(await formOf({ bytes: Buffer.from('# Title\n'), contentType: 'text/plain' })).toBe('markdown');
  });
});
