/**
 * The content tree's one order among siblings (spaces and collections under the same parent):
 * by position, then by ID. Lists page in it (keyset on these columns), Collection.treeKey encodes
 * it per level (prisma/migrations/*_access_index), and placing an item keeps the others where they
 * are in it (content-tree/position.ts).
 */
import { Prisma } from '../../../generated/prisma/client.js';
import type { SortKey } from '../../kernel/pagination/keyset.js';

type Sibling = { position: number; id: string };

/** The keyset sort of a list of siblings read as `alias` (`leading`: see SortKey). */
export function siblingOrder<Row extends Sibling>(tag: string, alias: 's' | 'c', leading: Prisma.Sql[]): SortKey<Row> {
  return {
    tag,
    leading,
    columns: [
      { sql: Prisma.raw(`${alias}."position"`), type: 'int' },
      { sql: Prisma.raw(`${alias}."id"`), type: 'text' },
    ],
    keyOf: (row) => [row.position, row.id],
  };
}
