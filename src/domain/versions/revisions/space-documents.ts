/**
 * Whether a document is the body of some page or reusable content of a space, in any of its
 * revisions or change requests (API `GET /spaces/{id}/documents/{documentId}`). Documents are
 * stored by content and shared between spaces: a space answers only the documents its own
 * content entries name, so an ID read elsewhere tells nothing about another space.
 */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';

export async function spaceHasDocument(db: Queryable, spaceId: string, documentId: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ one: number }[]>(
    Prisma.sql`SELECT 1 AS "one" FROM "ContentEntry" e WHERE e."documentId" = ${documentId} AND e."spaceId" = ${spaceId} LIMIT 1`,
  );
  return rows.length > 0;
}
