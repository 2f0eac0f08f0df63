/**
 * Documents stored by content: a document's ID is the SHA-256 of its canonical JSON (keys sorted),
 * so every revision, page and space that has the same body shares one row.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { Prisma } from '../../generated/prisma/client.js';
import type { JSONDocument } from '../documents/types.js';
import { documentLinkRows } from '../content-links/extract.js';
import type { Queryable } from '../pagination/keyset.js';

export type StoredDocument = { id: string; json: string; size: number };

export function documentId(document: JSONDocument): StoredDocument {
  const json = stringify(document) as string;
  return { id: `doc_${createHash('sha256').update(json).digest('base64url')}`, json, size: Buffer.byteLength(json) };
}

/**
 * Stores the documents not stored yet, with their links (content-links/document-links.ts), in one
 * statement: a document's "DocumentLink" rows are inserted only with the document row itself, so
 * every stored document has its links (older ones were backfilled by the migration that made the
 * table). Answers their IDs in order.
 */
export async function putDocuments(db: Prisma.TransactionClient, documents: readonly JSONDocument[]): Promise<string[]> {
  const stored = documents.map((document) => ({ ...documentId(document), document }));
  const unique = [...new Map(stored.map((d) => [d.id, d])).values()];
  if (unique.length) {
    const links = unique.flatMap((d) => documentLinkRows(d.document).map((link) => ({ documentId: d.id, ...link })));
    await db.$executeRaw(Prisma.sql`WITH stored AS (
        INSERT INTO "Document" ("id", "body", "size")
        SELECT * FROM unnest(${unique.map((d) => d.id)}::text[], ${unique.map((d) => d.json)}::jsonb[], ${unique.map((d) => d.size)}::int[])
        ON CONFLICT ("id") DO NOTHING
        RETURNING "id"
      )
      INSERT INTO "DocumentLink" ("documentId", "ordinal", "kind", "target", "ref")
      SELECT l.* FROM unnest(${links.map((l) => l.documentId)}::text[], ${links.map((l) => l.ordinal)}::int[], ${links.map((l) => l.kind)}::text[],
        ${links.map((l) => l.target)}::text[], ${links.map((l) => JSON.stringify(l.ref))}::jsonb[]) AS l("documentId", "ordinal", "kind", "target", "ref")
      WHERE l."documentId" IN (SELECT "id" FROM stored)`);
  }
  return stored.map((d) => d.id);
}

/** The bodies of some documents, by ID (missing IDs absent from the map). */
export async function loadDocuments(db: Queryable, ids: readonly string[]): Promise<Map<string, JSONDocument>> {
  if (!ids.length) return new Map();
  const rows = await db.$queryRaw<{ id: string; body: JSONDocument }[]>(Prisma.sql`SELECT "id", "body" FROM "Document" WHERE "id" = ANY(${[...new Set(ids)]}::text[])`);
  return new Map(rows.map((r) => [r.id, r.body]));
}
