/**
 * Notion imports (`source: "notion"`): a "Markdown & CSV" workspace export built here as Notion
 * writes it — `Title <32-hex id>.md` pages, a folder of the same name for subpages and files,
 * links as URL-encoded relative paths and notion.so mentions, databases as `.csv` and `_all.csv`
 * beside a folder of row pages, an `Export-<uuid>/` wrapper, and for large exports a zip of
 * `Part-N.zip` zips — read by the source, then imported through REST and GraphQL; hostile exports
 * refused within the caps.
 */
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { describe, expect, it } from 'vitest';
import { createSafeFetch } from '../src/lib/fetch/index.js';
import { notionSource } from '../src/lib/import-readers/sources/notion/index.js';
import { readNotionArchive } from '../src/lib/import-readers/sources/notion/archive.js';
import { notionTree } from '../src/lib/import-readers/sources/notion/tree.js';
import { DEFAULT_IMPORT_LIMITS, type ImportedPage, type ImportLimits } from '../src/lib/import-readers/tree.js';
import { gqlOk, http } from './helpers/clients.js';
import { useServer } from './helpers/server.js';
import { useSites } from './helpers/site.js';
import { zipOf } from './helpers/zip.js';
import { type PageItem, importFailure, importJobEvents, importTarget, outline, refsWithText } from './helpers/imports.js';

const server = useServer({ worker: true });
const site = useSites();

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n%EOF\n');

/** Notion's block ids: 32 hex digits. */
const ID = {
  wiki: '0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  onboarding: '1f2e3d4c5b6a79881726354453627180',
  architecture: '2c8e1f0a9b3d4c5e6f708192a3b4c5d6',
  tasks: '3d4e5f60718293a4b5c6d7e8f90a1b2c',
  writeDocs: '4e5f60718293a4b5c6d7e8f90a1b2c3d',
  shipIt: '5f60718293a4b5c6d7e8f90a1b2c3d4e',
  meetings: '60718293a4b5c6d7e8f90a1b2c3d4e5f',
};
const name = (title: string, id: string) => `${title} ${id}`;
/** A page the export does not hold. */
const GONE = 'f0718293a4b5c6d7e8f90a1b2c3d4e5f';
const url = (path: string) => path.split('/').map(encodeURIComponent).join('/');

const WIKI = name('Engineering Wiki', ID.wiki);
const ONBOARDING = name('Onboarding & setup', ID.onboarding);
const TASKS = name('Tasks', ID.tasks);

/** A workspace export as Notion writes it (names, links, databases, a wrapping folder). */
function exportEntries(prefix = 'Export-9c3e0b52-7d1f-4a8e-b6c2-1f0e9d8c7b6a/'): Record<string, string | Buffer> {
  const entries: Record<string, string | Buffer> = {
    [`${WIKI}.md`]: [
      '# Engineering Wiki',
      '',
      'Owner: Platform team',
      '',
      `Start with [Onboarding & setup](${url(`${WIKI}/${ONBOARDING}.md`)}).`,
      '',
      `[Tasks](${url(`${WIKI}/${TASKS}.csv`)})`,
      '',
      `[Architecture](${url(`${WIKI}/${name('Architecture', ID.architecture)}.md`)})`,
      '',
      '<aside>',
      '💡 Ask in #eng when stuck.',
      '</aside>',
      '',
    ].join('\n'),
    [`${WIKI}/${ONBOARDING}.md`]: [
      '# Onboarding & setup',
      '',
      `![diagram.png](${url(`${ONBOARDING}/diagram.png`)})`,
      '',
      `Read the [handbook](${url(`${ONBOARDING}/Team Handbook.pdf`)}) and the [architecture](https://www.notion.so/acme/Architecture-${ID.architecture}?pvs=21).`,
      '',
      `Back to [the wiki](../${url(`${WIKI}.md`)}).`,
      '',
    ].join('\n'),
    [`${WIKI}/${ONBOARDING}/diagram.png`]: PNG,
    [`${WIKI}/${ONBOARDING}/Team Handbook.pdf`]: PDF,
    // A loop of links: Architecture → Onboarding → Architecture (by mention).
    [`${WIKI}/${name('Architecture', ID.architecture)}.md`]: `# Architecture\n\nSee [onboarding](${url(`${ONBOARDING}.md`)}).\n`,
    // A relation column names pages by their paths (relative to the CSV), after their titles.
    [`${WIKI}/${TASKS}.csv`]: '\uFEFFName,Status,Tags,Related\nWrite docs,Done,"docs, writing",\n',
    [`${WIKI}/${TASKS}_all.csv`]: `\uFEFFName,Status,Tags,Related\nWrite docs,Done,"docs, writing",Architecture (${url(name('Architecture', ID.architecture))}.md)\nShip it,In progress,"say ""soon""",\n`,
    // A row page's relation property: bare paths, relative to the page.
    [`${WIKI}/${TASKS}/${name('Write docs', ID.writeDocs)}.md`]: `# Write docs\n\nStatus: Done\nTags: docs, writing\nRelated: ../${url(name('Architecture', ID.architecture))}.md, ../${url(name('Gone', GONE))}.md\n\nThe docs.\n`,
    [`${WIKI}/${TASKS}/${name('Ship it', ID.shipIt)}.md`]: '# Ship it\n\nStatus: In progress\n',
    [`${name('Meeting notes', ID.meetings)}.md`]: `# Meeting notes\n\nDecided: see [Tasks](https://www.notion.so/${ID.tasks}).\n`,
  };
  return Object.fromEntries(Object.entries(entries).map(([path, content]) => [prefix + path, content]));
}

const limits = (overrides: Partial<ImportLimits> = {}): ImportLimits => ({ ...DEFAULT_IMPORT_LIMITS, ...overrides });
const readExport = async (bytes: Uint8Array, overrides: Partial<ImportLimits> = {}) => notionTree(await readNotionArchive(bytes, { limits: limits(overrides) }));

type Shape = [string | undefined, ...Shape[]] | [string | undefined];
const titleOf = (page: ImportedPage) => /^# (.+)$/m.exec(page.markdown)?.[1] ?? page.title;
const shape = (pages: ImportedPage[]): Shape[] => pages.map((p) => [titleOf(p), ...shape(p.children)] as Shape);


describe('notion export: reading', () => {
  it('keeps the hierarchy without ids, orders subpages as their parent links them, and makes databases table pages', async () => {
    const tree = await readExport(await zipOf(exportEntries()));
    expect(shape(tree.pages)).toEqual([
      ['Engineering Wiki', ['Onboarding & setup'], ['Tasks', ['Ship it'], ['Write docs']], ['Architecture']],
      ['Meeting notes'],
    ]);
    const [wiki, meetings] = tree.pages;
    const [onboarding, tasks] = wiki.children;
    // Sources are the export's paths (encoded); links to exported pages and files point at them.
    expect(wiki.source).toBe(url(`${WIKI}.md`));
    expect(onboarding.markdown).toContain(`![diagram.png](/${url(`${WIKI}/${ONBOARDING}/diagram.png`)})`);
    expect(onboarding.markdown).toContain(`[architecture](/${url(`${WIKI}/${name('Architecture', ID.architecture)}.md`)})`);
    expect(onboarding.markdown).toContain(`[the wiki](/${url(`${WIKI}.md`)})`);
    expect(meetings.markdown).toContain(`[Tasks](/${url(`${WIKI}/${TASKS}.csv`)})`);
    // The callout is a hint.
    expect(wiki.markdown).toContain('{% hint style="info" %}\n💡 Ask in #eng when stuck.\n{% endhint %}');
    // The database: every row (from _all.csv), quoted fields, row names linking to their pages.
    expect(tasks.source).toBe(url(`${WIKI}/${TASKS}.csv`));
    expect(tasks.markdown).toContain('| Name');
    expect(tasks.markdown).toContain(`[Ship it](/${url(`${WIKI}/${TASKS}/${name('Ship it', ID.shipIt)}.md`)})`);
    expect(tasks.markdown).toContain('say "soon"');
    expect(tasks.markdown).toContain('docs, writing');
    const architecturePath = `/${url(`${WIKI}/${name('Architecture', ID.architecture)}.md`)}`;
    expect(tasks.markdown).toContain(`[Architecture](${architecturePath})`);
    // The relation of a row page links what was exported; a page not in the export stays its path.
    const writeDocs = tasks.children[1];
    expect(writeDocs.markdown).toContain(`Related: [Architecture](${architecturePath}), ../${url(name('Gone', GONE))}.md`);
    expect(tree.files.map((f) => [f.source, f.name, f.contentType])).toEqual([
      [url(`${WIKI}/${ONBOARDING}/diagram.png`), 'diagram.png', 'image/png'],
      [url(`${WIKI}/${ONBOARDING}/Team Handbook.pdf`), 'Team Handbook.pdf', 'application/pdf'],
    ]);
  });

  it('reads a large export given as a zip of Part-N zips as one archive', async () => {
    const entries = Object.entries(exportEntries());
    const part1 = await zipOf(Object.fromEntries(entries.slice(0, 5)));
    const part2 = await zipOf(Object.fromEntries(entries.slice(5)));
    const outer = await zipOf({ 'Export-9c3e0b52-Part-1.zip': part1, 'Export-9c3e0b52-Part-2.zip': part2 });
    const tree = await readExport(outer);
    expect(shape(tree.pages)).toEqual(shape((await readExport(await zipOf(exportEntries()))).pages));
    expect(tree.files).toHaveLength(2);
  });

  it('makes a folder without page a page of its own, and flattens folders named by an id alone', async () => {
    const tree = await readExport(
      await zipOf({
        [`Archive/${name('Old page', ID.wiki)}.md`]: '# Old page\n',
        [`${ID.meetings}/${name('Loose', ID.shipIt)}.md`]: 'No heading.\n',
        [`${ID.meetings}/images/only.png`]: PNG,
      }),
    );
    expect(tree.pages.map((p) => [p.source, p.title])).toEqual([
      ['Archive/', 'Archive'],
      [url(`${ID.meetings}/${name('Loose', ID.shipIt)}.md`), 'Loose'],
    ]);
    expect(tree.pages[0].children.map(titleOf)).toEqual(['Old page']);

    // A page and a database of the same name: the folder's rows are the children of one of them.
    const both = await readExport(
      await zipOf({
        [`${name('Board', ID.tasks)}.md`]: '# Board\n',
        [`${name('Board', ID.tasks)}.csv`]: 'Name\nRow\n',
        [`${name('Board', ID.tasks)}/${name('Row', ID.shipIt)}.md`]: '# Row\n',
      }),
    );
    expect(shape(both.pages)).toEqual([['Board'], ['Board', ['Row']]]);
  });
});

describe('notion export: hostile archives', () => {
  it('refuses an entry that climbs out of the archive (`..`), naming it', async () => {
    const archive = await zipOf({ 'Page 0a1b2c3d4e5f60718293a4b5c6d7e8f9.md': '# Page\n', 'xx/evil.md': 'payload' });
    const from = Buffer.from('xx/evil.md');
    for (let i = archive.indexOf(from); i >= 0; i = archive.indexOf(from, i + 1)) Buffer.from('../evil.md').copy(archive, i);
    const error = await importFailure(readExport(archive));
    expect(error.code).toBe('PARSE_ERROR');
    expect(error.message).toContain('"../evil.md"');
  });

  it('stops a zip bomb at the byte cap, inside a part too, quickly', async () => {
    const bomb = new yazl.ZipFile();
    const size = 300 * 1024 * 1024;
    let sent = 0;
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    bomb.addReadStream(new Readable({ read() { sent += chunk.length; this.push(sent <= size ? chunk : null); } }), `${name('Bomb', ID.wiki)}.md`);
    bomb.end();
    const chunks: Buffer[] = [];
    for await (const c of bomb.outputStream) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    expect(bytes.length).toBeLessThan(2 * 1024 * 1024);
    let started = performance.now();
    expect((await importFailure(readExport(bytes))).code).toBe('TOO_LARGE');
    expect(performance.now() - started).toBeLessThan(2000);
    // The same bomb as the part of a larger export.
    started = performance.now();
    expect((await importFailure(readExport(await zipOf({ 'Export-Part-1.zip': bytes })))).code).toBe('TOO_LARGE');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('counts the parts’ entries against the cap, and does not unpack a zip inside a part', async () => {
    const part = await zipOf({ 'a 0a1b2c3d4e5f60718293a4b5c6d7e8f9.md': '# A\n', 'b 1f2e3d4c5b6a79881726354453627180.md': '# B\n', 'c 2c8e1f0a9b3d4c5e6f708192a3b4c5d6.md': '# C\n' });
    const outer = await zipOf({ 'Part-1.zip': part, 'Part-2.zip': part });
    expect((await importFailure(readExport(outer, { maxZipEntries: 5 }))).code).toBe('TOO_LARGE');
    // A zip in a part (a quine would nest forever) is an attachment, not read.
    const nested = await readExport(await zipOf({ 'Part-1.zip': await zipOf({ 'Page 0a1b2c3d4e5f60718293a4b5c6d7e8f9.md': '# Page\n', 'Page 0a1b2c3d4e5f60718293a4b5c6d7e8f9/inner.zip': outer }) }));
    expect(shape(nested.pages)).toEqual([['Page']]);
    expect(nested.files.map((f) => [f.name, f.contentType])).toEqual([['inner.zip', 'application/zip']]);
  });

  it('refuses what is not a zip', async () => {
    const s = await site({ '/export.zip': { type: 'application/zip', body: '<html>nope</html>' } });
    const error = await importFailure(notionSource(`${s.url}/export.zip`, { fetch: createSafeFetch({ limits: limits(), allowPrivateNetworks: true }), limits: limits(), signal: new AbortController().signal, progress: () => {} }));
    expect(error.code).toBe('PARSE_ERROR');
  });
});

const changeRequest = () => importTarget(server.db, server.url, 'From Notion');

describe('notion import through the API', () => {
  it('REST: the page tree with clean titles and slugs, links as page references, images and attachments as files', async () => {
    const { owner, base } = await changeRequest();
    const s = await site({ '/export.zip': { type: 'application/zip', body: await zipOf(exportEntries()) } });
    const answer = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${s.url}/export.zip`, source: 'notion' });
    expect(answer.status).toBe(200);
    // 7 pages and 2 files.
    expect(answer.body).toEqual({ revision: expect.stringMatching(/^rev_/), importedResources: 9, totalResources: 9 });
    const tree: PageItem[] = (await http(server.url, owner.token, 'GET', `${base}/pages`)).body.pages;
    expect(outline(tree)).toEqual([
      ['Engineering Wiki', 'engineering-wiki', ['Onboarding & setup', 'onboarding-setup'], ['Tasks', 'tasks', ['Ship it', 'ship-it'], ['Write docs', 'write-docs']], ['Architecture', 'architecture']],
      ['Meeting notes', 'meeting-notes'],
    ]);
    const [wiki, meetings] = tree;
    const [onboarding, tasks, architecture] = wiki.pages!;
    const document = async (id: string) => (await http(server.url, owner.token, 'GET', `${base}/page/${id}?format=document`)).body.document;
    const onboardingRefs = refsWithText(await document(onboarding.id));
    expect(onboardingRefs).toContainEqual(['architecture', { kind: 'page', page: architecture.id }]);
    expect(onboardingRefs).toContainEqual(['the wiki', { kind: 'page', page: wiki.id }]);
    const files = onboardingRefs.filter(([, ref]) => ref.kind === 'file');
    expect(files).toHaveLength(2);
    const described = await Promise.all(files.map(async ([, ref]) => (await http(server.url, owner.token, 'GET', `${base}/files/${ref.file}`)).body));
    expect(described.map((f) => [f.name, f.contentType])).toEqual([
      ['diagram.png', 'image/png'],
      ['Team Handbook.pdf', 'application/pdf'],
    ]);
    // The loop of links is two references, nothing more.
    expect(refsWithText(await document(architecture.id))).toEqual([['onboarding', { kind: 'page', page: onboarding.id }]]);
    expect(refsWithText(await document(meetings.id))).toEqual([['Tasks', { kind: 'page', page: tasks.id }]]);
    const taskRefs = refsWithText(await document(tasks.id));
    expect(taskRefs.map(([text, ref]) => [text, ref.page])).toEqual([
      ['Write docs', tasks.pages![1].id],
      ['Architecture', architecture.id],
      ['Ship it', tasks.pages![0].id],
    ]);
    expect(refsWithText(await document(tasks.pages![1].id))).toContainEqual(['Architecture', { kind: 'page', page: architecture.id }]);
    expect(JSON.stringify(await document(wiki.id))).toContain('"type":"hint"');
  });

  it('GraphQL: importContent with source notion answers the job, which ends with its progress and result', async () => {
    const { owner, cr, base } = await changeRequest();
    const s = await site({ '/export.zip': { type: 'application/zip', body: await zipOf(exportEntries()), delayMs: 400 } });
    const { importContent: job } = await gqlOk(server.url, owner.token, 'mutation($cr: ID!, $url: String!) { importContent(changeRequest: $cr, url: $url, source: notion) { id state kind } }', { cr: cr.id, url: `${s.url}/export.zip` });
    expect(job).toMatchObject({ kind: 'import', state: expect.stringMatching(/queued|running/) });
    const events = await importJobEvents(server.url, owner.token, job.id);
    expect(events.some((e) => e.state === 'running')).toBe(true);
    expect(events.at(-1)).toMatchObject({ state: 'succeeded', progress: { done: 9, total: 9 }, importResult: { importedResources: 9, totalResources: 9 } });
    const tree: PageItem[] = (await http(server.url, owner.token, 'GET', `${base}/pages`)).body.pages;
    expect(tree.map((p) => p.title)).toEqual(['Engineering Wiki', 'Meeting notes']);
  });

  it('imports more pages than other sources may (a workspace: up to 5,000 pages)', async () => {
    const { owner, base } = await changeRequest();
    const entries: Record<string, string> = {};
    for (let i = 0; i < 520; i++) entries[`Note ${i} ${i.toString(16).padStart(32, '0')}.md`] = `# Note ${i}\n\nText.\n`;
    const s = await site({ '/many.zip': { type: 'application/zip', body: await zipOf(entries) } });
    const answer = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${s.url}/many.zip`, source: 'notion' });
    expect(answer.body).toMatchObject({ importedResources: 520, totalResources: 520 });
  }, 60_000);

  it('a hostile export fails the job with its reason and writes nothing', async () => {
    const { owner, base } = await changeRequest();
    const archive = await zipOf({ 'Page 0a1b2c3d4e5f60718293a4b5c6d7e8f9.md': '# Page\n', 'xx/evil.md': 'payload' });
    const from = Buffer.from('xx/evil.md');
    for (let i = archive.indexOf(from); i >= 0; i = archive.indexOf(from, i + 1)) Buffer.from('../evil.md').copy(archive, i);
    const s = await site({ '/evil.zip': { type: 'application/zip', body: archive } });
    const answer = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${s.url}/evil.zip`, source: 'notion' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/PARSE_ERROR/);
    expect((await http(server.url, owner.token, 'GET', `${base}/pages`)).body.pages).toEqual([]);
  });
});
