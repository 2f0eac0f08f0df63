/**
 * Documents stored by content: a document's ID is the SHA-256 of its canonical JSON (keys sorted),
 * so every revision, page and space that has the same body shares one row.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { Prisma } from '../../generated/prisma/client.js';
import type { JSONDocument } from '../documents/types.js';
import type { Queryable } from '../pagination/keyset.js';

export type StoredDocument = { id: string; json: string; size: number };

export function documentId(document: JSONDocument): StoredDocument {
  const json = stringify(document) as string;
  return { id: `doc_${createHash('sha256').update(json).digest('base64url')}`, json, size: Buffer.byteLength(json) };
}

/** Stores the documents not stored yet; answers their IDs in order. */
export async function putDocuments(db: Prisma.TransactionClient, documents: readonly JSONDocument[]): Promise<string[]> {
  const stored = documents.map(documentId);
  const unique = [...new Map(stored.map((d) => [d.id, d])).values()];
  if (unique.length) {
    await db.$executeRaw(Prisma.sql`INSERT INTO "Document" ("id", "body", "size")
      SELECT * FROM unnest(${unique.map((d) => d.id)}::text[], ${unique.map((d) => d.json)}::jsonb[], ${unique.map((d) => d.size)}::int[])
      ON CONFLICT ("id") DO NOTHING`);
  }
  return stored.map((d) => d.id);
}

/** The bodies of some documents, by ID (missing IDs absent from the map). */
export async function loadDocuments(db: Queryable, ids: readonly string[]): Promise<Map<string, JSONDocument>> {
  if (!ids.length) return new Map();
  const rows = await db.$queryRaw<{ id: string; body: JSONDocument }[]>(Prisma.sql`SELECT "id", "body" FROM "Document" WHERE "id" = ANY(${[...new Set(ids)]}::text[])`);
  return new Map(rows.map((r) => [r.id, r.body]));
}
