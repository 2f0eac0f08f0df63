/**
 * Garbage collection of file bytes, for each store: unreferenced bytes go once their grace period
 * has passed, never before; named bytes stay; a write of the same bytes racing the collection
 * ends with the bytes stored; chunks of writers that died are swept.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, type Db } from '../src/db/client.js';
import type { FileStoreKind } from '../src/domain/versions/files/blob-backend.js';
import { collectGarbage } from '../src/domain/versions/files/blob-gc.js';
import { blobStore } from '../src/domain/versions/files/blob-store.js';
import { createOrg } from './helpers/factories.js';
import { useS3rver } from './helpers/s3rver.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const HOUR = 3600_000;
const s3 = useS3rver();
let db: Db;
let dataDir: string;
beforeAll(async () => {
  db = createPrismaClient(testDatabaseUrl(), { poolMax: 6 });
  dataDir = await mkdtemp(path.join(tmpdir(), 'quire-file-gc-'));
});
afterAll(async () => {
  await db.$disconnect();
  await rm(dataDir, { recursive: true, force: true });
});

/** As if the key had last been stored `hours` ago. */
const age = (key: string, hours: number) => db.$executeRaw`UPDATE "FileBlobTouch" SET "touchedAt" = LOCALTIMESTAMP - make_interval(hours => ${hours}) WHERE "sha256" = ${key}`;

describe.each<FileStoreKind>(['disk', 'postgres', 's3'])('garbage collection in the %s store', (kind) => {
  const store = () => blobStore({ dataDir, fileStore: kind, s3: { endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', forcePathStyle: true } }, db);

  it('deletes unreferenced bytes only past the grace period, and never named ones', async () => {
    const fresh = await store().put(randomBytes(2000));
    const old = await store().put(randomBytes(2000));
    const named = await store().put(randomBytes(2000));
    await age(old, 2);
    await age(named, 2);
    const { org, owner } = await createOrg(db);
    await db.storageUpload.create({ data: { id: `upload_${randomUUID()}`, organizationId: org.id, kind: 'customization_font', name: 'a.woff2', contentType: 'font/woff2', size: 2000, blobKey: named, createdById: owner.id } });

    const result = await collectGarbage(db, store().backend, { graceMs: HOUR, pageSize: 2 });
    expect(result.deleted).toBeGreaterThanOrEqual(1);
    expect(await store().backend.has(old)).toBe(false);
    expect(await store().backend.has(fresh)).toBe(true);
    expect(await store().backend.has(named)).toBe(true);
    // Stored again afterwards: there again.
    const bytes = randomBytes(10);
    const again = await store().put(bytes);
    await age(again, 2);
    await collectGarbage(db, store().backend, { graceMs: HOUR });
    expect(await store().put(bytes)).toBe(again);
    expect(await store().backend.has(again)).toBe(true);
  });

  it('gives bytes it never saw touched a whole grace period', async () => {
    const key = await store().put(randomBytes(500));
    await db.$executeRaw`DELETE FROM "FileBlobTouch" WHERE "sha256" = ${key}`;
    await collectGarbage(db, store().backend, { graceMs: HOUR });
    expect(await store().backend.has(key)).toBe(true);
  });

  it('a write of the same bytes during a deletion waits for it, then stores them again', async () => {
    const bytes = randomBytes(3000);
    const key = await store().put(bytes);
    let writing: Promise<string> | undefined;
    // The collection's side, by hand: row locked, bytes deleted, then the row. The write starts
    // while the bytes are still there: had it looked before touching, it would keep nothing.
    await db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "FileBlobTouch" WHERE "sha256" = ${key} FOR UPDATE`;
      writing = store().put(bytes);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await store().backend.delete(key);
      await tx.$executeRaw`DELETE FROM "FileBlobTouch" WHERE "sha256" = ${key}`;
    });
    expect(await writing).toBe(key);
    expect(await store().backend.has(key)).toBe(true);
  });

  it('keeps bytes whose touch row a write holds locked at that moment', async () => {
    const key = await store().put(randomBytes(700));
    await age(key, 2);
    // (A write's upsert holds the row for an instant; here it is held while the collection runs.)
    await db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "FileBlobTouch" WHERE "sha256" = ${key} FOR UPDATE`;
      await collectGarbage(db, store().backend, { graceMs: HOUR });
    }, { timeout: 60_000 });
    expect(await store().backend.has(key)).toBe(true);
  });
});

describe('garbage collection in the postgres store', () => {
  it('sweeps chunks a writer left unnamed, once past the grace period', async () => {
    const store = blobStore({ dataDir, fileStore: 'postgres' }, db);
    const [oldUpload, newUpload] = [randomUUID(), randomUUID()];
    await db.$executeRaw`INSERT INTO "FileBlobChunk" ("uploadId", "index", "data", "createdAt") VALUES (${oldUpload}::uuid, 0, ${randomBytes(10)}, LOCALTIMESTAMP - interval '2 hours'), (${newUpload}::uuid, 0, ${randomBytes(10)}, LOCALTIMESTAMP)`;
    const { stagedSwept } = await collectGarbage(db, store.backend, { graceMs: HOUR });
    expect(stagedSwept).toBeGreaterThanOrEqual(1);
    const left = await db.$queryRaw<{ uploadId: string }[]>`SELECT "uploadId"::text AS "uploadId" FROM "FileBlobChunk" WHERE "uploadId" IN (${oldUpload}::uuid, ${newUpload}::uuid)`;
    expect(left.map((r) => r.uploadId)).toEqual([newUpload]);
  });
});
