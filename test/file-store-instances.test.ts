/**
 * Two instances on one database, each with its own data directory (as on two machines): with
 * QUIRE_FILE_STORE=postgres or s3 a file stored through one is served by the other, and no bytes land
 * on either disk; with `disk` (the default) they do not cross, which is why the setting exists.
 */
import { mkdtempSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { http } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer, type TestServer } from './helpers/server.js';
import { collectGarbage } from '../src/domain/versions/files/blob-gc.js';
import { blobStore } from '../src/domain/versions/files/blob-store.js';
import { useS3rver } from './helpers/s3rver.js';

function instances(fileStore: string, extra: () => Record<string, string> = () => ({})): [TestServer, TestServer] {
  const dirs = [1, 2].map((n) => mkdtempSync(path.join(tmpdir(), `quire-instance-${n}-`)));
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
  return [
    useServer({ env: () => ({ QUIRE_FILE_STORE: fileStore, QUIRE_DATA_DIR: dirs[0], ...extra() }) }),
    useServer({ env: () => ({ QUIRE_FILE_STORE: fileStore, QUIRE_DATA_DIR: dirs[1], ...extra() }) }),
  ];
}

/** Stores a file through `one`, then asks `other` for it: the status and bytes `other` serves. */
async function storeAndFetchElsewhere(one: TestServer, other: TestServer) {
  const { org, owner } = await createOrg(one.db);
  const space = await http(one.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { title: 'Shared files' });
  const cr = await http(one.url, owner.token, 'POST', `/spaces/${space.body.id}/change-requests`, { subject: 'Files' });
  const bytes = randomBytes(300_000);
  const added = await http(one.url, owner.token, 'POST', `/spaces/${space.body.id}/change-requests/${cr.body.id}/content?compat=false`, {
    changes: [{ operation: 'insert_files', files: [{ name: 'data.bin', contentType: 'application/octet-stream', base64: bytes.toString('base64') }] }],
  });
  expect(added.status).toBe(200);
  const [file] = added.body.insertedFiles;
  const listed = await http(other.url, owner.token, 'GET', `/spaces/${space.body.id}/change-requests/${cr.body.id}/content/files/${file.id}`);
  expect(listed.status).toBe(200);
  const download = await fetch(`${other.url}${new URL(listed.body.downloadURL).pathname}`);
  return { bytes, status: download.status, body: Buffer.from(await download.arrayBuffer()) };
}

async function filesUnder(dir: string): Promise<number> {
  let n = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) if (entry.isFile()) n++;
  return n;
}

describe('two instances with QUIRE_FILE_STORE=postgres', () => {
  const [a, b] = instances('postgres');

  it('serve each other’s files, and keep no bytes on their disks', async () => {
    const there = await storeAndFetchElsewhere(a, b);
    expect(there.status).toBe(200);
    expect(there.body.equals(there.bytes)).toBe(true);
    const back = await storeAndFetchElsewhere(b, a);
    expect(back.status).toBe(200);
    expect(back.body.equals(back.bytes)).toBe(true);
    expect(await filesUnder(path.join(a.config.dataDir, 'files'))).toBe(0);
    expect(await filesUnder(path.join(b.config.dataDir, 'files'))).toBe(0);
  });

  it('keep bytes a file entry names through a garbage collection, however old', async () => {
    const stored = await storeAndFetchElsewhere(a, b);
    const key = createHash('sha256').update(stored.bytes).digest('hex');
    await a.db.$executeRaw`UPDATE "FileBlobTouch" SET "touchedAt" = LOCALTIMESTAMP - interval '2 days' WHERE "sha256" = ${key}`;
    const store = blobStore(a.config, a.db);
    await collectGarbage(a.db, store.backend, { graceMs: 3600_000 });
    expect(await store.backend.has(key)).toBe(true);
  });
});

describe('two instances with QUIRE_FILE_STORE=s3 (s3rver)', () => {
  const s3 = useS3rver();
  const [a, b] = instances('s3', () => s3.env);

  it('serve each other’s files, and keep no bytes on their disks', async () => {
    const there = await storeAndFetchElsewhere(a, b);
    expect(there.status).toBe(200);
    expect(there.body.equals(there.bytes)).toBe(true);
    const back = await storeAndFetchElsewhere(b, a);
    expect(back.body.equals(back.bytes)).toBe(true);
    expect(await filesUnder(path.join(a.config.dataDir, 'files'))).toBe(0);
    expect(await filesUnder(path.join(b.config.dataDir, 'files'))).toBe(0);
  });
});

describe('two instances with QUIRE_FILE_STORE=disk and separate data directories', () => {
  const [a, b] = instances('disk');

  it('do not (the bytes are on the first one’s disk only)', async () => {
    const there = await storeAndFetchElsewhere(a, b);
    expect(there.status).toBe(404);
    expect(await filesUnder(path.join(a.config.dataDir, 'files'))).toBe(1);
  });
});
