/**
 * Reading what hangs off OpenAPI specifications, for many specs at once (the request's loaders
 * batch them): versions by ID, each spec's versions in pages (newest first) and their count, and
 * each spec's latest processing job.
 */
import { Prisma, type OpenAPISpecVersion } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import { countPerKey } from '../../kernel/pagination/count.js';
import { byTimeThenId, readPages, type Page, type PageArgs } from '../../kernel/pagination/keyset.js';
import type { JobRow } from '../../work/jobs/rows.js';

const { sql } = Prisma;

export async function specVersionsById(db: Db, ids: readonly string[]): Promise<(OpenAPISpecVersion | null)[]> {
  const rows = await db.openAPISpecVersion.findMany({ where: { id: { in: [...ids] } } });
  return ids.map((id) => rows.find((r) => r.id === id) ?? null);
}

const newestFirst = (specId: string) => byTimeThenId<OpenAPISpecVersion>(`openapi-versions:${specId}`, 'v."createdAt"', 'v."id"', (v) => [v.createdAt, v.id], { descending: true });

/** The same page of each spec's versions, newest first (one statement for a page of specs). */
export function specVersionsPages(db: Db, specIds: readonly string[], args: PageArgs): Promise<Page<OpenAPISpecVersion>[]> {
  return readPages(db, specIds, (spec) => ({ select: sql`SELECT v.* FROM "OpenAPISpecVersion" v`, conditions: [sql`v."specId" = ${spec}`] }), newestFirst, args);
}

export function countSpecVersions(db: Db, specIds: readonly string[]): Promise<number[]> {
  return countPerKey(db, specIds, (spec) => sql`"OpenAPISpecVersion" v WHERE v."specId" = ${spec}`);
}

/** Each spec's latest `openapi_process` job (read on its organization's index of jobs, newest first). */
export async function latestProcessingJobs(db: Db, specIds: readonly string[]): Promise<(JobRow | null)[]> {
  const rows = await db.$queryRaw<(JobRow & { _spec: string })[]>(sql`
    SELECT s."id" AS "_spec", j.* FROM "OpenAPISpec" s
    CROSS JOIN LATERAL (SELECT * FROM "Job" j WHERE j."organizationId" = s."organizationId" AND j."kind" = 'openapi_process' AND j."input"->>'specId' = s."id"
      ORDER BY j."createdAt" DESC, j."id" DESC LIMIT 1) j
    WHERE s."id" = ANY(${[...specIds]}::text[])`);
  const bySpec = new Map(rows.map(({ _spec, ...job }) => [_spec, job as JobRow]));
  return specIds.map((id) => bySpec.get(id) ?? null);
}
