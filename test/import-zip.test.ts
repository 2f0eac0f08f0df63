/**
 * Zip imports: archives built here with yazl, read by readZipTree (the page tree, the files, the
 * limits and the refusals) and once through zipSource over HTTP.
 */
import { once } from 'node:events';
import http from 'node:http';
import { createSafeFetch } from '../src/lib/fetch/index.js';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../src/lib/markdown/index.js';
import { ImportError } from '../src/lib/import-readers/import-error.js';
import { readZipTree, zipSource } from '../src/lib/import-readers/sources/zip.js';
import { DEFAULT_IMPORT_LIMITS, type ImportedPage, type ImportLimits } from '../src/lib/import-readers/tree.js';
import { startsWithHeading } from '../src/lib/import-readers/zip/pages.js';

type Content = string | Buffer | { data: Buffer | string; mode?: number } | { directory: true };

async function zip(entries: Record<string, Content>): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) {
    if (typeof content === 'string' || Buffer.isBuffer(content)) archive.addBuffer(Buffer.from(content), name);
    else if ('directory' in content) archive.addEmptyDirectory(name);
    else archive.addBuffer(Buffer.from(content.data), name, content.mode === undefined ? {} : { mode: content.mode });
  }
  archive.end();
  return collect(archive.outputStream);
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** yazl refuses unsafe names: they are written over a placeholder of the same length. */
function rename(archive: Buffer, placeholder: string, name: string): Buffer {
  const from = Buffer.from(placeholder, 'latin1');
  const to = Buffer.from(name, 'latin1');
  expect(to.length).toBe(from.length);
  let found = 0;
  for (let i = archive.indexOf(from); i >= 0; i = archive.indexOf(from, i + 1), found++) to.copy(archive, i);
  expect(found).toBe(2); // the local header and the central directory
  return archive;
}

const limits = (overrides: Partial<ImportLimits> = {}): ImportLimits => ({ ...DEFAULT_IMPORT_LIMITS, ...overrides });
const read = (bytes: Uint8Array, overrides: Partial<ImportLimits> = {}) => readZipTree(bytes, { limits: limits(overrides) });

async function failure(promise: Promise<unknown>): Promise<ImportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

/** The tree as [source, title, children] to compare shapes at a glance. */
type Shape = [string, string | undefined, ...Shape[]] | [string, string | undefined];
const shape = (pages: ImportedPage[]): Shape[] => pages.map((p) => [p.source, p.title, ...shape(p.children)] as Shape);

describe('zip import: folder layout', () => {
  it('reads README first, folders with and without README, natural order and titles', async () => {
    const bytes = await zip({
      'README.md': '\uFEFF# Welcome\n\nHello.\n',
      'setup-guide.md': 'No heading here.\n',
      'getting-started/README.md': '# Getting started\n',
      'getting-started/install.md': '# Install\n\nSee [the basics](2-basics.md) and ![pic](../images/pic.png).\n',
      'getting-started/10-advanced.md': 'Advanced.\n',
      'getting-started/2-basics.md': 'Basics.\n',
      'getting-started/images/': { directory: true },
      'reference/api.md': '---\ndescription: The API\n---\n\n# API\n',
      'reference/cli_usage.markdown': 'Usage.\n',
      'reference/deeper/notes.md': 'Notes, without a heading.\n',
      'empty-folder/': { directory: true },
      'assets-only/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      '.DS_Store': 'junk',
      '__MACOSX/._README.md': 'junk',
      '.github/CONTRIBUTING.md': 'not content',
      'notes.txt': 'not a page',
    });
    const tree = await read(bytes);
    expect(shape(tree.pages)).toEqual([
      ['README.md', undefined],
      [
        'getting-started/README.md',
        undefined,
        ['getting-started/2-basics.md', '2 basics'],
        ['getting-started/10-advanced.md', '10 advanced'],
        ['getting-started/install.md', undefined],
      ],
      ['reference/', 'Reference', ['reference/api.md', undefined], ['reference/cli_usage.markdown', 'Cli usage'], ['reference/deeper/', 'Deeper', ['reference/deeper/notes.md', 'Notes']]],
      ['setup-guide.md', 'Setup guide'],
    ]);
    // Bodies pass through as written (a BOM aside); an empty folder page has no body.
    expect(tree.pages[0].markdown).toBe('# Welcome\n\nHello.\n');
    expect(tree.pages[1].children[2].markdown).toBe('# Install\n\nSee [the basics](2-basics.md) and ![pic](../images/pic.png).\n');
    expect(tree.pages[2].markdown).toBe('');
    expect(tree.pages[2].type).toBeUndefined();
    expect(tree.files.map((f) => f.source)).toEqual(['assets-only/logo.png']);
    expect(tree.totalResources).toBe(12);
  });

  it('takes index.md (any case) as the page of the root and of a folder, and a README without heading gets a title', async () => {
    const tree = await read(
      await zip({
        'Index.MD': 'Start here.\n',
        'guide/index.md': 'The guide.\n',
        'guide/step.md': '# Step\n',
      }),
    );
    expect(shape(tree.pages)).toEqual([
      ['Index.MD', 'Introduction'],
      ['guide/index.md', 'Guide', ['guide/step.md', undefined]],
    ]);
  });
});

describe('zip import: SUMMARY.md', () => {
  it('gives the tree: groups, nesting, a missing file, ignored anchors and URLs, unlisted files left out', async () => {
    const summary = [
      '# Table of contents',
      '',
      '* [Introduction](README.md)',
      '* [The guide](guide/README.md)',
      '  * [Setup](guide/setup.md)',
      '    * [Deep `dive`](guide/deep%20dive.md)',
      '  * [Not written yet](guide/missing.md)',
      '',
      '## Reference',
      '',
      '* [API](reference/api.md)',
      '* [A section](reference/api.md#section)',
      '  * [Promoted](reference/promoted.md)',
      '* [Elsewhere](https://example.com/page.md)',
      '',
      '## More',
      '',
      '* [FAQ](faq.md)',
      '',
    ].join('\n');
    const tree = await read(
      await zip({
        'SUMMARY.md': summary,
        'README.md': '# Hello\n',
        'guide/README.md': 'Guide body.\n',
        'guide/setup.md': '# Set up\n\nSteps.\n',
        'guide/deep dive.md': 'Deep.\n',
        'reference/api.md': 'API body.\n',
        'reference/promoted.md': 'Promoted.\n',
        'faq.md': 'FAQ.\n',
        'unlisted.md': '# Not in the summary\n',
      }),
    );
    expect(shape(tree.pages)).toEqual([
      ['README.md', 'Introduction'],
      ['guide/README.md', 'The guide', ['guide/setup.md', 'Setup', ['guide/deep dive.md', 'Deep dive']], ['guide/missing.md', 'Not written yet']],
      ['SUMMARY.md#group-1', 'Reference', ['reference/api.md', 'API'], ['reference/promoted.md', 'Promoted']],
      ['SUMMARY.md#group-2', 'More', ['faq.md', 'FAQ']],
    ]);
    expect(tree.pages[2]).toMatchObject({ type: 'group', markdown: '' });
    expect(tree.pages[1].markdown).toBe('Guide body.\n');
    expect(tree.pages[1].children[0].markdown).toBe('# Set up\n\nSteps.\n');
    expect(tree.pages[1].children[1].markdown).toBe('');
    expect(tree.totalResources).toBe(10);
  });

  it('honours .gitbook.yaml: root ./docs/ and a custom summary, paths relative to the root', async () => {
    const tree = await read(
      await zip({
        '.gitbook.yaml': 'root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc.md\n',
        'README.md': '# The repository, not the docs\n',
        'docs/toc.md': '* [Intro](intro.md)\n* [Usage](usage/basics.md)\n',
        'docs/intro.md': '# Intro\n',
        'docs/usage/basics.md': 'Basics ![x](../.gitbook/assets/shot.png)\n',
        'docs/.gitbook/assets/shot.png': Buffer.from('png bytes'),
        'docs/.gitbook/assets/manual.pdf': Buffer.from('%PDF-1.4'),
        'docs/.gitbook/includes/snippet.md': 'Reusable.\n',
        'images/outside.png': Buffer.from('outside the root'),
      }),
    );
    expect(shape(tree.pages)).toEqual([
      ['intro.md', 'Intro'],
      ['usage/basics.md', 'Usage'],
    ]);
    expect(tree.files.map((f) => [f.source, f.name, f.contentType])).toEqual([
      ['.gitbook/assets/shot.png', 'shot.png', 'image/png'],
      ['.gitbook/assets/manual.pdf', 'manual.pdf', 'application/pdf'],
    ]);
  });

  it('without a summary, a root from .gitbook.yaml lays out the folders under it, its readme first', async () => {
    const tree = await read(
      await zip({
        '.gitbook.yaml': 'root: docs\nstructure:\n  readme: start.md\n',
        'docs/a.md': '# A\n',
        'docs/start.md': '# Start\n',
        'docs/README.md': '# Readme\n',
      }),
    );
    expect(tree.pages.map((p) => p.source)).toEqual(['start.md', 'a.md', 'README.md']);
  });
  it('falls back to the folders when SUMMARY.md lists no page', async () => {
    const tree = await read(await zip({ 'SUMMARY.md': '# Summary\n\nNothing listed yet.\n', 'README.md': '# Home\n', 'a.md': '# A\n' }));
    expect(tree.pages.map((p) => p.source)).toEqual(['README.md', 'a.md', 'SUMMARY.md']);
  });
});

describe('zip import: archive layout and files', () => {
  it('strips a GitHub-style wrapping folder, and only a single one', async () => {
    const wrapped = await read(
      await zip({
        'quire-docs-main/README.md': '# Docs\n',
        'quire-docs-main/guide/setup.md': '# Setup\n',
        'quire-docs-main/.github/workflows/ci.yml': 'on: push\n',
        'quire-docs-main/img/a.png': Buffer.from('a'),
      }),
    );
    expect(shape(wrapped.pages)).toEqual([
      ['README.md', undefined],
      ['guide/', 'Guide', ['guide/setup.md', undefined]],
    ]);
    expect(wrapped.files.map((f) => f.source)).toEqual(['img/a.png']);

    const two = await read(await zip({ 'one/a.md': '# A\n', 'two/b.md': '# B\n' }));
    expect(two.pages.map((p) => p.source)).toEqual(['one/', 'two/']);
  });

  it('makes every image a file with its bytes and content type', async () => {
    const images: Record<string, string> = {
      'a.png': 'image/png',
      'b.jpg': 'image/jpeg',
      'c.JPEG': 'image/jpeg',
      'd.gif': 'image/gif',
      'e.svg': 'image/svg+xml',
      'f.webp': 'image/webp',
      'g.ico': 'image/x-icon',
      'nested/h.avif': 'image/avif',
    };
    const entries: Record<string, Content> = { 'page.md': '# Page\n', 'data.json': '{}', 'constructor': 'x' };
    Object.keys(images).forEach((name, i) => (entries[name] = Buffer.from([i, 0, 255, i * 7])));
    const tree = await read(await zip(entries));
    expect(tree.files.map((f) => [f.source, f.name, f.contentType])).toEqual(
      Object.entries(images).map(([source, type]) => [source, source.split('/').pop(), type]),
    );
    tree.files.forEach((file, i) => expect(Buffer.from(file.bytes)).toEqual(Buffer.from([i, 0, 255, i * 7])));
    expect(tree.totalResources).toBe(9);
  });

  it('converts HTML pages to markdown', async () => {
    const tree = await read(
      await zip({
        'index.html': '<html><head><title>Home</title></head><body><h1>Home</h1><p>Welcome <strong>aboard</strong>.</p></body></html>',
        'about.htm': '<html><head><title>About us</title></head><body><p>We write docs.</p><p><a href="index.html">Home</a></p></body></html>',
      }),
    );
    expect(tree.pages.map((p) => p.source)).toEqual(['index.html', 'about.htm']);
    expect(tree.pages[0].markdown).toContain('aboard');
    expect(tree.pages[0].markdown).not.toContain('<p>');
    expect(tree.pages[1].markdown).toContain('We write docs.');
    expect(tree.pages[1].markdown).toContain('(index.html)');
    expect(tree.pages[1].title ?? markdownToDocument(tree.pages[1].markdown).title).toBe('About us');
  });

  it('cuts the tree to maxPages in tree order, totalResources still counting everything', async () => {
    const tree = await read(
      await zip({
        'README.md': '# Home\n',
        'a/README.md': '# A\n',
        'a/one.md': '# One\n',
        'a/two.md': '# Two\n',
        'b.md': '# B\n',
        'x.png': Buffer.from('x'),
        'y.png': Buffer.from('y'),
      }),
      { maxPages: 3 },
    );
    expect(shape(tree.pages)).toEqual([
      ['README.md', undefined],
      ['a/README.md', undefined, ['a/one.md', undefined]],
    ]);
    expect(tree.files).toHaveLength(2);
    expect(tree.totalResources).toBe(7);
  });

  it('agrees with the markdown reader on whether a page starts with its title', () => {
    const samples = ['# Title\n', 'Title\n=====\n\nBody', '---\ndescription: x\n---\n# T\n', '\n\n  # Indented title', '## Not a title\n', 'Text first\n\n# Later', '#hashtag', '---\nFoo\n---\n', '* list\n===\n', ''];
    for (const sample of samples) expect([sample, startsWithHeading(sample)]).toEqual([sample, markdownToDocument(sample).title !== undefined]);
  });
});

describe('zip import: refusals', () => {
  it.each([
    ['xx/evil.md', '../evil.md'],
    ['xetc/passwd', '/etc/passwd'],
    ['a/xx/b', 'a\\..\\b'],
    ['Cx/doc.md', 'C:/doc.md'],
    ['docsxa.md', 'docs\0a.md'],
  ])('refuses the unsafe entry name %j → %j', async (placeholder, name) => {
    const archive = rename(await zip({ 'README.md': '# Fine\n', [placeholder]: 'payload' }), placeholder, name);
    const error = await failure(read(archive));
    expect(error.code).toBe('PARSE_ERROR');
    expect(error.message).toContain(JSON.stringify(name));
  });

  it('refuses a symlink entry', async () => {
    const error = await failure(read(await zip({ 'README.md': '# Fine\n', 'link.md': { data: '/etc/passwd', mode: 0o120777 } })));
    expect(error.code).toBe('PARSE_ERROR');
    expect(error.message).toContain('"link.md"');
    // An ordinary mode is fine.
    await expect(read(await zip({ 'page.md': { data: '# Page\n', mode: 0o100644 } }))).resolves.toMatchObject({ totalResources: 1 });
  });

  it('refuses more entries than maxZipEntries, directories included', async () => {
    const entries: Record<string, Content> = { 'dir/': { directory: true }, 'README.md': '# Home\n' };
    for (let i = 0; i < 4; i++) entries[`dir/p${i}.md`] = `# P${i}\n`;
    const error = await failure(read(await zip(entries), { maxZipEntries: 5 }));
    expect(error.code).toBe('TOO_LARGE');
    await expect(read(await zip(entries), { maxZipEntries: 6 })).resolves.toMatchObject({ totalResources: 6 });
  });

  it('refuses a zip bomb quickly, without inflating it', async () => {
    const archive = new yazl.ZipFile();
    const size = 300 * 1024 * 1024;
    let sent = 0;
    const chunk = Buffer.alloc(1024 * 1024);
    const zeros = new Readable({
      read() {
        sent += chunk.length;
        this.push(sent <= size ? chunk : null);
      },
    });
    archive.addReadStream(zeros, 'bomb.md');
    archive.end();
    const bytes = await collect(archive.outputStream);
    expect(bytes.length).toBeLessThan(2 * 1024 * 1024);

    let started = performance.now();
    const error = await failure(read(bytes));
    expect(error.code).toBe('TOO_LARGE');
    expect(error.message).toContain('"bomb.md"');
    expect(performance.now() - started).toBeLessThan(1000);

    // A header lying about the size: the inflated bytes are counted, not the claim.
    const lying = Buffer.from(bytes);
    const central = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    expect(lying.readUInt32LE(central + 24)).toBe(size);
    lying.writeUInt32LE(1000, central + 24);
    started = performance.now();
    expect((await failure(read(lying))).code).toBe('PARSE_ERROR');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses a small entry whose header lies about its size, either way, without inflating past the claim', async () => {
    // Entries small enough (as claimed and compressed) to be inflated in one call (read-entries.ts inflateAt), not streamed.
    const claiming = async (name: string, content: Buffer, claim: (size: number) => number) => {
      const bytes = await zip({ [name]: content, 'page.md': '# Page\n\nText.\n' });
      expect(bytes.length).toBeLessThan(64 * 1024);
      // The first central header is `name`'s.
      const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      expect((await read(bytes)).pages.map((p) => p.source)).toContain('page.md');
      bytes.writeUInt32LE(claim(bytes.readUInt32LE(central + 24)), central + 24);
      return bytes;
    };
    for (const lying of [await claiming('bomb.md', Buffer.alloc(8 * 1024 * 1024), () => 1000), await claiming('short.md', Buffer.alloc(100 * 1024, 'a'), (size) => size + 1)]) {
      const error = await failure(read(lying));
      expect(error.code).toBe('PARSE_ERROR');
      expect(error.message).toMatch(/"(bomb|short)\.md"/);
    }
  });

  it('counts the inflated bytes of the whole archive, and does not read entries it does not use', async () => {
    const text = (c: string) => Buffer.alloc(400 * 1024, c);
    const error = await failure(read(await zip({ 'a.md': text('a'), 'b.md': text('b'), 'c.md': text('c') }), { maxResponseBytes: 500 * 1024, maxTotalBytes: 1024 * 1024 }));
    expect(error.code).toBe('TOO_LARGE');
    expect(error.message).toContain('1 MB');
    // Too large for one entry, but not a page or a file: skipped, not refused.
    const tree = await read(await zip({ 'a.md': '# A\n', 'video.bin': Buffer.alloc(600 * 1024) }), { maxResponseBytes: 500 * 1024 });
    expect(tree.pages).toHaveLength(1);
    const big = await failure(read(await zip({ 'a.md': text('a'), 'b.png': Buffer.alloc(600 * 1024) }), { maxResponseBytes: 500 * 1024 }));
    expect(big.code).toBe('TOO_LARGE');
    expect(big.message).toContain('"b.png"');
  });

  it('refuses what is not a zip, or a truncated one', async () => {
    expect((await failure(read(Buffer.from('<html>not a zip</html>')))).code).toBe('PARSE_ERROR');
    const whole = await zip({ 'a.md': '# A\n', 'b.md': '# B\n' });
    expect((await failure(read(whole.subarray(0, whole.length - 30)))).code).toBe('PARSE_ERROR');
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(readZipTree(await zip({ 'a.md': '# A\n' }), { limits: limits(), signal: controller.signal }));
    expect(error.code).toBe('CANCELLED');
  });
});

describe('zipSource', () => {
  it('fetches the archive and reads its tree', async () => {
    const archive = await zip({ 'docs-main/README.md': '# Docs\n', 'docs-main/guide.md': '# Guide\n', 'docs-main/a.png': Buffer.from('png') });
    const server = http.createServer((req, res) => {
      res.writeHead(req.url === '/docs.zip' ? 200 : 404, { 'content-type': 'application/zip' });
      res.end(req.url === '/docs.zip' ? archive : undefined);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const progress: Array<[number, number | undefined]> = [];
      const tree = await zipSource(`http://127.0.0.1:${(server.address() as AddressInfo).port}/docs.zip`, {
        fetch: createSafeFetch({ limits: limits(), allowPrivateNetworks: true }),
        limits: limits(),
        signal: new AbortController().signal,
        progress: (done, total) => progress.push([done, total]),
      });
      expect(tree.pages.map((p) => p.source)).toEqual(['README.md', 'guide.md']);
      expect(tree.files.map((f) => f.source)).toEqual(['a.png']);
      expect(progress.at(-1)).toEqual([3, 3]);
    } finally {
      server.close();
    }
  });
});
