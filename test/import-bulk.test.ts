/**
 * Bulk imports (issue 29 §5): a zip's pages are converted and stored in batches
 * (imports/write-tree.ts IMPORT_BATCH_PAGES) inside the import's one transaction. Links between
 * pages of different batches still become page references, the job's progress rises while the
 * pages are written, and a page refused in a later batch leaves nothing: no page in the change
 * request, no stored body of an earlier batch.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IMPORT_BATCH_PAGES } from '../src/domain/work/imports/write-tree.js';
import { MAX_LINKS } from '../src/lib/markdown/index.js';
import { gqlOk, http } from './helpers/clients.js';
import { importJobEvents, importTarget, refsWithText, type PageItem } from './helpers/imports.js';
import { useServer } from './helpers/server.js';
import { useSites } from './helpers/site.js';
import { zipOf } from './helpers/zip.js';

const server = useServer({ worker: true });
const site = useSites();

const PAGES = 300;
const name = (i: number) => `page-${String(i).padStart(3, '0')}`;
/** Pages in three folders; each links to a page of another batch and to one in another folder. */
const pathOf = (i: number) => `part-${Math.floor(i / 100)}/${name(i)}.md`;

function archive(marker: string, refused?: number): Record<string, string | Buffer> {
  const entries: Record<string, string | Buffer> = {};
  for (let i = 0; i < PAGES; i++) {
    const far = (i + IMPORT_BATCH_PAGES) % PAGES;
    const body = i === refused ? `${'[x](y.md) '.repeat(MAX_LINKS + 1)}\n` : `[far](../${pathOf(far)}) [first](../${pathOf(0)}#intro)\n\n${marker} ${i}.\n`;
    entries[pathOf(i)] = `# ${name(i)}\n\n${body}`;
  }
  return entries;
}

async function startImport(marker: string, refused?: number) {
  const target = await importTarget(server.db, server.url, 'Bulk');
  const s = await site({ '/bulk.zip': { type: 'application/zip', body: await zipOf(archive(marker, refused)) } });
  const { importContent: job } = await gqlOk(server.url, target.owner.token, 'mutation($cr: ID!, $url: String!) { importContent(changeRequest: $cr, url: $url, source: zip) { id } }', {
    cr: target.cr.id,
    url: `${s.url}/bulk.zip`,
  });
  return { ...target, jobId: job.id as string, events: await importJobEvents(server.url, target.owner.token, job.id) };
}

const flat = (pages: PageItem[]): PageItem[] => pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);

describe('bulk zip imports', () => {
  it('links pages of different batches, and reports progress while writing', async () => {
    expect(PAGES).toBeGreaterThan(IMPORT_BATCH_PAGES);
    const { owner, base, events } = await startImport(randomUUID());
    expect(events.at(-1)).toMatchObject({ state: 'succeeded', importResult: { importedResources: PAGES + 3 } });
    // The pages of the first batch counted before the job ended.
    const writing = events.filter((e) => e.state === 'running' && e.message === 'Writing the pages');
    expect(writing.some((e) => e.progress.done >= IMPORT_BATCH_PAGES && e.progress.done < PAGES + 3)).toBe(true);

    const pages = flat((await http(server.url, owner.token, 'GET', `${base}/pages`)).body.pages);
    const idOf = new Map(pages.map((p) => [p.title, p.id]));
    expect(pages.filter((p) => p.title.startsWith('page-'))).toHaveLength(PAGES);
    for (const i of [0, 99, 150, 299]) {
      const document = (await http(server.url, owner.token, 'GET', `${base}/page/${idOf.get(name(i))}?format=document`)).body.document;
      expect(refsWithText(document)).toEqual([
        ['far', { kind: 'page', page: idOf.get(name((i + IMPORT_BATCH_PAGES) % PAGES)) }],
        ['first', { kind: 'anchor', page: idOf.get(name(0)), anchor: 'intro' }],
      ]);
    }
  });

  it('leaves nothing when a page of a later batch is refused', async () => {
    const marker = randomUUID();
    const { owner, base, events, jobId } = await startImport(marker, PAGES - 1);
    expect(events.at(-1)).toMatchObject({ state: 'failed' });
    const { job } = await gqlOk(server.url, owner.token, 'query($id: ID!) { job(id: $id) { error { code message } } }', { id: jobId });
    expect(job.error).toMatchObject({ code: 'TOO_LARGE', message: expect.stringContaining(pathOf(PAGES - 1)) });
    expect((await http(server.url, owner.token, 'GET', `${base}/pages`)).body.pages).toEqual([]);
    // The bodies of the first batch were stored in the transaction that rolled back.
    const [{ count }] = await server.db.$queryRaw<{ count: bigint }[]>`SELECT count(*) AS count FROM "Document" WHERE "body"::text LIKE ${`%${marker}%`}`;
    expect(Number(count)).toBe(0);
  });
});
