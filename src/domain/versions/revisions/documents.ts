/**
 * Documents stored by content: a document's ID is the SHA-256 of its canonical JSON (keys sorted),
 * so every revision, page and space that has the same body shares one row.
 */
import { Prisma } from '../../../generated/prisma/client.js';
import type { JSONDocument } from '../../../lib/documents/types.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import { PreparedDocument, prepareDocument } from '../../../lib/documents/document-id.js';

export { documentId, PreparedDocument, prepareDocument, type StoredDocument } from '../../../lib/documents/document-id.js';

/**
 * Stores the documents not stored yet, with their links (content-links/document-links.ts), in one
 * statement: a document's "DocumentLink" rows are inserted only with the document row itself, so
 * every stored document has its links (older ones were backfilled by the migration that made the
 * table). Answers their IDs in order. A PreparedDocument (computed in a conversion thread) is
 * stored as it is; a JSONDocument is prepared here, on the caller's thread. Each body is its own
 * text parameter, not an element of an array literal: the driver passes a string parameter as is,
 * while an array literal escapes every quote of the JSON (~130 ms for 10 MB).
 */
export async function putDocuments(db: Prisma.TransactionClient, documents: readonly (JSONDocument | PreparedDocument)[]): Promise<string[]> {
  const stored = documents.map((document) => (document instanceof PreparedDocument ? document : prepareDocument(document)));
  const unique = [...new Map(stored.map((d) => [d.id, d])).values()];
  // Three parameters per document: batches stay far below PostgreSQL's 65,535 per statement.
  for (let i = 0; i < unique.length; i += DOCUMENTS_PER_STATEMENT) await insertDocuments(db, unique.slice(i, i + DOCUMENTS_PER_STATEMENT));
  return stored.map((d) => d.id);
}

const DOCUMENTS_PER_STATEMENT = 2_000;

async function insertDocuments(db: Prisma.TransactionClient, unique: readonly PreparedDocument[]): Promise<void> {
  const links = unique.flatMap((d) => d.links.map((link) => ({ documentId: d.id, ...link })));
  const rows = unique.map((d) => Prisma.sql`(${d.id}::text, ${d.json}::jsonb, ${d.size}::int)`);
  // `kept` locks the documents stored before (the lock the foreign key of the entries about to
  // name them takes anyway, taken now, for the rest of the transaction): the garbage collection
  // (document-gc.ts) skips a locked row, and a row it deleted after this statement's snapshot is
  // not locked but inserted again by `stored`. The final SELECT reads `kept` so that it runs.
  await db.$executeRaw(Prisma.sql`WITH stored AS (
      INSERT INTO "Document" ("id", "body", "size")
      VALUES ${Prisma.join(rows)}
      ON CONFLICT ("id") DO NOTHING
      RETURNING "id"
    ), kept AS (
      SELECT "id" FROM "Document" WHERE "id" = ANY(${unique.map((d) => d.id)}::text[]) FOR KEY SHARE
    ), linked AS (
      INSERT INTO "DocumentLink" ("documentId", "ordinal", "kind", "target", "ref")
      SELECT l.* FROM unnest(${links.map((l) => l.documentId)}::text[], ${links.map((l) => l.ordinal)}::int[], ${links.map((l) => l.kind)}::text[],
        ${links.map((l) => l.target)}::text[], ${links.map((l) => JSON.stringify(l.ref))}::jsonb[]) AS l("documentId", "ordinal", "kind", "target", "ref")
      WHERE l."documentId" IN (SELECT "id" FROM stored)
    )
    SELECT count(*) FROM kept`);
}

/**
 * A document's body as JSON text (PostgreSQL's rendering of the jsonb), for a conversion thread
 * to parse: parsing 10 MB on the event loop would block it. Null when missing.
 */
export async function loadDocumentText(db: Queryable, id: string): Promise<string | null> {
  const [row] = await db.$queryRaw<{ body: string }[]>(Prisma.sql`SELECT "body"::text AS "body" FROM "Document" WHERE "id" = ${id}`);
  return row?.body ?? null;
}

/** The bodies of some documents, by ID (missing IDs absent from the map). */
export async function loadDocuments(db: Queryable, ids: readonly string[]): Promise<Map<string, JSONDocument>> {
  if (!ids.length) return new Map();
  const rows = await db.$queryRaw<{ id: string; body: JSONDocument }[]>(Prisma.sql`SELECT "id", "body" FROM "Document" WHERE "id" = ANY(${[...new Set(ids)]}::text[])`);
  return new Map(rows.map((r) => [r.id, r.body]));
}
