/** Reading sites for a caller: an organization's sites (a page with its total), each with the caller's role on it. */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { siteRoleSql } from '../../access/role-sql.js';
import { counted, type CountedPage } from '../../kernel/pagination/counted.js';
import { byTimeThenId, readPage, type PageArgs } from '../../kernel/pagination/keyset.js';
import { selectSites, type SiteRow } from './rows.js';

const { sql } = Prisma;

/**
 * The organization's sites the caller has a role on (docs/access.md#sites), oldest first: every
 * site for an organization admin, those whose `defaultLevel` is not null or that grant them a
 * role for other members, only granted ones for guests. An organization holds few sites: the
 * role is decided per site row, beside it; members are never read beyond the caller.
 */
export async function organizationSites(db: Db, access: Access, organizationId: string, args: PageArgs): Promise<CountedPage<SiteRow>> {
  await access.requireOrganization(organizationId, 'view');
  const conditions = [sql`s."organizationId" = ${organizationId}`, sql`${siteRoleSql('viewer', 's')} IS NOT NULL`];
  const key = byTimeThenId<SiteRow>(`sites:${organizationId}`, 's."createdAt"', 's."id"', (s) => [s.createdAt, s.id]);
  const page = await readPage<SiteRow>(db, selectSites(access.userId), conditions, key, args);
  return counted(page, async () => {
    const [row] = await db.$queryRaw<{ n: number }[]>(sql`SELECT count(*)::int AS n FROM (${selectSites(access.userId)} WHERE ${Prisma.join(conditions, ' AND ')}) x`);
    return row?.n ?? 0;
  });
}
