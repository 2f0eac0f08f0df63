/**
 * The import job: reads the source (fetching through the safe fetcher, bounded in time and bytes),
 * stores its files, then writes every page in one transaction — converted and stored a batch at
 * a time (write-tree.ts), the job's progress rising with each — the change request's new
 * revision and the job's success commit together, so a worker killed at any point before leaves
 * no half-written revision and no stored body (the job is run again, see sweeper.ts).
 */
import path from 'node:path';
import { forbidden, notFound } from '../../lib/errors.js';
import { forgetPrismaDebugHistory } from '../../db/debug-history.js';
import { DEFAULT_GIT_LIMITS } from '../../lib/git/limits.js';
import { editContent } from '../../domain/versions/change-requests/write-content.js';
import { blobStore } from '../../domain/versions/files/blob-store.js';
import { acceptFile } from '../../domain/versions/files/file-input.js';
import { storeFiles } from '../../domain/versions/files/store-files.js';
import { createSafeFetch } from '../../lib/fetch/safe-fetch.js';
import { ImportError } from '../../lib/import-readers/import-error.js';
import { IMPORT_SOURCES, SOURCE_LIMITS, TREE_SOURCES } from '../../lib/import-readers/sources/index.js';
import type { ImportInput } from '../../domain/work/imports/start.js';
import { DEFAULT_IMPORT_LIMITS, type ImportedFile, type ImportedPage, type ImportLimits } from '../../lib/import-readers/tree.js';
import { writeImportTree, type ImportedFileStored } from '../../domain/work/imports/write-tree.js';
import type { JobContext, JobHandler } from '../handler.js';

/** Files the source gave that the store accepts (name, size); the others are left out, not fatal. */
async function storeImportedFiles(context: JobContext, files: ImportedFile[]): Promise<ImportedFileStored[]> {
  const accepted = files.flatMap((file) => {
    try {
      return [{ source: file.source, file: acceptFile({ name: file.name, contentType: file.contentType, bytes: file.bytes }, 'file') }];
    } catch {
      return [];
    }
  });
  const stored = await storeFiles(blobStore(context.services.config, context.services.db), accepted.map((a) => a.file));
  return stored.map((file, i) => ({ source: accepted[i].source, file }));
}

/** The import's own signal: the job's, or its time running out (a timeout, not a cancellation). */
function importSignal(jobSignal: AbortSignal, limits: ImportLimits): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ImportError('FETCH_TIMEOUT', `The import took longer than ${limits.totalTimeMs / 1000} s`)), limits.totalTimeMs);
  const follow = () => controller.abort(jobSignal.reason);
  // A run stopped before the import began (its budget, a cancellation) must not start it: an
  // 'abort' listener added after the fact is never called.
  if (jobSignal.aborted) follow();
  else jobSignal.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      jobSignal.removeEventListener('abort', follow);
    },
  };
}

/** Pages of a tree, nested ones included. */
const countPages = (pages: ImportedPage[]): number => pages.reduce((n, page) => n + 1 + countPages(page.children), 0);

export const runImport: JobHandler = async (context) => {
  const { job, services, access } = context;
  if (!access || !job.spaceId || !job.changeRequestId) throw forbidden();
  const input = job.input as ImportInput;
  const limits: ImportLimits = { ...DEFAULT_IMPORT_LIMITS, ...SOURCE_LIMITS[input.source] };
  const { signal, done } = importSignal(context.signal, limits);
  try {
    context.progress(0, null, 'Reading the source');
    const fetch = createSafeFetch({ limits, signal, allowPrivateNetworks: services.config.fetchAllowPrivateNetworks });
    const tree = await IMPORT_SOURCES[input.source](input.url, {
      fetch,
      // A wiki is cloned where git sync clones: removed when the import ends (a crashed process's is swept by the next git sync).
      git: {
        tempRoot: path.join(services.config.dataDir, 'tmp', 'git'),
        allowPrivateNetworks: services.config.fetchAllowPrivateNetworks,
        limits: { ...DEFAULT_GIT_LIMITS, ...services.config.gitLimits },
      },
      limits,
      signal,
      progress: (read, total, message) => context.progress(read, total ?? null, message ?? 'Reading the source'),
    });
    signal.throwIfAborted();
    const total = countPages(tree.pages) + tree.files.length;
    context.progress(0, total, 'Writing the pages');
    const files = await storeImportedFiles(context, tree.files);
    let written = tree.files.length;
    context.progress(written, total, 'Writing the pages');
    await editContent(
      services.db,
      access,
      job.spaceId,
      job.changeRequestId,
      async (tx, ws) => {
        const page = input.pageId ? await ws.page(input.pageId) : undefined;
        if (input.pageId && !page) throw notFound('Page');
        const target = { page: page ?? undefined, tree: TREE_SOURCES.includes(input.source) || countPages(tree.pages) > 1 };
        return writeImportTree(tx, ws, tree, files, target, signal, (pages) => context.progress((written += pages), total, 'Writing the pages'));
      },
      (tx, revision, written) => {
        // The job ends with its progress saying what was imported, as its result does.
        const imported = written.pages + written.files;
        return context.complete(tx, { revision, importedResources: imported, totalResources: tree.totalResources, ...(tree.warnings?.length ? { warnings: tree.warnings.slice(0, 100) } : {}) }, { done: imported, total: imported });
      },
      // The pages are converted and stored within the transaction, so that a failure leaves nothing: it lasts as long as the import may.
      { timeoutMs: limits.totalTimeMs },
    );
  } finally {
    done();
    // The revision's statement (a row per page) would otherwise stay alive after the import.
    forgetPrismaDebugHistory();
  }
};
