/**
 * The file stores underneath BlobStore (disk, postgres, and s3 against s3rver): streaming writes in chunks, content
 * addressing (stored once), the size limit (nothing kept past it), streaming reads, listing in
 * key order.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPrismaClient, poolOf, type Db } from '../src/db/client.js';
import { BlobTooLarge, type FileStoreKind } from '../src/domain/versions/files/blob-backend.js';
import { blobStore, type GuardedBlobStore } from '../src/domain/versions/files/blob-store.js';
import { CHUNK_BYTES, READ_PIECE_BYTES } from '../src/domain/versions/files/postgres-blob-backend.js';
import { useS3rver } from './helpers/s3rver.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const s3 = useS3rver();
let db: Db;
let dataDir: string;
beforeAll(async () => {
  db = createPrismaClient(testDatabaseUrl(), { poolMax: 4 });
  dataDir = await mkdtemp(path.join(tmpdir(), 'quire-file-store-'));
});
afterAll(async () => {
  await db.$disconnect();
  await rm(dataDir, { recursive: true, force: true });
});

/** `size` bytes of a repeated random pattern of 32 bytes (each chunk row then starts with it). */
function patterned(size: number): { pattern: Buffer; bytes: Buffer } {
  const pattern = randomBytes(32);
  const bytes = Buffer.alloc(size);
  for (let at = 0; at < size; at += 32) pattern.copy(bytes, at);
  return { pattern, bytes };
}

/** The bytes in pieces of 64 KiB, as a request body arrives. */
async function* pieces(bytes: Buffer, piece = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, at + piece);
}

async function readAll(store: GuardedBlobStore, key: string): Promise<Buffer | null> {
  const stream = await store.open(key);
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each<FileStoreKind>(['disk', 'postgres', 's3'])('the %s file store', (kind) => {
  const store = () => blobStore({ dataDir, fileStore: kind, s3: { endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', forcePathStyle: true } }, db);

  it('streams a write in, answers its SHA-256, and streams the same bytes out', async () => {
    const { bytes } = patterned(3 * CHUNK_BYTES + 12_345);
    const written = await store().write(pieces(bytes));
    expect(written).toEqual({ key: sha256(bytes), size: bytes.length });
    expect((await readAll(store(), written.key))?.equals(bytes)).toBe(true);
    expect(await store().put(bytes)).toBe(written.key);
  });

  it('stores empty and small files, and answers null for unknown or malformed keys', async () => {
    const empty = await store().put(new Uint8Array());
    expect((await readAll(store(), empty))?.length).toBe(0);
    const small = randomBytes(1000);
    expect((await readAll(store(), await store().put(small)))?.equals(small)).toBe(true);
    expect(await store().open('0'.repeat(64))).toBeNull();
    expect(await store().open('../../etc/passwd')).toBeNull();
  });

  it('refuses a stream past its limit and keeps nothing of it', async () => {
    const { pattern, bytes } = patterned(2 * CHUNK_BYTES + 10);
    await expect(store().write(pieces(bytes), { maxBytes: 2 * CHUNK_BYTES })).rejects.toBeInstanceOf(BlobTooLarge);
    expect(await store().backend.has(sha256(bytes))).toBe(false);
    if (kind === 'postgres') {
      const [{ n }] = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "FileBlobChunk" WHERE substring("data" from 1 for 32) = ${pattern}`;
      expect(n).toBe(0);
    } else {
      expect(await store().backend.sweepStaged(0)).toBe(0);
    }
  });

  it('stores many files with their keys recorded in one statement, each stored once, keys in order', async () => {
    const statements: string[] = [];
    const counted = createPrismaClient(testDatabaseUrl(), { poolMax: 2, onQuery: (sql) => statements.push(sql) });
    try {
      const many = blobStore({ dataDir, fileStore: kind, s3: { endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', forcePathStyle: true } }, counted);
      const files = Array.from({ length: 12 }, () => randomBytes(2000));
      const keys = await many.putAll([...files, files[0]!]);
      expect(keys).toEqual([...files.map(sha256), sha256(files[0]!)]);
      expect(statements.filter((sql) => sql.includes('"FileBlobTouch"'))).toHaveLength(1);
      const touched = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "FileBlobTouch" WHERE "sha256" = ANY(${keys}::text[])`;
      expect(touched[0]!.n).toBe(12);
      for (const [i, key] of keys.entries()) expect(await readAll(store(), key)).toEqual(i < 12 ? files[i] : files[0]);
    } finally {
      await counted.$disconnect();
    }
  });

  it('lists keys in order, a page after another', async () => {
    const keys = await Promise.all([1, 2, 3].map(() => store().put(randomBytes(100))));
    const seen: string[] = [];
    let after = '';
    for (;;) {
      const page = await store().backend.list(after, 2);
      if (page.length === 0) break;
      expect(page).toEqual([...page].sort());
      expect(page[0] > after).toBe(true);
      seen.push(...page);
      after = page[page.length - 1];
    }
    expect(seen).toEqual(expect.arrayContaining(keys));
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('the postgres file store', () => {
  const store = () => blobStore({ dataDir, fileStore: 'postgres' }, db);

  it('keeps the bytes once, in chunks of at most 1 MiB, however many writers store them at once', async () => {
    const { bytes } = patterned(2 * CHUNK_BYTES + 7);
    const keys = await Promise.all([1, 2, 3, 4].map(() => store().write(pieces(bytes))));
    expect(new Set(keys.map((k) => k.key))).toEqual(new Set([sha256(bytes)]));
    const chunks = await db.$queryRaw<{ index: number; size: number }[]>`
      SELECT c."index", length(c."data") AS size FROM "FileBlob" b JOIN "FileBlobChunk" c ON c."uploadId" = b."uploadId"
      WHERE b."sha256" = ${sha256(bytes)} ORDER BY c."index"`;
    expect(chunks).toEqual([{ index: 0, size: CHUNK_BYTES }, { index: 1, size: CHUNK_BYTES }, { index: 2, size: 7 }]);
    const [{ orphans }] = await db.$queryRaw<{ orphans: number }[]>`SELECT count(*)::int AS orphans FROM "FileBlobChunk" c WHERE substring(c."data" from 1 for 32) = ${bytes.subarray(0, 32)} AND NOT EXISTS (SELECT 1 FROM "FileBlob" b WHERE b."uploadId" = c."uploadId")`;
    expect(orphans).toBe(0);
  });

  it('reads a chunk at a time, in small binary pieces: a reader that stops early fetched only what it read', async () => {
    const { bytes } = patterned(4 * CHUNK_BYTES);
    const key = await store().put(bytes);
    const reader = createPrismaClient(testDatabaseUrl(), { poolMax: 1 });
    const pool = poolOf(reader)!;
    const query = vi.spyOn(pool, 'query');
    try {
      const stream = await blobStore({ dataDir, fileStore: 'postgres' }, reader).open(key);
      for await (const part of stream!) {
        // Pieces, not a whole chunk: a chunk's hex text would be a large object the heap keeps until a full collection.
        expect((part as Buffer).length).toBe(READ_PIECE_BYTES);
        break;
      }
      const chunkReads = query.mock.calls.filter(([sql]) => String(sql).includes('FROM "FileBlobChunk"'));
      expect(chunkReads.length).toBeGreaterThanOrEqual(1);
      expect(chunkReads.length).toBeLessThanOrEqual(2);
    } finally {
      query.mockRestore();
      await reader.$disconnect();
    }
  });
});

describe('the s3 file store', () => {
  it('streams a file larger than a part through a multipart upload', async () => {
    const store = blobStore({ dataDir, fileStore: 's3', s3: { endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', forcePathStyle: true } }, db);
    const { bytes } = patterned(12 * 1024 * 1024 + 3);
    const written = await store.write(pieces(bytes, 256 * 1024));
    expect(written).toEqual({ key: sha256(bytes), size: bytes.length });
    expect((await readAll(store, written.key))?.equals(bytes)).toBe(true);
    expect(await store.backend.sweepStaged(0)).toBe(0);
  });
});
