/**
 * What a product's export gives, read whatever its form: a Word document, an HTML page, a markdown
 * file, or a zip of a folder of those. The form is told by the bytes (a zip listing
 * `word/document.xml` is a .docx, another zip a folder of documents, exported-folder.ts; HTML by its content type or its opening
 * tag), not by the URL, since exports are often served as `application/octet-stream`. Used by
 * the `dropbox-paper`, `quip` and `google-docs` sources, each with the forms its product exports.
 */
import { throwIfAborted } from '../../fetch/fetch-errors.js';
import { ImportError } from '../import-error.js';
import { docxToTreeInPool, htmlToMarkdownInPool } from '../in-pool.js';
import yauzl, { type ZipFile } from 'yauzl';
import { DEFAULT_IMPORT_LIMITS, type FetchedResource, type ImportTree, type SourceContext } from '../tree.js';
import { isImagePath } from '../zip/files.js';
import { DOCX_TYPES, fileName } from './docx.js';
import { readExportedFolder } from './exported-folder.js';
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

/**
 * Whether the zip's directory lists a .docx's main part (only the directory is read, nothing
 * inflated): a zip of a folder holding .docx files is a folder, not a document. A zip that
 * cannot be listed is left to the zip reader, which refuses it with its reason.
 */
async function isDocx(bytes: Uint8Array, maxEntries: number): Promise<boolean> {
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, decodeStrings: false });
  } catch {
    return false;
  }
  try {
    if (zip.entryCount > maxEntries) return false;
    for await (const entry of zip.eachEntry()) if (entry.fileNameRaw.toString('latin1') === 'word/document.xml') return true;
    return false;
  } catch {
    return false;
  } finally {
    zip.close();
  }
}

export async function formOf(resource: Pick<FetchedResource, 'bytes' | 'contentType'>, maxEntries = DEFAULT_IMPORT_LIMITS.maxZipEntries): Promise<ExportForm> {
  if (isZip(resource.bytes)) return (await isDocx(resource.bytes, maxEntries)) ? 'docx' : 'zip';
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
  const form = await formOf(resource, limits.maxZipEntries);
  if (!options.forms.includes(form)) {
    throw new ImportError('UNSUPPORTED_CONTENT_TYPE', `A ${options.product} export is ${options.forms.map((f) => NAMES[f]).join(', or ')}; this is ${NAMES[form]}.`);
  }
  throwIfAborted(signal);
  if (form === 'docx') {
    const tree = await docxToTreeInPool({ bytes: resource.bytes, name: fileName(resource.url) || 'document.docx', limits }, signal);
    context.progress(tree.totalResources, tree.totalResources);
    return tree;
  }
  if (form === 'zip') return readExportedFolder(resource.bytes, context, options.isAsset ?? isImagePath);
  const page =
    form === 'html'
      ? await (options.html?.(resource, signal) ?? htmlToMarkdownInPool({ bytes: resource.bytes, ...(resource.charset ? { charset: resource.charset } : {}) }, signal))
      : { markdown: decodeText(resource) };
  context.progress(1, 1);
  return { pages: [{ source: resource.url, title: page.title ?? titleFromUrl(resource.url), markdown: page.markdown, children: [] }], files: [], totalResources: 1 };
}
