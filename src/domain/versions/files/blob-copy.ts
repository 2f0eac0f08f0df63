/**
 * `quire files migrate --to <store>`: copies every stored blob from one store to another, in key
 * order, a page at a time. Resumable: what the target already has is skipped, so a stopped copy
 * runs again from where it was, and a second run after switching QUIRE_FILE_STORE copies what the
 * old store received meanwhile. Verified: the target hashes the bytes as it stores them, and a
 * blob whose bytes do not hash to its key is not stored (counted as `corrupt`).
 */
import type { BlobBackend } from './blob-backend.js';

export type CopyProgress = { listed: number; copied: number; skipped: number; corrupt: string[]; bytes: number };

export async function copyBlobs(from: BlobBackend, to: BlobBackend, opts: { pageSize?: number; onPage?: (progress: CopyProgress) => void } = {}): Promise<CopyProgress> {
  const progress: CopyProgress = { listed: 0, copied: 0, skipped: 0, corrupt: [], bytes: 0 };
  let after = '';
  for (;;) {
    const keys = await from.list(after, opts.pageSize ?? 200);
    if (keys.length === 0) break;
    after = keys[keys.length - 1];
    for (const key of keys) {
      progress.listed++;
      if (await to.has(key)) {
        progress.skipped++;
        continue;
      }
      const source = await from.open(key);
      if (!source) continue; // deleted since it was listed (garbage collection)
      const staged = await to.stage(source);
      if (staged.key !== key) {
        await staged.discard();
        progress.corrupt.push(key);
        continue;
      }
      await staged.commit();
      progress.copied++;
      progress.bytes += staged.size;
    }
    opts.onPage?.(progress);
  }
  return progress;
}
