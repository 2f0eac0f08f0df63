/**
 * Who took part in a place's threads: the organization's members who posted a comment or a reply
 * there (the space's own comments, or a change request's), by name, as a keyset page. The authors
 * are read from the place's comments and replies (its indexes), the members by their key.
 */
import { Prisma } from '../../generated/prisma/client.js';
import { countRows } from '../kernel/pagination/count.js';
import { readPage, type Page, type PageArgs, type Queryable, type SortKey } from '../kernel/pagination/keyset.js';
import { selectMembers, toMemberRow, type MemberRow } from '../people/members/rows.js';
import { inPlace, type CommentPlace } from './rows.js';

const { sql, raw, join } = Prisma;

const authors = (place: CommentPlace) => sql`(SELECT c."authorId" FROM "Comment" c WHERE ${inPlace(place)}
  UNION SELECT r."authorId" FROM "CommentReply" r JOIN "Comment" c ON c."id" = r."commentId" WHERE ${inPlace(place)})`;

const conditions = (organizationId: string, place: CommentPlace) => [sql`m."organizationId" = ${organizationId}`, sql`m."userId" IN ${authors(place)}`];

export async function commentersPage(db: Queryable, organizationId: string, place: CommentPlace, args: PageArgs): Promise<Page<MemberRow>> {
  type Flat = Parameters<typeof toMemberRow>[0];
  const key: SortKey<Flat> = {
    tag: `commenters:${place.spaceId}:${place.changeRequestId ?? ''}`,
    columns: [
      { sql: raw('m."sortName"'), type: 'text' },
      { sql: raw('m."userId"'), type: 'text' },
    ],
    keyOf: (m) => [m.sortName, m.userId],
  };
  const page = await readPage<Flat>(db, selectMembers(), conditions(organizationId, place), key, args);
  return { ...page, rows: page.rows.map(toMemberRow), cursorOf: (row) => page.cursorOf(row as unknown as Flat) };
}

export function countCommenters(db: Queryable, organizationId: string, place: CommentPlace): Promise<number> {
  return countRows(db, sql`"Member" m WHERE ${join(conditions(organizationId, place), ' AND ')}`);
}
