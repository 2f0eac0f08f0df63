/**
 * PDF of a change request (API 4.6, `GET …/change-requests/{id}/pdf`): the renderer on its own
 * (uncompressed, its text read back), then through the SDK and a plain fetch of the signed URL —
 * the content as of the request for the URL, `page` and `only`, access, tampered and expired
 * links, batching of body reads, and the answer against the public document's schema.
 */
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { checkPdfSize, MAX_PDF_DOCUMENT_BYTES, MAX_PDF_PAGES, PDF_BATCH_PAGES } from '../src/domain/versions/exports/change-request-pdf.js';
import type { PageEntry } from '../src/domain/versions/revisions/entries.js';
import { signPdfLink, verifyPdfLink } from '../src/domain/versions/exports/pdf-link.js';
import { printable, renderPdf, type PdfPage } from '../src/lib/pdf/render.js';
import { signingSecret } from '../src/domain/kernel/signing-secret.js';
import { gqlOk, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

// ---- documents ----

const text = (t: string, ...marks: string[]) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: marks.map((type) => ({ object: 'mark', type })) }] });
const block = (type: string, nodes: unknown[], data: Record<string, unknown> = {}) => ({ object: 'block', type, data, nodes });
const voidBlock = (type: string, data: Record<string, unknown>, fragments: unknown[] = []) => ({ object: 'block', type, isVoid: true, data, fragments });
const fragment = (name: string, nodes: unknown[]) => ({ object: 'fragment', fragment: name, nodes });
const para = (...nodes: unknown[]) => block('paragraph', nodes);
const item = (...nodes: unknown[]) => block('list-item', nodes);
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes }) as never;

/** A document with one block of each kind the renderer knows, and one it does not. */
const everything = doc(
  block('heading-1', [text('Heading one')]),
  block('heading-2', [text('Heading two')]),
  block('heading-3', [text('Heading three')]),
  para(text('Plain, '), text('bold', 'bold'), text(', '), text('italic', 'italic'), text(', '), text('code()', 'code'), text(' and a '), { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://example.com' } }, nodes: [text('link')] }, text('.')),
  block('list-unordered', [item(para(text('Bullet one'))), item(para(text('Bullet two')), block('list-ordered', [item(para(text('Nested first'))), item(para(text('Nested second')))]))]),
  block('list-ordered', [item(para(text('Numbered')))], { start: 7 }),
  block('list-tasks', [{ ...item(para(text('Done task'))), data: { checked: true } }, item(para(text('Open task')))]),
  block('code', [block('code-line', [text('const answer = 42;')]), block('code-line', [text('return answer;')])], { syntax: 'javascript', title: 'answer.js' }),
  block('hint', [para(text('Mind the gap.'))], { style: 'warning' }),
  block('blockquote', [para(text('Quoted words.'))]),
  voidBlock('table', { view: { type: 'grid', columns: ['c1', 'c2'] }, definition: { c1: { id: 'c1', title: 'Name', type: 'text' }, c2: { id: 'c2', title: 'Value', type: 'text' } }, records: { r2: { orderIndex: 'a1', values: { c1: 'r2c1', c2: 'r2c2' } }, r1: { orderIndex: 'a0', values: { c1: 'r1c1', c2: 'r1c2' } } } }, [
    fragment('r1c1', [para(text('Alpha cell'))]),
    fragment('r1c2', [para(text('First value'))]),
    fragment('r2c1', [para(text('Beta cell'))]),
    fragment('r2c2', [para(text('Second value'))]),
  ]),
  block('images', [voidBlock('image', { ref: { kind: 'url', url: 'https://example.com/cat.png' }, alt: 'A sleeping cat' }, [fragment('caption', [para(text('Figure caption'))])])]),
  voidBlock('expandable', {}, [fragment('expandable-title', [para(text('Expandable title'))]), fragment('expandable-body', [para(text('Expandable body'))])]),
  block('tabs', [block('tabs-item', [para(text('First tab body'))], { title: 'First tab' }), block('tabs-item', [para(text('Second tab body'))], { title: 'Second tab' })]),
  voidBlock('math', { formula: 'E = mc^2' }),
  voidBlock('divider', {}),
  block('mystery-block', [text('Unknown block text')]),
);

// ---- reading PDFs back ----

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** Content streams, inflated when compressed. */
function contentStreams(pdf: Buffer): string[] {
  const out: string[] = [];
  const raw = pdf.toString('latin1');
  const re = /<<([^]*?)>>\s*stream\r?\n/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    const body = pdf.subarray(start, end);
    try {
      out.push(m[1].includes('/FlateDecode') ? inflateSync(body).toString('latin1') : body.toString('latin1'));
    } catch {
      // not a content stream we can read (fonts are built in: there is none other)
    }
  }
  return out;
}

/** The text drawn by a pdfkit PDF (its `[<hex> …] TJ` operators), pieces joined. */
function textOf(pdf: Buffer): string {
  const pieces: string[] = [];
  for (const stream of contentStreams(pdf)) {
    for (const tj of stream.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      pieces.push([...tj[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1], 'hex').toString('latin1')).join(''));
    }
  }
  return pieces.join('');
}

const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;

// ---- the HTTP side ----

const document = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(document, 'openapi');
const PDF_PATH = '/spaces/{spaceId}/change-requests/{changeRequestId}/pdf';
const validatePdfAnswer = ajv.compile({ $ref: `openapi#/paths/${PDF_PATH.replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema` });

/** The URL on the test server (the configured public URL, http://localhost:0, is not where it listens). */
const onServer = (url: string) => {
  const u = new URL(url);
  return `${server.url}${u.pathname}${u.search}`;
};

async function download(url: string, init?: RequestInit) {
  const response = await fetch(onServer(url), init);
  const body = Buffer.from(await response.arrayBuffer());
  return { response, body, json: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(body.toString('utf8')) : undefined };
}

type Api = ReturnType<typeof sdk>;

async function write(api: Api, spaceId: string, crId: string, changes: Record<string, unknown>[]): Promise<Record<string, string>> {
  const result = (await api.spaces.updateChangeRequestContent(spaceId, crId, { changes: changes as never }, { compat: false } as never)).data as any;
  return Object.fromEntries(result.changes.filter((c: any) => c.ref).map((c: any) => [c.ref, c.page.id]));
}

/** A space with a change request of five pages: Alpha (with Child, which has Grandchild), Beta, Gamma. */
async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Field Guide' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Print me' })).data;
  const top = await write(api, space.id, cr.id, [
    { operation: 'insert_page', ref: 'alpha', title: 'Alpha page', description: 'About alpha', document: { document: doc(block('heading-1', [text('Heading one')]), para(text('Alpha body'))) } },
    { operation: 'insert_page', ref: 'beta', title: 'Beta page', document: { markdown: 'Beta **body** text.\n\n- one\n- two\n' } },
    { operation: 'insert_page', ref: 'gamma', title: 'Gamma page', document: { document: doc(para(text('Gamma body'))) } },
  ]);
  const child = await write(api, space.id, cr.id, [{ operation: 'insert_page', ref: 'child', into: top.alpha, title: 'Child page', document: { markdown: 'Child body.\n' } }]);
  const grandchild = await write(api, space.id, cr.id, [{ operation: 'insert_page', ref: 'grandchild', into: child.child, title: 'Grandchild page', document: { markdown: 'Grandchild body.\n' } }]);
  const pages = { ...top, ...child, ...grandchild };
  const all = await gqlOk(server.url, owner.token, `query($s: ID!, $c: ID!) { space(id: $s) { changeRequest(id: $c) { revision { allPages { id } } } } }`, { s: space.id, c: cr.id });
  return { org, owner, api, space, cr, pages, total: all.space.changeRequest.revision.allPages.length as number };
}

async function pdfUrl(api: Api, spaceId: string, crId: string, query: { page?: string; only?: boolean } = {}) {
  const answer = (await api.spaces.getChangeRequestPdf(spaceId, crId, query)).data;
  expect(validatePdfAnswer(answer), JSON.stringify(validatePdfAnswer.errors)).toBe(true);
  return answer.url;
}

// ---- tests ----

describe('PDF rendering', () => {
  it('draws every kind of block, each content page from the top of a new PDF page, in order', async () => {
    const pages: PdfPage[] = [
      { title: 'Alpha page', kind: 'document', description: 'About alpha', document: everything },
      { title: 'Section', kind: 'group' },
      { title: 'Elsewhere', kind: 'link', target: 'https://example.com/else' },
      { title: 'Empty page', kind: 'document', document: null },
    ];
    const pdf = await bytesOf(renderPdf(pages, { title: 'Test', compress: false }));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The first page's blocks take two PDF pages; each other content page takes one of its own.
    expect(pageCount(pdf)).toBe(5);
    const short = await bytesOf(renderPdf(['One', 'Two', 'Three'].map((title) => ({ title, kind: 'document' as const, document: doc(para(text(`${title} body`))) })), { title: 'Short', compress: false }));
    expect(pageCount(short)).toBe(3);
    const drawn = textOf(pdf);
    const expected = [
      'Alpha page', 'About alpha', 'Heading one', 'Heading two', 'Heading three', 'Plain, ', 'bold', 'italic', 'code()', 'link',
      'Bullet one', 'Nested first', 'Nested second', '7.', 'Numbered', '[x]', 'Done task', '[ ]', 'Open task',
      'answer.js', 'const answer = 42;', 'return answer;', 'Warning', 'Mind the gap.', 'Quoted words.',
      'Name', 'Value', 'Alpha cell', 'First value', 'Beta cell', 'Second value', '[Image: A sleeping cat]', 'Figure caption',
      'Expandable title', 'Expandable body', 'First tab', 'First tab body', 'Second tab', 'Second tab body', 'E = mc^2', 'Unknown block text',
      'Section', 'Elsewhere', 'https://example.com/else', 'Empty page',
    ];
    let at = 0;
    for (const piece of expected) {
      const found = drawn.indexOf(piece, at);
      expect(found, `"${piece}" drawn after position ${at}`).toBeGreaterThanOrEqual(0);
      at = found;
    }
    // Table rows in orderIndex order, not key order.
    expect(drawn.indexOf('Alpha cell')).toBeLessThan(drawn.indexOf('Beta cell'));
    // Remote images are never fetched: no image object in the PDF.
    expect(pdf.toString('latin1')).not.toMatch(/\/Subtype \/Image/);
  });

  it('prints text outside WinAnsi as "?" (arrows spelled out, emoji left out) and survives hostile nesting', async () => {
    expect(printable('café → 中 😀 “ok” €')).toBe('café -> ?  “ok” €');
    const nested = (depth: number, type: string) => {
      let node: unknown = para(text(`bottom of ${depth}`));
      for (let i = 0; i < depth; i++) node = type === 'list-unordered' ? block(type, [item(node)]) : block(type, [node], { style: 'info' });
      return node;
    };
    const deep = doc(nested(120, 'blockquote'), nested(120, 'list-unordered'), nested(120, 'hint'), nested(5000, 'blockquote'), { nonsense: true }, para({ object: 'text' }), 'not a block');
    const pdf = await bytesOf(renderPdf([{ title: 'Deep', kind: 'document', document: deep }], { title: 'x', compress: false }));
    const drawn = textOf(pdf);
    // Each of the 120-deep blocks keeps its text (deeper than the renderer nests, as plain text); 5000 levels are dropped, not a crash.
    expect(drawn.split('bottom of 120').length - 1).toBe(3);
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
  });

  it('answers a one-page PDF for no pages at all, and compresses by default', async () => {
    const pdf = await bytesOf(renderPdf([], { title: 'Nothing' }));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pageCount(pdf)).toBe(1);
    expect(pdf.toString('latin1')).toContain('/FlateDecode');
  });
});

describe('GET /spaces/{spaceId}/change-requests/{changeRequestId}/pdf', () => {
  it('answers a signed URL that serves the whole request as a PDF, without an Authorization header', async () => {
    const { api, space, cr, total } = await setup();
    const url = await pdfUrl(api, space.id, cr.id);
    expect(url).toMatch(/^http:\/\/localhost:0\/exports\/pdf\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const { response, body } = await download(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="field-guide-change-request-${cr.number}.pdf"`);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(response.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(3600);
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(total).toBeGreaterThanOrEqual(5);
    expect(pageCount(body)).toBe(total);
    const drawn = textOf(body);
    // Tree order: Alpha, its Child, its Grandchild, then Beta and Gamma.
    const order = ['Alpha page', 'Heading one', 'Child page', 'Grandchild page', 'Beta page', 'Gamma page'].map((t) => drawn.indexOf(t));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(drawn).toContain('Beta body text.');
    // The change request by number works too; HEAD answers the headers only.
    const byNumber = await pdfUrl(api, space.id, String(cr.number));
    const head = await fetch(onServer(byNumber), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/pdf');
  });

  it('narrows to a page and its descendants with `page`, to the page alone with `only`', async () => {
    const { api, space, cr, pages } = await setup();
    const subtree = await download(await pdfUrl(api, space.id, cr.id, { page: pages.alpha }));
    expect(subtree.response.status).toBe(200);
    expect(pageCount(subtree.body)).toBe(3);
    expect(textOf(subtree.body)).toContain('Grandchild page');
    expect(textOf(subtree.body)).not.toContain('Beta page');
    const only = await download(await pdfUrl(api, space.id, cr.id, { page: pages.alpha, only: true }));
    expect(pageCount(only.body)).toBe(1);
    expect(textOf(only.body)).toContain('Alpha page');
    expect(textOf(only.body)).not.toContain('Child page');
    expect(only.response.headers.get('content-disposition')).toBe(`inline; filename="field-guide-change-request-${cr.number}-alpha-page.pdf"`);
    const leaf = await download(await pdfUrl(api, space.id, cr.id, { page: pages.gamma, only: false }));
    expect(pageCount(leaf.body)).toBe(1);
    expect(textOf(leaf.body)).toContain('Gamma body');
    // `only` without `page` means nothing: the whole request.
    const whole = await download(await pdfUrl(api, space.id, cr.id, { only: true }));
    expect(pageCount(whole.body)).toBeGreaterThanOrEqual(5);
  });

  it('prints the revision the URL was asked for, however the request changes after', async () => {
    const { api, space, cr, pages } = await setup();
    const before = await pdfUrl(api, space.id, cr.id, { page: pages.gamma, only: true });
    await write(api, space.id, cr.id, [{ operation: 'update_page', page: pages.gamma, title: 'Gamma renamed', document: { markdown: 'New gamma body.\n' } }]);
    const after = await pdfUrl(api, space.id, cr.id, { page: pages.gamma, only: true });
    const old = textOf((await download(before)).body);
    expect(old).toContain('Gamma body');
    expect(old).not.toContain('Gamma renamed');
    expect(textOf((await download(after)).body)).toContain('New gamma body.');
  });

  it('404s for a stranger and for an unknown page or request; 400 for a malformed `only`; 401 without a token', async () => {
    const { api, space, cr } = await setup();
    const stranger = await createOrg(server.db, 'Elsewhere');
    const theirs = sdk(server.url, stranger.owner.token);
    expect((await sdkError(theirs.spaces.getChangeRequestPdf(space.id, cr.id, {}))).status).toBe(404);
    expect(await sdkError(api.spaces.getChangeRequestPdf(space.id, cr.id, { page: 'no-such-page' }))).toEqual({ status: 404, message: 'Page not found' });
    expect((await sdkError(api.spaces.getChangeRequestPdf(space.id, 'no-such-request', {}))).status).toBe(404);
    expect((await sdkError(api.spaces.getChangeRequestPdf(space.id, cr.id, { only: 'maybe' as never }))).status).toBe(400);
    const noAuth = await fetch(`${server.url}/v1/spaces/${space.id}/change-requests/${cr.id}/pdf`);
    expect(noAuth.status).toBe(401);
  });

  it("stops serving a URL once its holder's access is gone", async () => {
    const { api, org, space, cr } = await setup();
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const url = await pdfUrl(sdk(server.url, reader.token), space.id, cr.id);
    expect((await download(url)).response.status).toBe(200);
    await api.orgs.removeMemberFromOrganizationById(org.id, reader.id);
    const { response, json } = await download(url);
    expect(response.status).toBe(404);
    expect(json).toEqual({ error: { code: 404, message: 'Space not found' } });
  });

  it('refuses a tampered, forged or expired link with 403 and the REST error body', async () => {
    const { api, space, cr, owner } = await setup();
    const url = await pdfUrl(api, space.id, cr.id);
    const token = new URL(url).pathname.split('/').pop()!;
    const [header, payload, signature] = token.split('.');
    const flip = (s: string) => (s[s.length - 2] === 'A' ? `${s.slice(0, -2)}B${s.slice(-1)}` : `${s.slice(0, -2)}A${s.slice(-1)}`);
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, rev: 'rev_other' })).toString('base64url');
    const secret = await signingSecret(server.db);
    const expired = await signPdfLink(
      { userId: owner.id, spaceId: space.id, changeRequestId: cr.id, revisionId: claims.rev },
      { secret, issuer: 'http://localhost:0' },
      { now: new Date(Date.now() - 2 * 3600_000) },
    );
    for (const [bad, message] of [
      [`${header}.${payload}.${flip(signature)}`, 'This PDF link is not valid'],
      [`${header}.${otherPayload}.${signature}`, 'This PDF link is not valid'],
      ['not-a-token', 'This PDF link is not valid'],
      ['', 'This PDF link is not valid'],
      [expired, 'This PDF link has expired: ask the API for a new one'],
    ] as const) {
      const { response, json } = await download(`http://localhost:0/exports/pdf/${bad}`);
      expect(response.status, bad).toBe(403);
      expect(json).toEqual({ error: { code: 403, message } });
    }
    // A token signed with the raw secret (as visitor claims are) is not a PDF link.
    expect((await verifyPdfLink(token, { secret: new TextEncoder().encode('another secret'), issuer: 'http://localhost:0' })).ok).toBe(false);
    expect((await verifyPdfLink(token, { secret, issuer: 'http://elsewhere' })).ok).toBe(false);
    expect((await verifyPdfLink(token, { secret, issuer: 'http://localhost:0' })).ok).toBe(true);
    const post = await download(url, { method: 'POST' });
    expect(post.response.status).toBe(405);
    expect(post.json).toEqual({ error: { code: 405, message: 'Method POST is not allowed' } });
  });

  it('is a GraphQL field too, and reads bodies in batches: one statement per batch, never one per page', async () => {
    const { api, space, cr, owner } = await setup();
    const extra = Array.from({ length: 60 }, (_, i) => ({ operation: 'insert_page', title: `Extra ${i}`, document: { markdown: `Extra body ${i}.\n` } }));
    await write(api, space.id, cr.id, extra.slice(0, 40));
    await write(api, space.id, cr.id, extra.slice(40));
    const data = await gqlOk(server.url, owner.token, `query($s: ID!, $c: ID!) { space(id: $s) { changeRequest(id: $c) { pdfURL revision { allPages { id } } } } }`, { s: space.id, c: cr.id });
    const total = data.space.changeRequest.revision.allPages.length;
    expect(total).toBeGreaterThan(PDF_BATCH_PAGES);
    const from = server.queries.length;
    const { response, body } = await download(data.space.changeRequest.pdfURL);
    expect(response.status).toBe(200);
    expect(pageCount(body)).toBe(total);
    expect(textOf(body)).toContain('Extra body 59.');
    const documentReads = server.queries.slice(from).filter((q) => /FROM "Document"/.test(q));
    // The sizes (one statement) and the bodies, in batches of at most PDF_BATCH_PAGES.
    expect(documentReads.length).toBe(1 + Math.ceil(total / PDF_BATCH_PAGES));
    expect(server.queries.slice(from).length).toBeLessThan(20);
  });

  it(`refuses more than ${MAX_PDF_PAGES} pages or ${MAX_PDF_DOCUMENT_BYTES / 2 ** 20} MB of documents with a 400 that says to name a page`, () => {
    const pages = (n: number) => Array.from({ length: n }, (_, i) => ({ entityId: `p${i}`, documentId: `d${i}` }) as PageEntry);
    expect(() => checkPdfSize(pages(MAX_PDF_PAGES), new Map())).not.toThrow();
    expect(() => checkPdfSize(pages(MAX_PDF_PAGES + 1), new Map())).toThrow(
      expect.objectContaining({ status: 400, message: `The PDF would hold ${MAX_PDF_PAGES + 1} pages; at most ${MAX_PDF_PAGES} pages are printed at once: name a page (with "page") to print part of the content` }),
    );
    const sizes = new Map([['d0', MAX_PDF_DOCUMENT_BYTES], ['d1', 1]]);
    expect(() => checkPdfSize(pages(1), new Map([['d0', MAX_PDF_DOCUMENT_BYTES]]))).not.toThrow();
    expect(() => checkPdfSize(pages(2), sizes)).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(/^The PDF's pages hold 32 MB of content; at most 32 MB is printed at once: name a page/) }));
  });
});
