import type { Queryable } from '../../kernel/pagination/keyset.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { notFound } from '../../../lib/errors.js';
import type { RevisionScope } from './scope.js';

/** The scope of a revision that must exist (its ID came from a row that names it). */
export async function revisionScope(db: Queryable, revisionId: string): Promise<RevisionScope> {
  const [row] = await db.$queryRaw<RevisionScope[]>(
    Prisma.sql`SELECT "id", "spaceId", "lineId", "seq", "baseSeq" FROM "Revision" WHERE "id" = ${revisionId}`,
  );
  if (!row) throw notFound('Revision');
  return row;
}
