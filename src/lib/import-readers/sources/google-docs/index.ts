/**
 * `source: "google-docs"`: a Google Docs document, as its .docx export (a document's URL is turned
 * into that export's, url.ts: the document must be shared so that anyone with the link can view
 * it) or as a page published to the web (published-html.ts).
 */
import { ImportError } from '../../import-error.js';
import { googleDocsHtmlInPool } from '../../in-pool.js';
import type { FetchedResource, ImportSource, ImportTree, SourceContext } from '../../tree.js';
import { formOf, readExportedDocument, typesOf, type ExportForm } from '../exported-document.js';
import { exportUrl } from './url.js';

const FORMS: ExportForm[] = ['docx', 'html'];

/**
 * What Google answered; `exported`: the URL was a document's, turned into its .docx export. A
 * page in its place is no document: Google's sign-in page, for a document not shared.
 */
export async function readGoogleDocs(resource: FetchedResource, context: SourceContext, exported: boolean): Promise<ImportTree> {
  if (exported && (await formOf(resource, context.limits.maxZipEntries)) !== 'docx') {
    throw new ImportError(
      'HTTP_ERROR',
      'Google Docs answered a page instead of the document (its sign-in page, for a document that is not shared): share the document with anyone who has the link, or publish it to the web, and import again.',
    );
  }
  return readExportedDocument(resource, context, {
    product: 'Google Docs',
    forms: FORMS,
    html: (page, signal) => googleDocsHtmlInPool({ bytes: page.bytes, ...(page.charset ? { charset: page.charset } : {}), url: page.url }, signal),
  });
}

export const googleDocsSource: ImportSource = async (url, context) => {
  const target = exportUrl(url);
  const resource = await context.fetch(target, { accept: typesOf(FORMS) });
  return readGoogleDocs(resource, context, target !== url);
};
