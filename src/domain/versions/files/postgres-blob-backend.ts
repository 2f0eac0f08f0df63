/**
 * File bytes in the database every instance already shares (QUIRE_FILE_STORE=postgres): a write
 * streams its bytes into FileBlobChunk rows of at most 1 MiB under a fresh upload ID (one
 * statement per chunk, so no file is ever whole in memory nor one transaction open for minutes),
 * then names them in one FileBlob row by SHA-256. When the same bytes were named meanwhile, the
 * first write's chunks stay and the later ones are dropped. Reads fetch one chunk at a time, as
 * the reader consumes them.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { poolOf, type Db } from '../../../db/client.js';
import { BLOB_KEY, stageThrough, type BlobBackend, type StagedBlob } from './blob-backend.js';

export const CHUNK_BYTES = 1024 * 1024;
/** Reads take a chunk in pieces of this size (readChunk). */
export const READ_PIECE_BYTES = 32 * 1024;

export class PostgresBlobBackend implements BlobBackend {
  readonly kind = 'postgres' as const;

  constructor(private readonly db: Db) {}

  /**
   * Chunks go through the pool's driver directly when there is one: a 1 MiB parameter through
   * Prisma's query layer is copied and encoded on the way, tripling the memory a write takes.
   */
  private async insertChunk(uploadId: string, index: number, data: Buffer): Promise<void> {
    const pool = poolOf(this.db);
    if (pool) await pool.query('INSERT INTO "FileBlobChunk" ("uploadId", "index", "data") VALUES ($1::uuid, $2, $3)', [uploadId, index, data]);
    else await this.db.$executeRaw`INSERT INTO "FileBlobChunk" ("uploadId", "index", "data") VALUES (${uploadId}::uuid, ${index}, ${data})`;
  }

  /**
   * A chunk's bytes, in pieces of READ_PIECE_BYTES, one statement: the driver hands `bytea` over
   * as hex text (two bytes of string per byte), and a string of a whole 1 MiB chunk is a large
   * object V8 frees only in a full collection, so a 50 MB download grew the heap by more than the
   * file. Pieces of 32 KiB are young, short-lived strings (and each piece's Buffer is yielded as it is).
   */
  private async readChunk(uploadId: string, index: number): Promise<Buffer[] | undefined> {
    const pool = poolOf(this.db);
    if (pool) {
      const { rows } = await pool.query<{ piece: Buffer }>(
        'SELECT substring(c."data" FROM g.at FOR $3) AS "piece" FROM "FileBlobChunk" c, generate_series(1, greatest(length(c."data"), 1), $3) AS g(at) WHERE c."uploadId" = $1::uuid AND c."index" = $2 ORDER BY g.at',
        [uploadId, index, READ_PIECE_BYTES],
      );
      return rows.length ? rows.map((r) => r.piece) : undefined;
    }
    const [row] = await this.db.$queryRaw<{ data: Uint8Array }[]>`SELECT "data" FROM "FileBlobChunk" WHERE "uploadId" = ${uploadId}::uuid AND "index" = ${index}`;
    return row && [Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength)];
  }

  private dropChunks(uploadId: string): Promise<number> {
    return this.db.$executeRaw`DELETE FROM "FileBlobChunk" WHERE "uploadId" = ${uploadId}::uuid`;
  }

  async stage(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, maxBytes?: number): Promise<StagedBlob> {
    const uploadId = randomUUID();
    let size = 0;
    return stageThrough(
      source,
      maxBytes,
      async (chunks) => {
        let pending: Buffer[] = [];
        let pendingBytes = 0;
        let index = 0;
        for await (const chunk of chunks) {
          size += chunk.byteLength;
          pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          pendingBytes += chunk.byteLength;
          while (pendingBytes >= CHUNK_BYTES) {
            const joined = Buffer.concat(pending, pendingBytes);
            await this.insertChunk(uploadId, index++, joined.subarray(0, CHUNK_BYTES));
            pending = pendingBytes > CHUNK_BYTES ? [joined.subarray(CHUNK_BYTES)] : [];
            pendingBytes -= CHUNK_BYTES;
          }
        }
        if (pendingBytes > 0) await this.insertChunk(uploadId, index++, Buffer.concat(pending, pendingBytes));
      },
      {
        commit: async (key) => {
          const named = await this.db.$executeRaw`INSERT INTO "FileBlob" ("sha256", "uploadId", "size") VALUES (${key}, ${uploadId}::uuid, ${size}) ON CONFLICT ("sha256") DO NOTHING`;
          if (named === 0) await this.dropChunks(uploadId);
        },
        discard: async () => void (await this.dropChunks(uploadId)),
      },
    );
  }

  async open(key: string): Promise<Readable | null> {
    if (!BLOB_KEY.test(key)) return null;
    const [blob] = await this.db.$queryRaw<{ uploadId: string; size: bigint }[]>`SELECT "uploadId"::text AS "uploadId", "size" FROM "FileBlob" WHERE "sha256" = ${key}`;
    if (!blob) return null;
    const chunks = Math.ceil(Number(blob.size) / CHUNK_BYTES);
    const read = (index: number) => this.readChunk(blob.uploadId, index);
    return Readable.from(
      (async function* () {
        for (let index = 0; index < chunks; index++) {
          const pieces = await read(index);
          if (!pieces) throw new Error(`File bytes ${key} are missing their chunk ${index}`);
          yield* pieces;
        }
      })(),
      { objectMode: false },
    );
  }

  async has(key: string): Promise<boolean> {
    if (!BLOB_KEY.test(key)) return false;
    const rows = await this.db.$queryRaw<unknown[]>`SELECT 1 FROM "FileBlob" WHERE "sha256" = ${key}`;
    return rows.length > 0;
  }

  async list(after: string, limit: number): Promise<string[]> {
    const rows = await this.db.$queryRaw<{ sha256: string }[]>`SELECT "sha256" FROM "FileBlob" WHERE "sha256" > ${after} ORDER BY "sha256" LIMIT ${limit}`;
    return rows.map((r) => r.sha256);
  }

  async delete(key: string): Promise<void> {
    // One statement: the name and its chunks go together.
    await this.db.$executeRaw`WITH gone AS (DELETE FROM "FileBlob" WHERE "sha256" = ${key} RETURNING "uploadId") DELETE FROM "FileBlobChunk" WHERE "uploadId" IN (SELECT "uploadId" FROM gone)`;
  }

  async sweepStaged(olderThanMs: number): Promise<number> {
    // Times compared in SQL, as the column's default wrote them (LOCALTIMESTAMP), whatever the clocks of the instances.
    return this.db.$executeRaw`DELETE FROM "FileBlobChunk" c WHERE c."createdAt" < LOCALTIMESTAMP - make_interval(secs => ${olderThanMs / 1000}) AND NOT EXISTS (SELECT 1 FROM "FileBlob" b WHERE b."uploadId" = c."uploadId")`;
  }
}
