/**
 * Where file, image and font bytes live: stored once by content (SHA-256) in the store chosen by
 * QUIRE_FILE_STORE — the data directory (`disk`, one instance), the shared database (`postgres`)
 * or an S3-compatible bucket (`s3`) — so an upload repeated in any space or revision takes no
 * more room, and instances with separate disks serve each other's files with `postgres` or `s3`.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Db } from '../../../db/client.js';
import type { BlobBackend, FileStoreKind } from './blob-backend.js';
import type { S3Settings } from './s3-settings.js';
import { touchBlobs } from './blob-touch.js';
import { DiskBlobBackend } from './disk-blob-backend.js';
import { PostgresBlobBackend } from './postgres-blob-backend.js';
import { S3BlobBackend } from './s3-blob-backend.js';

export interface BlobStore {
  /** Stores the bytes (if not stored yet); answers their key. */
  put(bytes: Uint8Array): Promise<string>;
  /** Stores each of the bytes (if not stored yet), their keys recorded together; answers their keys, in order. */
  putAll(items: readonly Uint8Array[]): Promise<string[]>;
  /** Stores a stream's bytes without holding them all (if not stored yet); throws BlobTooLarge past `maxBytes`. */
  write(source: AsyncIterable<Uint8Array>, opts?: { maxBytes?: number }): Promise<{ key: string; size: number }>;
  /** The bytes of a key, or null when there are none. */
  open(key: string): Promise<Readable | null>;
}

/** Byte arrays stored at once by putAll. */
const PUT_CONCURRENCY = 4;

/** A backend with the writes' side of safe garbage collection (blob-touch.ts). */
export class GuardedBlobStore implements BlobStore {
  constructor(
    readonly backend: BlobBackend,
    private readonly db: Db,
  ) {}

  async put(bytes: Uint8Array): Promise<string> {
    return (await this.putAll([bytes]))[0]!;
  }

  async putAll(items: readonly Uint8Array[]): Promise<string[]> {
    const keys = items.map((bytes) => createHash('sha256').update(bytes).digest('hex'));
    await touchBlobs(this.db, keys);
    // Each key once, a few at a time (an object store answers each in a round trip).
    const firsts = [...new Map(keys.map((key, i) => [key, i] as const)).entries()].reverse();
    const storeNext = async (): Promise<void> => {
      for (let next = firsts.pop(); next; next = firsts.pop()) {
        const [key, i] = next;
        if (await this.backend.has(key)) continue;
        const staged = await this.backend.stage([items[i]!]);
        await staged.commit();
      }
    };
    await Promise.all(Array.from({ length: PUT_CONCURRENCY }, storeNext));
    return keys;
  }

  async write(source: AsyncIterable<Uint8Array>, opts: { maxBytes?: number } = {}): Promise<{ key: string; size: number }> {
    const staged = await this.backend.stage(source, opts.maxBytes);
    try {
      await touchBlobs(this.db, [staged.key]);
      if (await this.backend.has(staged.key)) await staged.discard();
      else await staged.commit();
    } catch (error) {
      await staged.discard().catch(() => undefined);
      throw error;
    }
    return { key: staged.key, size: staged.size };
  }

  open(key: string): Promise<Readable | null> {
    return this.backend.open(key);
  }
}

/** What chooses and configures a store (Config's fields of the same names). */
export type FileStoreSettings = { dataDir: string; fileStore?: FileStoreKind; s3?: S3Settings };

/** The backend a setting names (no cache: the CLI's copy makes one of each kind). */
export function blobBackend(settings: FileStoreSettings, db: Db, kind: FileStoreKind = settings.fileStore ?? 'disk'): BlobBackend {
  switch (kind) {
    case 'disk':
      return new DiskBlobBackend(path.join(settings.dataDir, 'files'));
    case 'postgres':
      return new PostgresBlobBackend(db);
    case 's3':
      return new S3BlobBackend(settings.s3 ?? { region: 'us-east-1', forcePathStyle: false });
  }
}

const stores = new WeakMap<Db, Map<string, GuardedBlobStore>>();

/** The store of a configuration and database (one per process and kind). */
export function blobStore(settings: FileStoreSettings, db: Db): GuardedBlobStore {
  const kind = settings.fileStore ?? 'disk';
  let byKey = stores.get(db);
  if (!byKey) stores.set(db, (byKey = new Map()));
  const id = `${kind}:${settings.dataDir}`;
  let store = byKey.get(id);
  if (!store) byKey.set(id, (store = new GuardedBlobStore(blobBackend(settings, db, kind), db)));
  return store;
}
