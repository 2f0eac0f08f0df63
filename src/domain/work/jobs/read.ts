/** Reading jobs: one by ID, and an organization's or a space's in pages (newest first). */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { byTimeThenId, readPage, type PageArgs } from '../../kernel/pagination/keyset.js';
import { counted, type CountedPage } from '../../kernel/pagination/counted.js';
import type { JobRow } from './rows.js';

const { sql } = Prisma;

/** A job the caller may see (404 otherwise, whether it does not exist or is another organization's). */
export async function findJob(db: Db, access: Access, id: string): Promise<JobRow> {
  return access.requireJob(await jobById(db, id));
}

/** The job as it is now (a watcher re-reads it: no loader, whose answer would not change). */
export const jobById = (db: Db, id: string): Promise<JobRow | null> => db.job.findUnique({ where: { id } });

const newestFirst = (tag: string) => byTimeThenId<JobRow>(tag, 'j."createdAt"', 'j."id"', (j) => [j.createdAt, j.id], { descending: true });

/** The organization's jobs (organization admins; see JOB_RULES). */
export async function organizationJobs(db: Db, access: Access, organizationId: string, args: PageArgs): Promise<CountedPage<JobRow>> {
  await access.requireOrganization(organizationId, 'manageJobs');
  const page = await readPage<JobRow>(db, sql`SELECT j.* FROM "Job" j`, [sql`j."organizationId" = ${organizationId}`], newestFirst(`jobs:org:${organizationId}`), args);
  return counted(page, () => db.job.count({ where: { organizationId } }));
}

/** The jobs that work on a space (who may view the space). */
export async function spaceJobs(db: Db, access: Access, spaceId: string, args: PageArgs): Promise<CountedPage<JobRow>> {
  await access.requireSpace(spaceId, 'view');
  const page = await readPage<JobRow>(db, sql`SELECT j.* FROM "Job" j`, [sql`j."spaceId" = ${spaceId}`], newestFirst(`jobs:space:${spaceId}`), args);
  return counted(page, () => db.job.count({ where: { spaceId } }));
}
