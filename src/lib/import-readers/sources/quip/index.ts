/**
 * `source: "quip"`: what Quip exports: a document as HTML (Quip's own export, or the Automation
 * API's `/threads/{id}/html`) or as a Word document, or a folder's export, a zip of those (Quip's
 * bulk exporters write a folder per Quip folder, a `Title.html` per document, links between them
 * as relative paths and the images and attached files in `blobs/`, which become files).
 */
import type { ImportSource } from '../../tree.js';
import { isImagePath } from '../../zip/files.js';
import { readExportedDocument, typesOf, type ExportForm } from '../exported-document.js';

const FORMS: ExportForm[] = ['html', 'docx', 'zip'];

/** Images anywhere, and whatever a `blobs/` folder holds (attachments, of any type). */
const isAsset = (path: string) => isImagePath(path) || /(^|\/)blobs\/[^/]+$/.test(path);

export const quipSource: ImportSource = async (url, context) => {
  const resource = await context.fetch(url, { accept: typesOf(FORMS) });
  return readExportedDocument(resource, context, { product: 'Quip', forms: FORMS, isAsset });
};
