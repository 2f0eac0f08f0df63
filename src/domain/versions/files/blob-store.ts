/**
 * Where file bytes live: a small interface with a disk implementation, files stored once by
 * content (SHA-256), so an upload repeated in any space or revision takes no more room.
 * The default keeps them under the data directory; instances behind a load balancer need the
 * same directory mounted on each (README › Files).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface BlobStore {
  /** Stores the bytes (if not stored yet); answers their key. */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes of a key, or null when there are none. */
  open(key: string): Promise<Readable | null>;
}

const KEY = /^[0-9a-f]{64}$/;

export class DiskBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    return path.join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async put(bytes: Uint8Array): Promise<string> {
    const key = createHash('sha256').update(bytes).digest('hex');
    const file = this.pathOf(key);
    if (await stat(file).then(() => true, () => false)) return key;
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside, then renamed: a reader never sees half a file, and concurrent writers of the
    // same bytes end with the same content whichever rename lands last.
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, file);
    return key;
  }

  async open(key: string): Promise<Readable | null> {
    if (!KEY.test(key)) return null;
    const file = this.pathOf(key);
    if (!(await stat(file).then((s) => s.isFile(), () => false))) return null;
    return createReadStream(file);
  }
}

const stores = new Map<string, BlobStore>();

/** The store of a data directory (one per process). */
export function blobStore(dataDir: string): BlobStore {
  let store = stores.get(dataDir);
  if (!store) stores.set(dataDir, (store = new DiskBlobStore(path.join(dataDir, 'files'))));
  return store;
}
