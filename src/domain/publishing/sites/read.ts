/** Reading sites for a caller: an organization's sites (a page with its total), checked against the caller's role. */
import { Prisma, type Site } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { counted, type CountedPage } from '../../kernel/pagination/counted.js';
import { byTimeThenId, readPage, type PageArgs } from '../../kernel/pagination/keyset.js';

const { sql } = Prisma;

/** The organization's sites, oldest first (members with an organization role). */
export async function organizationSites(db: Db, access: Access, organizationId: string, args: PageArgs): Promise<CountedPage<Site>> {
  await access.requireOrganization(organizationId, 'viewSites');
  const key = byTimeThenId<Site>(`sites:${organizationId}`, 's."createdAt"', 's."id"', (s) => [s.createdAt, s.id]);
  const page = await readPage<Site>(db, sql`SELECT s.* FROM "Site" s`, [sql`s."organizationId" = ${organizationId}`], key, args);
  return counted(page, () => db.site.count({ where: { organizationId } }));
}
