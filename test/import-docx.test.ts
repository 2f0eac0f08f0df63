/**
 * .docx imports: documents built here with the `docx` package go through docxToTree (title,
 * blocks read back by markdownToDocument, embedded images as files), refused archives (corrupt,
 * not a Word document, too large, lying about their sizes), and the `docx` source over a local
 * HTTP server. No database needed.
 */
import { crc32, deflateSync } from 'node:zlib';
import { Document, HeadingLevel, ImageRun, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docxSource, docxToTree } from '../src/lib/import-readers/sources/docx.js';
import { DEFAULT_IMPORT_LIMITS, type ImportTree } from '../src/lib/import-readers/tree.js';
import { markdownToDocument } from '../src/lib/markdown/index.js';
import { localServer, plainContext } from './helpers/plain-fetch.js';

type Node = { type?: string; data?: Record<string, any>; nodes?: Node[]; fragments?: Node[]; leaves?: { text: string; marks: { type: string }[] }[] };
const descendants = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...descendants(n.nodes ?? []), ...descendants(n.fragments ?? [])]);
const textOf = (node: Node): string => (node.leaves ? node.leaves.map((l) => l.text).join('') : (node.nodes ?? []).map(textOf).join(''));

/** A 1×1 red RGBA PNG, valid (chunk CRCs and zlib data computed). */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0, 255]))), chunk('IEND', Buffer.alloc(0))]);
}

const png = tinyPng();
const picture = (description: string) => new ImageRun({ type: 'png', data: png, transformation: { width: 16, height: 16 }, altText: { name: description, description, title: description } });
const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });

async function buildDocx(children: (Paragraph | Table)[]): Promise<Uint8Array> {
  return new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children }] })));
}

const report = () =>
  buildDocx([
    new Paragraph({ text: 'Quarterly report', heading: HeadingLevel.HEADING_1 }),
    new Paragraph({ children: [new TextRun('Plain, '), new TextRun({ text: 'bold', bold: true }), new TextRun(' and '), new TextRun({ text: 'italic', italics: true }), new TextRun('.')] }),
    new Paragraph({ text: 'Numbers', heading: HeadingLevel.HEADING_2 }),
    new Paragraph({ text: 'First point', bullet: { level: 0 } }),
    new Paragraph({ text: 'Second point', bullet: { level: 0 } }),
    new Table({ rows: [new TableRow({ children: [cell('Name'), cell('Value')] }), new TableRow({ children: [cell('growth'), cell('12%')] })] }),
    new Paragraph({ children: [picture('A red dot')] }),
    new Paragraph({ text: '{% hint style="info" %} stays text' }),
    new Paragraph({ children: [picture('The same dot')] }),
  ]);

const limits = DEFAULT_IMPORT_LIMITS;

async function zipOf(files: Record<string, string>): Promise<Uint8Array> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/** The archive with `name`'s declared uncompressed size rewritten (central directory and local header). */
function withDeclaredSize(bytes: Uint8Array, name: string, size: number): Uint8Array {
  const out = Buffer.from(bytes);
  for (let at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) {
    const nameLength = out.readUInt16LE(at + 28);
    if (out.subarray(at + 46, at + 46 + nameLength).toString() !== name) continue;
    out.writeUInt32LE(size, at + 24);
    const local = out.readUInt32LE(at + 42);
    out.writeUInt32LE(size, local + 22);
    return new Uint8Array(out);
  }
  throw new Error(`no entry ${name}`);
}

describe('docxToTree', () => {
  let tree: ImportTree;
  beforeAll(async () => {
    tree = await docxToTree(await report(), { name: 'Quarterly report.docx', limits });
  });

  it('makes one page titled by the first heading, with its source the file name', () => {
    expect(tree.pages).toHaveLength(1);
    const [page] = tree.pages;
    expect(page).toMatchObject({ source: 'Quarterly report.docx', title: 'Quarterly report', children: [] });
    expect(page.markdown.startsWith('# Quarterly report\n\n')).toBe(true);
    expect(tree.totalResources).toBe(2);
  });

  it('reads back as the document’s blocks', () => {
    const { title, document } = markdownToDocument(tree.pages[0].markdown);
    expect(title).toBe('Quarterly report');
    const nodes = document.nodes as unknown as Node[];
    expect(nodes.map((n) => n.type)).toEqual(['paragraph', 'heading-1', 'list-unordered', 'table', 'images', 'paragraph', 'images']);
    const marks = Object.fromEntries(nodes[0].nodes!.flatMap((n) => n.leaves ?? []).map((l) => [l.text, l.marks.map((m) => m.type)]));
    expect(marks).toMatchObject({ 'Plain, ': [], bold: ['bold'], italic: ['italic'] });
    expect(textOf(nodes[1])).toBe('Numbers');
    expect(nodes[2].nodes!.map(textOf)).toEqual(['First point', 'Second point']);
    expect(Object.values(nodes[3].data!.definition).map((c: any) => c.title)).toEqual(['Name', 'Value']);
    expect(nodes[3].fragments!.map(textOf)).toEqual(['growth', '12%']);
    expect(textOf(nodes[5])).toBe('{% hint style="info" %} stays text');
  });

  it('turns the embedded picture into one file that the image blocks refer to', () => {
    expect(tree.files).toHaveLength(1);
    const [file] = tree.files;
    expect(file).toMatchObject({ source: 'docx-images/image-1.png', name: 'image-1.png', contentType: 'image/png' });
    expect(Buffer.from(file.bytes).equals(png)).toBe(true);
    const images = descendants(markdownToDocument(tree.pages[0].markdown).document.nodes as unknown as Node[]).filter((n) => n.type === 'image');
    expect(images.map((i) => i.data)).toEqual([
      { ref: { kind: 'url', url: 'docx-images/image-1.png' }, alt: 'A red dot' },
      { ref: { kind: 'url', url: 'docx-images/image-1.png' }, alt: 'The same dot' },
    ]);
    // The image resolves against the page's source to the file's source (as the import resolves it).
    expect(new URL('docx-images/image-1.png', new URL(tree.pages[0].source, 'file:///')).href).toBe(new URL(file.source, 'file:///').href);
  });

  it('takes the file name as the title when there is no heading', async () => {
    const bytes = await buildDocx([new Paragraph('Just a line.')]);
    const untitled = await docxToTree(bytes, { name: 'team-notes.docx', limits });
    expect(untitled).toEqual({ pages: [{ source: 'team-notes.docx', title: 'team-notes', markdown: 'Just a line.\n', children: [] }], files: [], totalResources: 1 });
  });

  it.each([
    ['random bytes', async () => new Uint8Array(Buffer.from('this is not a zip at all'))],
    ['a truncated .docx', async () => (await report()).subarray(0, 2_000)],
    ['a zip that is not a Word document', () => zipOf({ 'hello.txt': 'hello' })],
  ])('refuses %s with PARSE_ERROR', async (_, make) => {
    await expect(docxToTree(await make(), { name: 'x.docx', limits })).rejects.toMatchObject({ name: 'ImportError', code: 'PARSE_ERROR' });
  });

  it('refuses a document whose declared sizes or entries exceed the limits, before converting it', async () => {
    const bytes = await report();
    await expect(docxToTree(bytes, { name: 'x.docx', limits: { ...limits, maxTotalBytes: 2_000 } })).rejects.toMatchObject({ code: 'TOO_LARGE' });
    await expect(docxToTree(bytes, { name: 'x.docx', limits: { ...limits, maxResponseBytes: 1_000 } })).rejects.toMatchObject({ code: 'TOO_LARGE' });
    await expect(docxToTree(bytes, { name: 'x.docx', limits: { ...limits, maxZipEntries: 3 } })).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('refuses an archive whose entry inflates past its declared size (even a part mammoth would not read)', async () => {
    const lying = withDeclaredSize(await report(), 'word/theme/theme1.xml', 10);
    await expect(docxToTree(lying, { name: 'x.docx', limits })).rejects.toMatchObject({ code: 'PARSE_ERROR' });
  });

  it('stops once cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(docxToTree(await report(), { name: 'x.docx', limits, signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});

describe('docx source', () => {
  let server: Awaited<ReturnType<typeof localServer>>;
  let bytes: Uint8Array;
  beforeAll(async () => {
    bytes = await report();
    server = await localServer((req, res) => {
      const type = req.url === '/files/Q3%20report.docx' ? 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' : 'text/html';
      res.writeHead(200, { 'content-type': type }).end(Buffer.from(bytes));
    });
  });
  afterAll(() => server.close());

  it('fetches the document and converts it', async () => {
    const tree = await docxSource(server.url('/files/Q3%20report.docx'), plainContext());
    expect(tree.pages[0]).toMatchObject({ source: 'Q3 report.docx', title: 'Quarterly report' });
    expect(tree.files.map((f) => f.source)).toEqual(['docx-images/image-1.png']);
  });

  it('asks only for .docx (or unlabelled) content', async () => {
    await expect(docxSource(server.url('/page.html'), plainContext())).rejects.toMatchObject({ code: 'UNSUPPORTED_CONTENT_TYPE' });
  });
});
