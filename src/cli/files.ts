/**
 * `quire files migrate --to <store>` copies every stored file from the configured store
 * (QUIRE_FILE_STORE) to another, resumable and verified (domain/versions/files/blob-copy.ts);
 * `quire files gc` deletes bytes nothing names any more, past their grace period
 * (QUIRE_FILE_GC_GRACE_HOURS; domain/versions/files/blob-gc.ts), and stored page bodies no revision
 * names (revisions/document-gc.ts). Progress goes to standard error;
 * each command prints one JSON object on the last line of standard output.
 */
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import type { FileStoreKind } from '../domain/versions/files/blob-backend.js';
import { copyBlobs } from '../domain/versions/files/blob-copy.js';
import { collectGarbage } from '../domain/versions/files/blob-gc.js';
import { collectDocuments } from '../domain/versions/revisions/document-gc.js';
import { blobBackend } from '../domain/versions/files/blob-store.js';
import { UsageError } from './usage-error.js';

const STORES: FileStoreKind[] = ['disk', 'postgres', 's3'];

export async function files(config: Config, sub: string | undefined, values: { to?: string }): Promise<void> {
  if (sub !== 'migrate' && sub !== 'gc') throw new UsageError(`Unknown files command: ${sub ?? '(none)'}; one of: migrate, gc`);
  let target: FileStoreKind | undefined;
  if (sub === 'migrate') {
    if (!values.to) throw new UsageError('--to is required');
    if (!STORES.includes(values.to as FileStoreKind)) throw new UsageError(`--to must be one of: ${STORES.join(', ')} (got "${values.to}")`);
    target = values.to as FileStoreKind;
    if (target === config.fileStore) throw new UsageError(`--to ${target} is the store in use (QUIRE_FILE_STORE): name another one`);
    if (target === 's3' && !config.s3.bucket) throw new UsageError('--to s3 needs QUIRE_S3_BUCKET (and QUIRE_S3_ENDPOINT for a store other than AWS)');
  }
  const database = await openDatabase(config);
  try {
    const current = blobBackend(config, database.db);
    if (target) {
      const result = await copyBlobs(current, blobBackend(config, database.db, target), {
        onPage: (p) => process.stderr.write(`${p.listed} files seen, ${p.copied} copied, ${p.skipped} already there\n`),
      });
      process.stdout.write(`${JSON.stringify({ from: config.fileStore, to: target, ...result })}\n`);
      if (result.corrupt.length > 0) process.exitCode = 1;
    } else {
      const result = await collectGarbage(database.db, current, { graceMs: config.fileGcGraceMs });
      const documents = await collectDocuments(database.db, { graceMs: config.fileGcGraceMs });
      process.stdout.write(`${JSON.stringify({ store: config.fileStore, ...result, documents })}\n`);
    }
  } finally {
    await database.close();
  }
}
