/**
 * What a file store (disk, PostgreSQL, S3) must do, underneath the guarded `BlobStore` of
 * blob-store.ts: stage bytes while hashing them, then commit them under their SHA-256.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

export type FileStoreKind = 'disk' | 'postgres' | 's3';

/** Bytes written aside: `commit` makes them readable under `key`, `discard` drops them. */
export type StagedBlob = { key: string; size: number; commit(): Promise<void>; discard(): Promise<void> };

export interface BlobBackend {
  readonly kind: FileStoreKind;
  /** Streams the bytes aside (never all in memory), hashing them; throws past `maxBytes` (nothing kept). */
  stage(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, maxBytes?: number): Promise<StagedBlob>;
  /** The bytes of a key, streamed, or null when there are none. */
  open(key: string): Promise<Readable | null>;
  has(key: string): Promise<boolean>;
  /** Stored keys in ascending order after `after` ('' for the first), at most `limit`. */
  list(after: string, limit: number): Promise<string[]>;
  /** Deletes the bytes of a key (nothing when there are none). */
  delete(key: string): Promise<void>;
  /** Drops bytes staged more than `olderThanMs` ago and never committed (a writer that died), answers how many. */
  sweepStaged(olderThanMs: number): Promise<number>;
}

export const BLOB_KEY = /^[0-9a-f]{64}$/;

/** Thrown when a stream passes its size limit. */
export class BlobTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`File exceeds ${limit} bytes`);
  }
}

/** Counts and hashes the chunks of a stream as they pass, enforcing a size limit. */
export class HashingCounter {
  private readonly hash = createHash('sha256');
  size = 0;
  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {}

  add(chunk: Uint8Array): void {
    this.size += chunk.byteLength;
    if (this.size > this.maxBytes) throw new BlobTooLarge(this.maxBytes);
    this.hash.update(chunk);
  }

  key(): string {
    return this.hash.digest('hex');
  }
}

/**
 * The shape of every backend's `stage`: `write` streams the chunks aside as they are hashed and
 * counted; when it fails (or the limit is passed) `discard` drops what it wrote. `commit` is given
 * the key once every byte has passed.
 */
export async function stageThrough(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  maxBytes: number | undefined,
  write: (chunks: AsyncIterable<Uint8Array>) => Promise<void>,
  after: { commit(key: string): Promise<void>; discard(): Promise<void> },
): Promise<StagedBlob> {
  const counter = new HashingCounter(maxBytes);
  async function* counted() {
    for await (const chunk of source) {
      counter.add(chunk);
      yield chunk;
    }
  }
  try {
    await write(counted());
  } catch (error) {
    await after.discard().catch(() => undefined);
    throw error;
  }
  const key = counter.key();
  return { key, size: counter.size, commit: () => after.commit(key), discard: () => after.discard() };
}
