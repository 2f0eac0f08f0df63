/**
 * `source: "docx"`: one page from a Word document. mammoth turns it into HTML, which becomes
 * markdown like any page (html/to-markdown.ts). Embedded pictures, which mammoth would inline as
 * base64, become the import's files instead: each `<img>` points at its file's `source`
 * (`docx-images/image-1.png`), which resolves to itself against the page's source (the file name).
 */
import { createHash } from 'node:crypto';
import mammoth from 'mammoth';
import { throwIfAborted } from '../../fetch/fetch-errors.js';
import { htmlToMarkdown } from '../html/to-markdown.js';
import { docxToTreeInPool } from '../in-pool.js';
import type { ImportedFile, ImportLimits, ImportSource, ImportTree } from '../tree.js';
import { checkDocxArchive, notADocx } from './docx-archive.js';

export const DOCX_TYPES = ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/octet-stream'];

/** Word's own title style is the document's title too (mammoth maps only headings by default). */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", 'p.Title => h1:fresh'];

const EXTENSIONS: Record<string, string> = { jpeg: 'jpg', 'svg+xml': 'svg', tiff: 'tif', 'x-emf': 'emf', 'x-wmf': 'wmf' };

/** The content type from the document's own manifest: kept only when it looks like an image type. */
function imageType(contentType: string | undefined): { contentType: string; extension: string } {
  const type = /^image\/([\w.+-]{1,40})$/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (!type) return { contentType: 'application/octet-stream', extension: 'bin' };
  return { contentType: `image/${type}`, extension: EXTENSIONS[type] ?? (/^[a-z0-9]{1,8}$/.test(type) ? type : 'bin') };
}

/** A file name usable as a relative source: one path segment, nothing a URL would read as a query or fragment. */
function pageSource(name: string): string {
  const safe = name.replace(/[/\\?#%\u0000-\u001f]+/g, '-').trim();
  return safe && safe !== '.' && safe !== '..' ? safe : 'document.docx';
}

const withoutExtension = (name: string) => name.replace(/\.[a-z0-9]{1,8}$/i, '').trim();

export async function docxToTree(bytes: Uint8Array, options: { name: string; limits: ImportLimits; signal?: AbortSignal }): Promise<ImportTree> {
  await checkDocxArchive(bytes, options.limits, options.signal);
  const files: ImportedFile[] = [];
  // The same picture used twice is one file.
  const byHash = new Map<string, string>();
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        styleMap: STYLE_MAP,
        includeEmbeddedStyleMap: false,
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async (image) => {
          const data = new Uint8Array(await image.readAsBuffer());
          const hash = createHash('sha256').update(data).digest('hex');
          const known = byHash.get(hash);
          if (known) return { src: known };
          const { contentType, extension } = imageType(image.contentType);
          const name = `image-${files.length + 1}.${extension}`;
          const source = `docx-images/${name}`;
          files.push({ source, name, contentType, bytes: data });
          byHash.set(hash, source);
          return { src: source };
        }),
      },
    );
    html = result.value;
  } catch {
    throw notADocx();
  }
  throwIfAborted(options.signal);
  const { title, markdown } = htmlToMarkdown(html);
  return {
    pages: [{ source: pageSource(options.name), title: title ?? (withoutExtension(options.name) || 'Document'), markdown, children: [] }],
    files,
    totalResources: 1 + files.length,
  };
}

/** The document's file name from its URL (`report.docx`), decoded. */
export function fileName(url: string): string {
  const segment = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export const docxSource: ImportSource = async (url, context) => {
  const resource = await context.fetch(url, { accept: DOCX_TYPES });
  // Read in the conversion pool (docxToTree runs there), off the event loop.
  const tree = await docxToTreeInPool({ bytes: resource.bytes, name: fileName(resource.url) || 'document.docx', limits: context.limits }, context.signal);
  context.progress(tree.totalResources, tree.totalResources);
  return tree;
};
