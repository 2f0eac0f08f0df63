/**
 * What a product's export gives, read whatever its form: a Word document, an HTML page, a markdown
 * file, or a zip of a folder of those. The form is told by the bytes (a zip holding
 * `word/document.xml` is a .docx, another zip a folder; HTML by its content type or its opening
 * tag), not by the URL, since exports are often served as `application/octet-stream`. Used by
 * the `dropbox-paper`, `quip` and `google-docs` sources, each with the forms its product exports.
 */
import { throwIfAborted } from '../../fetch/fetch-errors.js';
import { ImportError } from '../import-error.js';
import { docxToTreeInPool, htmlToMarkdownInPool } from '../in-pool.js';
import type { FetchedResource, ImportTree, SourceContext } from '../tree.js';
import { readZipTree } from '../zip/read-zip-tree.js';
import { DOCX_TYPES, fileName } from './docx.js';
import { HTML_TYPES } from './html.js';
import { decodeText, titleFromUrl } from './text.js';
import { ZIP_TYPES } from './zip.js';

export type ExportForm = 'docx' | 'html' | 'markdown' | 'zip';

const TYPES: Record<ExportForm, string[]> = {
  docx: DOCX_TYPES,
  html: HTML_TYPES,
  markdown: ['text/markdown', 'text/x-markdown', 'text/plain', 'application/octet-stream'],
  zip: ZIP_TYPES,
};

/** The media types to accept when fetching any of `forms`. */
export const typesOf = (forms: readonly ExportForm[]) => [...new Set(forms.flatMap((form) => TYPES[form]))];

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** Entry names are stored as they are in the central directory: a .docx names its main part there. */
const isDocx = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('word/document.xml');

export function formOf(resource: Pick<FetchedResource, 'bytes' | 'contentType'>): ExportForm {
  if (isZip(resource.bytes)) return isDocx(resource.bytes) ? 'docx' : 'zip';
  if (HTML_TYPES.includes(resource.contentType)) return 'html';
  const head = new TextDecoder('utf-8').decode(resource.bytes.subarray(0, 1024)).replace(/^\uFEFF/, '').trimStart().toLowerCase();
  return /^<(!doctype html|html|head|body|meta|div|h1|p)\b/.test(head) ? 'html' : 'markdown';
}

export type ExportedDocumentOptions = {
  /** The product, in messages (`Quip`). */
  product: string;
  forms: readonly ExportForm[];
  /** In a zip, which other files become the import's files besides images (an attachments folder). */
  isAsset?: (path: string) => boolean;
  /** An HTML export converted otherwise than a web page (the product's own markup). */
  html?: (resource: FetchedResource, signal: AbortSignal) => Promise<{ title?: string; markdown: string }>;
};

const NAMES: Record<ExportForm, string> = { docx: 'a Word document (.docx)', html: 'an HTML page', markdown: 'a markdown file', zip: 'a zip of a folder' };

export async function readExportedDocument(resource: FetchedResource, context: SourceContext, options: ExportedDocumentOptions): Promise<ImportTree> {
  const { limits, signal } = context;
  const form = formOf(resource);
  if (!options.forms.includes(form)) {
    throw new ImportError('UNSUPPORTED_CONTENT_TYPE', `A ${options.product} export is ${options.forms.map((f) => NAMES[f]).join(', or ')}; this is ${NAMES[form]}.`);
  }
  throwIfAborted(signal);
  if (form === 'docx') {
    const tree = await docxToTreeInPool({ bytes: resource.bytes, name: fileName(resource.url) || 'document.docx', limits }, signal);
    context.progress(tree.totalResources, tree.totalResources);
    return tree;
  }
  if (form === 'zip') {
    return readZipTree(resource.bytes, {
      limits,
      signal,
      progress: (done, total) => context.progress(done, total),
      ...(options.isAsset ? { isAsset: options.isAsset } : {}),
    });
  }
  const page =
    form === 'html'
      ? await (options.html?.(resource, signal) ?? htmlToMarkdownInPool({ bytes: resource.bytes, ...(resource.charset ? { charset: resource.charset } : {}) }, signal))
      : { markdown: decodeText(resource) };
  context.progress(1, 1);
  return { pages: [{ source: resource.url, title: page.title ?? titleFromUrl(resource.url), markdown: page.markdown, children: [] }], files: [], totalResources: 1 };
}
