/**
 * Which stored keys something still names: a file entry of any revision (ContentEntry, kind
 * `file`, `data.storageKey`) or a storage upload (custom font faces, `blobKey`). Both lookups are
 * indexed (migration file_references), so a page of keys costs a few index probes per key.
 */
import { Prisma } from '../../../generated/prisma/client.js';

type Queryable = { $queryRaw<T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Prisma.PrismaPromise<T> };

export async function referencedKeys(db: Queryable, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.$queryRaw<{ key: string }[]>`
    SELECT k AS key FROM unnest(${[...keys]}::text[]) AS k
    WHERE EXISTS (SELECT 1 FROM "ContentEntry" e WHERE e."kind" = 'file' AND e."data"->>'storageKey' = k)
       OR EXISTS (SELECT 1 FROM "StorageUpload" u WHERE u."blobKey" = k)`;
  return new Set(rows.map((r) => r.key));
}
