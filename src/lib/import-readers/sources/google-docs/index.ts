/**
 * `source: "google-docs"`: a Google Docs document, as its .docx export (a document's URL is turned
 * into that export's, url.ts: the document must be shared so that anyone with the link can view
 * it) or as a page published to the web (published-html.ts).
 */
import { googleDocsHtmlInPool } from '../../in-pool.js';
import type { ImportSource } from '../../tree.js';
import { readExportedDocument, typesOf, type ExportForm } from '../exported-document.js';
import { exportUrl } from './url.js';

const FORMS: ExportForm[] = ['docx', 'html'];

export const googleDocsSource: ImportSource = async (url, context) => {
  const resource = await context.fetch(exportUrl(url), { accept: typesOf(FORMS) });
  return readExportedDocument(resource, context, {
    product: 'Google Docs',
    forms: FORMS,
    html: (page, signal) => googleDocsHtmlInPool({ bytes: page.bytes, ...(page.charset ? { charset: page.charset } : {}), url: page.url }, signal),
  });
};
