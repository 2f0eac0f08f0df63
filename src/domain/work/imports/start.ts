/**
 * Starting an import into a change request (or into one of its pages): the request is checked
 * here — input, the caller's right to edit, the page — and the work is a job (kind `import`,
 * jobs/handlers/import.ts), so a long import survives the request that started it and can be
 * watched. The job's input holds the URL, the source and the page: nothing else is needed to run it.
 */
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { badRequest, conflict, notFound } from '../../../lib/errors.js';
import { enqueueJob } from '../jobs/enqueue.js';
import type { JobRow } from '../jobs/rows.js';
import { revisionScope } from '../../versions/revisions/load.js';
import { entityIn } from '../../versions/revisions/read.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { IMPORT_SOURCE_NAMES, type ImportSourceName } from '../../../lib/import-readers/sources/names.js';
import { transactionFrom } from '../../kernel/request-origin.js';

const SOURCE_NAMES: readonly ImportSourceName[] = IMPORT_SOURCE_NAMES;

const importSchema = lazySchema(() => z
  .object({
    url: z
      .string()
      .max(2048)
      .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'must be an http or https URL'),
    source: z.string().max(100),
  })
  .strict());

export type ImportInput = { url: string; source: ImportSourceName; pageId?: string };

/** The validated body of an import (`{url, source}`): a 400 naming the field otherwise. */
export function parseImportInput(raw: unknown): { url: string; source: ImportSourceName } {
  const { url, source } = parseInput(importSchema, raw);
  // A wiki's URL is kept on the job: it may not carry credentials (public wikis only).
  if (source === 'github-wiki' && /^[a-z]+:\/\/[^/?#]*@/i.test(url)) throw badRequest('Invalid value for "url": a wiki\'s URL may not hold credentials; only public wikis are imported', 'url');
  if (!(SOURCE_NAMES as string[]).includes(source)) throw badRequest(`Invalid value for "source": one of ${SOURCE_NAMES.join(', ')}`, 'source');
  return { url, source: source as ImportSourceName };
}

/** Queues the import; answers its job. Needs `edit` on the space (a locked space refuses it). */
/** A document page of the revision to import into (404, or 400 for a page of another type). */
export async function requireImportPage(db: Db, revisionId: string, pageId: string, field = 'pageId'): Promise<void> {
  const page = await entityIn(db, await revisionScope(db, revisionId), 'page', pageId);
  if (!page) throw notFound('Page');
  if (page.type !== 'document') throw badRequest(`Invalid value for "${field}": only document pages have content to import into`, field);
}

/** `extra`: what an import run (runs.ts) records with it (its site, that it is a run). */
export async function startImport(
  db: Db,
  access: Access,
  spaceId: string,
  changeRequestIdOrNumber: string,
  raw: unknown,
  pageId?: string,
  extra: { siteId?: string; run?: boolean } = {},
): Promise<JobRow> {
  const input = parseImportInput(raw);
  const { space, changeRequest } = await access.requireChangeRequest(spaceId, changeRequestIdOrNumber, 'edit');
  if (changeRequest.status === 'merged') throw conflict('The change request is merged: it cannot change any more');
  if (pageId !== undefined) await requireImportPage(db, changeRequest.revisionId, pageId);
  return transactionFrom(db, access.from, (tx) =>
    enqueueJob(tx, {
      kind: 'import',
      organizationId: space.organizationId,
      spaceId: space.id,
      changeRequestId: changeRequest.id,
      input: { ...input, ...(pageId ? { pageId } : {}), ...extra },
      createdById: access.userId,
      message: 'Waiting to import',
    }),
  );
}
