/**
 * Hostile markdown cannot freeze or kill the instance: nested brackets, a huge GFM table, tens of
 * thousands of links and emphasis chains the pre-checks let through are sent as page bodies
 * (REST content batch) and as markdown imports, while `GET /healthz` is timed: every answer comes
 * within 200 ms, the hostile page is refused with a 400 naming the limit (an import's job ends
 * `failed` with a readable reason, nothing written), and the server keeps converting afterwards.
 * A large page within the limits (multi-MB documents) is stored without blocking /healthz either,
 * under the same content-addressed ID the event loop would have computed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES, MAX_LINKS, MAX_NESTING_DEPTH, MAX_TABLE_CELLS } from '../src/lib/markdown/index.js';
import { documentId } from '../src/domain/versions/revisions/documents.js';
import { http, sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { useSites } from './helpers/site.js';

// A short conversion budget: the flat emphasis below would take about a minute, and is cut at 5 s.
const server = useServer({ worker: true, env: () => ({ QUIRE_CONVERT_TIMEOUT_SECONDS: '5' }) });

const serve = useSites();

/** `[[[…x…]]]`, `depth` deep. */
const brackets = (depth: number) => '['.repeat(depth) + 'x' + ']'.repeat(depth);
/** A GFM table of `rows` × `columns` cells (header included in neither). */
const table = (rows: number, columns: number) =>
  ['|' + Array(columns).fill('h').join('|') + '|', '|' + Array(columns).fill('-').join('|') + '|', ...Array(rows).fill('|' + Array(columns).fill('x').join('|') + '|')].join('\n');
const links = (count: number) => Array.from({ length: count }, (_, i) => `[l](/p${i})`).join(' ');
/** Emphasis of mixed markers (`*_*_x_*_*`), repeated in one paragraph: quadratic for the parser. */
const emphasisChains = (count: number) => Array.from({ length: count }, () => '*_'.repeat(16) + 'x' + '_*'.repeat(16)).join(' ');
/**
 * `*a* *a* …`: within every limit, so missed by the pre-checks, but super-linear for the parser:
 * 60,000 (240 KB) take ~18 s here with a heap under 350 MB, so the time budget (5 s) cuts it long
 * before the memory budget (512 MB) could. 400,000 raced the two.
 */
const flatEmphasis = (count: number) => '*a* '.repeat(count);

async function changeRequest() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Hostile' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Hostile' })).data;
  return { token: owner.token, spaceId: space.id as string, crId: cr.id as string, base: `/spaces/${space.id}/change-requests/${cr.id}/content` };
}

/**
 * Runs `work` while `GET /healthz` is asked every 50 ms; answers the work's result and the
 * slowest health answer, in ms, counted from when the check was due: the server runs in this
 * process, so a blocked event loop shows as a late timer as much as a late answer.
 */
/**
 * The bound: /healthz answers within 200 ms while a conversion runs. Measured in a test
 * process that shares two cores with the rest of the suite, a late timer also shows the machine's
 * own noise: it is measured while nothing runs (beforeAll) and allowed on top. The freezes this
 * file guards against lasted from half a second to minutes.
 */
const HEALTH_BUDGET_MS = 200;
let noiseMs = 0;
beforeAll(async () => {
  noiseMs = (await whileTimingHealth(() => new Promise((resolve) => setTimeout(resolve, 1_500)))).slowest;
});

function expectHealthy(slowest: number): void {
  // The allowance is capped: on a machine too busy for it, a failure is the honest answer.
  expect(slowest, `slowest /healthz ${Math.round(slowest)} ms (idle noise ${Math.round(noiseMs)} ms)`).toBeLessThan(HEALTH_BUDGET_MS + Math.min(noiseMs, 150));
}

async function whileTimingHealth<T>(work: () => Promise<T>): Promise<{ result: T; slowest: number; checks: number }> {
  let done = false;
  const times: number[] = [];
  const poll = (async () => {
    while (!done) {
      const due = performance.now() + 50;
      await new Promise((resolve) => setTimeout(resolve, 50));
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(200);
      await response.text();
      times.push(performance.now() - due);
    }
  })();
  try {
    const result = await work();
    return { result, slowest: Math.max(...times), checks: times.length };
  } finally {
    done = true;
    await poll;
  }
}

const insertPage = (token: string, base: string, markdown: string) =>
  http(server.url, token, 'POST', base, { changes: [{ operation: 'insert_page', title: 'Page', document: { markdown } }] });

async function site(path: string, body: string, type = 'text/markdown') {
  const s = await serve({ [path]: { type, body } });
  return `${s.url}${path}`;
}

/** The server still converts an ordinary page, quickly. */
async function stillConverts(token: string, base: string) {
  const started = performance.now();
  const ok = await insertPage(token, base, '# Fine\n\nA page with **bold** and a [link](https://example.com).\n');
  expect(ok.status).toBe(200);
  // A thread stopped at its budget is replaced (its modules loaded again): 3.9 s was seen while other suites loaded the machine.
  expect(performance.now() - started).toBeLessThan(5_000);
}

describe('hostile markdown through the content batch', () => {
  it('refuses a 96 KB page of nested brackets with 400 naming the nesting depth, /healthz answering all along', async () => {
    const { token, base } = await changeRequest();
    const { result, slowest, checks } = await whileTimingHealth(() => insertPage(token, base, brackets(48_000)));
    expect(result.status).toBe(400);
    expect(result.body.error.message).toMatch(/nesting depth/);
    expect(result.body.error.message).toContain(String(MAX_NESTING_DEPTH));
    expect(checks).toBeGreaterThan(0);
    expectHealthy(slowest);
    expect((await http(server.url, token, 'GET', `${base}/pages`)).body.pages).toEqual([]);

    // Emphasis chains of mixed markers in one paragraph (20 KB: seconds of parsing) are nesting too.
    const chains = await whileTimingHealth(() => insertPage(token, base, emphasisChains(300)));
    expect(chains.result.status).toBe(400);
    expect(chains.result.body.error.message).toMatch(/mixed markers.*nesting depth/);
    expectHealthy(chains.slowest);
    await stillConverts(token, base);
  });

  it('refuses a 1.8 MB table (3,000 × 300) with 400 naming the table cells, and converts one within the limit', async () => {
    const { token, base } = await changeRequest();
    const { result, slowest } = await whileTimingHealth(() => insertPage(token, base, table(3_000, 300)));
    expect(result.status).toBe(400);
    expect(result.body.error.message).toMatch(/table cells/);
    expect(result.body.error.message).toContain(String(MAX_TABLE_CELLS));
    expectHealthy(slowest);

    // 50 × 100: within the limit, converted (off the event loop too).
    const within = await whileTimingHealth(() => insertPage(token, base, table(50, 100)));
    expect(within.result.status).toBe(200);
    expectHealthy(within.slowest);
    const [page] = (await http(server.url, token, 'GET', `${base}/pages`)).body.pages;
    const document = (await http(server.url, token, 'GET', `${base}/page/${page.id}?format=document`)).body.document;
    expect(document.nodes[0]).toMatchObject({ type: 'table' });
  });

  it('refuses a page of 60,000 links with 400 naming the links limit', async () => {
    const { token, base } = await changeRequest();
    const { result, slowest } = await whileTimingHealth(() => insertPage(token, base, links(60_000)));
    expect(result.status).toBe(400);
    expect(result.body.error.message).toMatch(/links/);
    expect(result.body.error.message).toContain(String(MAX_LINKS));
    expectHealthy(slowest);
    await stillConverts(token, base);
  });

  it('cuts a conversion the pre-checks let through at its time budget: 400 naming it, the thread stopped', async () => {
    const { token, base } = await changeRequest();
    const started = performance.now();
    const { result, slowest } = await whileTimingHealth(() => insertPage(token, base, flatEmphasis(60_000)));
    expect(result.status).toBe(400);
    expect(result.body.error.message).toMatch(/conversion time/);
    expect(result.body.error.message).toContain('5 s');
    expect(performance.now() - started).toBeLessThan(12_000);
    expectHealthy(slowest);
    await stillConverts(token, base);
  });
});

/** `count` keyed paragraphs: about 184 bytes of document JSON each. */
const paragraphs = (count: number) => ({
  object: 'document',
  data: {},
  nodes: Array.from({ length: count }, (_, i) => ({
    object: 'block',
    type: 'paragraph',
    key: `p${i}`,
    isVoid: false,
    data: {},
    nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: `Paragraph ${i} xxxxxxxxxx`, marks: [] }] }],
  })),
});

/** The stored document of a page of the change request: its row's ID and body. */
async function storedDocument(base: string, token: string, title: string) {
  const pages = (await http(server.url, token, 'GET', `${base}/pages`)).body.pages as { id: string; title: string }[];
  const page = pages.find((p) => p.title === title)!;
  const entry = await server.db.contentEntry.findFirstOrThrow({ where: { entityId: page.id }, orderBy: { id: 'desc' } });
  const row = await server.db.document.findUniqueOrThrow({ where: { id: entry.documentId! } });
  const read = (await http(server.url, token, 'GET', `${base}/page/${page.id}?format=document`)).body.document;
  return { id: row.id, body: row.body as never, read };
}

describe('large pages within the limits', () => {
  it('stores a table just under the cell limit (a 5 MB document) off the event loop, under the ID documentId computes', async () => {
    const { token, base } = await changeRequest();
    const columns = 100;
    const markdown = table(MAX_TABLE_CELLS / columns - 1, columns); // header row included: exactly the limit
    const { result, slowest, checks } = await whileTimingHealth(() =>
      http(server.url, token, 'POST', base, { changes: [{ operation: 'insert_page', title: 'Big table', document: { markdown } }] }),
    );
    expect(result.status).toBe(200);
    expect(checks).toBeGreaterThan(0);
    expectHealthy(slowest);
    const { id, body, read } = await storedDocument(base, token, 'Big table');
    expect(documentId(body).size).toBeGreaterThan(4_000_000);
    expect(documentId(body).id).toBe(id);
    expect(read).toEqual(body);
    expect(read.nodes[0]).toMatchObject({ type: 'table' });
  });

  it('stores a 4 MB JSON document off the event loop, identical when read back, and refuses one past the document size', async () => {
    const { token, base } = await changeRequest();
    const document = paragraphs(22_000);
    const { result, slowest } = await whileTimingHealth(() =>
      http(server.url, token, 'POST', base, { changes: [{ operation: 'insert_page', title: 'Big JSON', document: { document } }] }),
    );
    expect(result.status).toBe(200);
    expectHealthy(slowest);
    const { id, body, read } = await storedDocument(base, token, 'Big JSON');
    expect(body).toEqual(document);
    expect(documentId(document as never).id).toBe(id);
    expect(read).toEqual(document);

    const tooLarge = paragraphs(Math.ceil(MAX_DOCUMENT_BYTES / 180));
    const refused = await http(server.url, token, 'POST', base, { changes: [{ operation: 'insert_page', title: 'Too large', document: { document: tooLarge } }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/changes\.0\.document.*document size/);
    expect(refused.body.error.message).toContain(`${MAX_DOCUMENT_BYTES / 1024 / 1024} MB`);
  });
});

describe('hostile markdown through an import', () => {
  async function importAndTime(body: string, source: 'markdown' | 'html' = 'markdown') {
    const { token, spaceId, crId, base } = await changeRequest();
    const before = await server.db.changeRequest.findUniqueOrThrow({ where: { id: crId } });
    const url = source === 'html' ? await site('/hostile.html', body, 'text/html') : await site('/hostile.md', body);
    const timed = await whileTimingHealth(() => http(server.url, token, 'POST', `${base}/import`, { url, source }));
    const job = await server.db.job.findFirstOrThrow({ where: { changeRequestId: crId }, orderBy: { createdAt: 'desc' } });
    const after = await server.db.changeRequest.findUniqueOrThrow({ where: { id: crId } });
    return { ...timed, job, token, base, spaceId, unchanged: after.revisionId === before.revisionId };
  }

  it('fails a 400 KB import of nested brackets with a readable reason, writes nothing, /healthz answering all along', async () => {
    const { result, slowest, job, token, base, unchanged } = await importAndTime(brackets(200_000));
    expect(result.status).toBe(400);
    expect(result.body.error.message).toMatch(/TOO_LARGE.*nesting depth/);
    expect(job).toMatchObject({ state: 'failed', errorCode: 'TOO_LARGE' });
    expect(job.errorMessage).toMatch(/nesting depth/);
    expectHealthy(slowest);
    expect(unchanged).toBe(true);
    expect((await http(server.url, token, 'GET', `${base}/pages`)).body.pages).toEqual([]);
    await stillConverts(token, base);
  });

  it('fails an import of 60,000 links naming the links limit', async () => {
    const { result, slowest, job, unchanged } = await importAndTime(links(60_000));
    expect(result.status).toBe(400);
    expect(job).toMatchObject({ state: 'failed', errorCode: 'TOO_LARGE' });
    expect(job.errorMessage).toMatch(/links/);
    expectHealthy(slowest);
    expect(unchanged).toBe(true);
  });

  it('fails an import of a huge table naming the table cells', async () => {
    const { result, slowest, job, unchanged } = await importAndTime(table(3_000, 300));
    expect(result.status).toBe(400);
    expect(job.errorMessage).toMatch(/table cells/);
    expectHealthy(slowest);
    expect(unchanged).toBe(true);
  });

  it('reads a 170 KB HTML page off the event loop: converted within its limits, /healthz answering all along', async () => {
    const html = `<html><body><main>${Array.from({ length: 4_000 }, (_, i) => `<p>Word ${i} <b>bold</b> <i>it</i></p>`).join('')}</main></body></html>`;
    const { result, slowest, job, token, base } = await importAndTime(html, 'html');
    expect(result.body.error?.message).toBeUndefined();
    expect(result.status).toBe(200);
    expect(job).toMatchObject({ state: 'succeeded' });
    expectHealthy(slowest);
    expect((await http(server.url, token, 'GET', `${base}/pages`)).body.pages).toHaveLength(1);
  });
});
