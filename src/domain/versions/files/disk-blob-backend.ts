/**
 * File bytes under a directory (QUIRE_FILE_STORE=disk, the default): `<root>/ab/cd/<sha256>`,
 * written to `<root>/.staging` first and renamed into place, so a reader never sees half a file
 * and concurrent writers of the same bytes end with the same content whichever rename lands last.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BLOB_KEY, stageThrough, type BlobBackend, type StagedBlob } from './blob-backend.js';

const PREFIX = /^[0-9a-f]{2}$/;

export class DiskBlobBackend implements BlobBackend {
  readonly kind = 'disk' as const;
  private readonly staging: string;

  constructor(private readonly root: string) {
    this.staging = path.join(root, '.staging');
  }

  private pathOf(key: string): string {
    return path.join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async stage(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, maxBytes?: number): Promise<StagedBlob> {
    await mkdir(this.staging, { recursive: true });
    const temporary = path.join(this.staging, `${randomBytes(12).toString('hex')}.tmp`);
    return stageThrough(source, maxBytes, (chunks) => pipeline(chunks, createWriteStream(temporary)), {
      commit: async (key) => {
        const file = this.pathOf(key);
        await mkdir(path.dirname(file), { recursive: true });
        await rename(temporary, file);
      },
      discard: () => unlink(temporary).catch(() => undefined),
    });
  }

  async open(key: string): Promise<Readable | null> {
    if (!BLOB_KEY.test(key)) return null;
    if (!(await this.has(key))) return null;
    return createReadStream(this.pathOf(key));
  }

  async has(key: string): Promise<boolean> {
    if (!BLOB_KEY.test(key)) return false;
    return stat(this.pathOf(key)).then((s) => s.isFile(), () => false);
  }

  /** Walks the two levels of prefixes in order, reading only the directories at or after `after`. */
  async list(after: string, limit: number): Promise<string[]> {
    const keys: string[] = [];
    for (const a of await sortedDir(this.root, PREFIX)) {
      if (a < after.slice(0, 2)) continue;
      for (const b of await sortedDir(path.join(this.root, a), PREFIX)) {
        if (a + b < after.slice(0, 4)) continue;
        for (const key of await sortedDir(path.join(this.root, a, b), BLOB_KEY)) {
          if (key <= after) continue;
          keys.push(key);
          if (keys.length >= limit) return keys;
        }
      }
    }
    return keys;
  }

  async delete(key: string): Promise<void> {
    if (!BLOB_KEY.test(key)) return;
    await unlink(this.pathOf(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  async sweepStaged(olderThanMs: number): Promise<number> {
    const before = Date.now() - olderThanMs;
    let swept = 0;
    for (const name of await sortedDir(this.staging, /\.tmp$/)) {
      const file = path.join(this.staging, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtimeMs < before && (await unlink(file).then(() => true, () => false))) swept++;
    }
    return swept;
  }
}

async function sortedDir(dir: string, pattern: RegExp): Promise<string[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  return names.filter((n) => pattern.test(n)).sort();
}
