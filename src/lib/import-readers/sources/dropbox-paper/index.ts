/**
 * `source: "dropbox-paper"`: what Dropbox Paper exports: a document as markdown (its `# Title`
 * first) or as a Word document, or a folder's export, a zip of those (folders give the page
 * tree, as a `zip` import's). Images of Paper's markdown are links to Dropbox's servers: they stay
 * links; the .docx export holds them, and they become files.
 */
import type { ImportSource } from '../../tree.js';
import { readExportedDocument, typesOf, type ExportForm } from '../exported-document.js';

const FORMS: ExportForm[] = ['markdown', 'docx', 'zip'];

export const dropboxPaperSource: ImportSource = async (url, context) => {
  const resource = await context.fetch(url, { accept: typesOf(FORMS) });
  return readExportedDocument(resource, context, { product: 'Dropbox Paper', forms: FORMS });
};
