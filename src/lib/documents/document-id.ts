/**
 * A document's stored form, computed without the database, so the conversion threads
 * (src/lib/threads/tasks.ts) can compute it too: its ID is `doc_` + the base64url SHA-256 of its
 * canonical JSON (safe-stable-stringify: keys sorted), the text stored, its size in bytes, and
 * its link rows. Documents are content-addressed and shared, so this must give byte-identical
 * IDs wherever it runs. For a large document, canonical JSON and hashing take hundreds of
 * milliseconds (5 MB: ~200 ms), which is why they run in a thread (revisions/prepare.ts).
 */
import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { documentLinkRows, type DocumentLinkRow } from './extract-links.js';
import type { JSONDocument } from './types.js';

export type StoredDocument = { id: string; json: string; size: number };

export function documentId(document: JSONDocument): StoredDocument {
  const json = stringify(document) as string;
  return { id: `doc_${createHash('sha256').update(json).digest('base64url')}`, json, size: Buffer.byteLength(json) };
}

/** A document's stored form as plain data (what crosses the thread boundary). */
export type PreparedFields = StoredDocument & { links: DocumentLinkRow[] };

/**
 * A document ready to store: putDocuments takes it as is instead of computing it again. A class,
 * so that only code can make one (a JSON body parses to plain objects, never to this: a client
 * cannot choose a document's ID).
 */
export class PreparedDocument implements PreparedFields {
  readonly id: string;
  readonly json: string;
  readonly size: number;
  readonly links: DocumentLinkRow[];
  constructor(fields: PreparedFields) {
    this.id = fields.id;
    this.json = fields.json;
    this.size = fields.size;
    this.links = fields.links;
  }
}

/** The stored form of a document, as plain data. */
export const preparedFields = (document: JSONDocument): PreparedFields => ({ ...documentId(document), links: documentLinkRows(document) });

export const prepareDocument = (document: JSONDocument): PreparedDocument => new PreparedDocument(preparedFields(document));
