/**
 * Processing an OpenAPI specification: its source fetched (the safe fetcher, bounded) or its text
 * read, parsed and validated, remote `$ref`s never followed. The specification is `progress`
 * while it runs and `complete` after, with a new version only when the content changed; a failure
 * is recorded on it (`FETCH_TIMEOUT`, `FETCH_ERROR` or `PARSE_ERROR`, with the problems) and
 * keeps its last version. A job given up outside the handler (its runs stopped too often, or
 * internal errors) leaves the specification `complete` with `PARSE_ERROR` and the job's reason.
 * Each end is recorded as `openApiSpecProcessed` in the transaction that writes it.
 */
import { ImportError } from '../../lib/import-readers/import-error.js';
import { createSafeFetch } from '../../lib/fetch/safe-fetch.js';
import { DEFAULT_IMPORT_LIMITS } from '../../lib/import-readers/tree.js';
import { newId } from '../../domain/kernel/ids.js';
import { recordEvents } from '../../domain/kernel/outbox.js';
import { processSpec, SpecProcessingError } from '../../lib/openapi/processing.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';
import type { JobRow } from '../../domain/work/jobs/rows.js';
import type { JobHandler } from '../handler.js';

/** Problems kept on the specification (the count says how many there were). */
const MAX_ERRORS = 100;

/** The processing's end, for the outbox: by the job's creator (null: the server). */
function recordProcessed(tx: Prisma.TransactionClient, job: JobRow, specId: string, data: Prisma.InputJsonObject): Promise<string[]> {
  return recordEvents(tx, { kind: 'openApiSpecProcessed', organizationId: job.organizationId, subjectId: specId, actorId: job.createdById, data: { jobId: job.id, ...data } });
}

/** The specification of a job that failed for good while it said `progress` (jobs/given-up.ts). */
export async function openAPIProcessGivenUp(db: Db, job: JobRow): Promise<void> {
  const specId = String((job.input as { specId?: unknown }).specId);
  const message = job.errorMessage ?? 'The specification could not be processed';
  await db.$transaction(async (tx) => {
    const { count } = await tx.openAPISpec.updateMany({
      where: { id: specId, processingState: 'progress' },
      data: { processingState: 'complete', lastProcessedAt: new Date(), lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrors: [{ message }], lastProcessedErrorCount: 1 },
    });
    if (count) await recordProcessed(tx, job, specId, { outcome: 'failed', errorCode: 'PARSE_ERROR' });
  });
}

export const runOpenAPIProcess: JobHandler = async ({ job, services, signal, progress, complete }) => {
  const { db } = services;
  const specId = String((job.input as { specId?: unknown }).specId);
  const spec = await db.openAPISpec.findUnique({ where: { id: specId } });
  if (!spec) return; // deleted meanwhile: nothing to process
  await db.openAPISpec.update({ where: { id: specId }, data: { processingState: 'progress' } });
  const source = spec.sourceUrl ? { url: spec.sourceUrl } : { text: spec.sourceText ?? '' };
  const fetch = createSafeFetch({ limits: { ...DEFAULT_IMPORT_LIMITS, requestTimeoutMs: 30_000 }, signal, allowPrivateNetworks: services.config.fetchAllowPrivateNetworks });
  try {
    const processed = await processSpec(source, { fetch, signal, progress: (done, total, message) => progress(done, total, message) });
    const errors = processed.errors.map((e) => ({ message: e.message, ...(e.path ? { code: e.path } : {}) }));
    await db.$transaction(async (tx) => {
      const last = spec.lastVersionId ? await tx.openAPISpecVersion.findUnique({ where: { id: spec.lastVersionId } }) : null;
      let versionId = last?.id ?? null;
      if (last?.contentHash !== processed.contentHash) {
        versionId = newId('OpenAPISpecVersion');
        const { contentHash, text, format, title, version, openapi, operations } = processed;
        await tx.openAPISpecVersion.create({ data: { id: versionId, specId, sourceUrl: spec.sourceUrl, contentHash, text, format, title, version, openapi, operations } });
      }
      await tx.openAPISpec.update({
        where: { id: specId },
        data: { processingState: 'complete', lastVersionId: versionId, lastProcessedAt: new Date(), lastProcessErrorCode: null, lastProcessedErrors: errors.slice(0, MAX_ERRORS), lastProcessedErrorCount: errors.length },
      });
      const newVersion = versionId !== (last?.id ?? null);
      await complete(tx, { specId, version: versionId, newVersion });
      await recordProcessed(tx, job, specId, { outcome: 'succeeded', versionId, newVersion, errorCount: errors.length });
    });
  } catch (error) {
    if (!(error instanceof SpecProcessingError)) throw error;
    const errors = error.errors.map((e) => ({ message: e.message, ...(e.path ? { code: e.path } : {}) }));
    await db.$transaction(async (tx) => {
      await tx.openAPISpec.update({
        where: { id: specId },
        data: { processingState: 'complete', lastProcessedAt: new Date(), lastProcessErrorCode: error.code, lastProcessedErrors: errors.slice(0, MAX_ERRORS), lastProcessedErrorCount: errors.length },
      });
      await recordProcessed(tx, job, specId, { outcome: 'failed', errorCode: error.code, errorCount: errors.length });
    });
    // The job fails with the same reason (an import error code), and is not retried.
    throw new ImportError(error.code, error.message);
  }
};
