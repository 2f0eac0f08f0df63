/**
 * HTTP uploads into the file store stream (http/multipart-spool.ts, change-requests/upload-files.ts):
 * a GraphQL multipart upload is read to disk as it arrives and streamed into the store (here
 * `postgres`), its temporary files deleted once answered; the same limits and answers as before
 * (400 naming a file past 20 MiB, 413 past the request's limit, 400 for a broken body), and a
 * refused file leaves neither bytes nor a FileBlobTouch row behind.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../src/app.js';
import { MAX_FILE_BYTES } from '../src/domain/versions/files/file-input.js';
import { MultipartTooLarge, spoolDirectory, spoolMultipart, sweepSpool } from '../src/http/multipart-spool.js';
import { sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const dataDir = await mkdtemp(path.join(tmpdir(), 'quire-uploads-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const server = useServer({ env: () => ({ QUIRE_FILE_STORE: 'postgres', QUIRE_DATA_DIR: dataDir }) });

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const QUERY = `mutation($s: ID!, $c: ID!, $files: [File!]!) { uploadChangeRequestFiles(spaceId: $s, id: $c, files: $files) { name contentType size dimensions { width height } } }`;

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Uploads' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Uploads' })).data;
  return { owner, space, cr };
}

async function upload(token: string, variables: Record<string, unknown>, files: { name: string; type: string; bytes: Buffer }[]) {
  const form = new FormData();
  form.set('operations', JSON.stringify({ query: QUERY, variables: { ...variables, files: files.map(() => null) } }));
  form.set('map', JSON.stringify(Object.fromEntries(files.map((_, i) => [String(i), [`variables.files.${i}`]]))));
  files.forEach((file, i) => form.set(String(i), new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name));
  const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

/** The temporary files of requests: none once their answers are sent (deleted as the answer closes, so looked for a few times). */
async function spooled(): Promise<string[]> {
  let left: string[] = [];
  for (let i = 0; i < 20; i++) {
    left = await readdir(spoolDirectory(dataDir)).catch(() => []);
    if (left.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return left;
}
const stored = async (key: string) => (await server.db.$queryRaw<{ size: bigint }[]>`SELECT "size" FROM "FileBlob" WHERE "sha256" = ${key}`)[0];
const touched = async (key: string) => (await server.db.$queryRaw<unknown[]>`SELECT 1 FROM "FileBlobTouch" WHERE "sha256" = ${key}`).length > 0;

describe('GraphQL uploads into the postgres store', () => {
  it('streams each file into the store, as sent, an image measured from its first bytes; no temporary file stays', async () => {
    const { owner, space, cr } = await setup();
    const big = randomBytes(5 * 1024 * 1024 + 3);
    const result = await upload(owner.token, { s: space.id, c: cr.id }, [
      { name: 'data.bin', type: 'application/octet-stream', bytes: big },
      { name: 'pixel.png', type: 'image/png', bytes: PNG },
    ]);
    expect(result.body.errors, JSON.stringify(result.body.errors)).toBeUndefined();
    expect(result.body.data.uploadChangeRequestFiles).toEqual([
      { name: 'data.bin', contentType: 'application/octet-stream', size: big.length, dimensions: null },
      { name: 'pixel.png', contentType: 'image/png', size: PNG.length, dimensions: { width: 1, height: 1 } },
    ]);
    expect(Number((await stored(sha256(big)))?.size)).toBe(big.length);
    const [{ data }] = await server.db.$queryRaw<{ data: { storageKey: string } }[]>`SELECT "data" FROM "ContentEntry" WHERE "kind" = 'file' AND "data"->>'storageKey' = ${sha256(big)} LIMIT 1`;
    expect(data.storageKey).toBe(sha256(big));
    expect(await spooled()).toEqual([]);
  });

  it('refuses a file past 20 MiB with a 400 naming it, and keeps neither its bytes nor a touch row', async () => {
    const { owner, space, cr } = await setup();
    const tooBig = randomBytes(MAX_FILE_BYTES + 1);
    const result = await upload(owner.token, { s: space.id, c: cr.id }, [{ name: 'big.bin', type: 'application/octet-stream', bytes: tooBig }]);
    expect(result.body.errors?.[0]).toMatchObject({ message: expect.stringContaining('"files.0"'), extensions: { code: 'BAD_REQUEST' } });
    expect(await stored(sha256(tooBig))).toBeUndefined();
    expect(await touched(sha256(tooBig))).toBe(false);
    expect(await spooled()).toEqual([]);
  });

  it('answers 413 to a body announced past the request limit, and 400 to a broken multipart body', async () => {
    const { owner } = await setup();
    const headers = { authorization: `Bearer ${owner.token}`, 'content-type': 'multipart/form-data; boundary=xyz' };
    const over = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { ...headers, 'content-length': String(MAX_UPLOAD_BYTES + 1) }, body: 'x' }).catch((error: Error) => error);
    // The server answers before reading, and closes the connection: a client may see the answer or the close.
    if (!(over instanceof Error)) expect(over.status).toBe(413);
    const broken = await fetch(`${server.url}/graphql`, { method: 'POST', headers, body: '--xyz\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query"' });
    expect(broken.status).toBe(400);
    expect(JSON.stringify(await broken.json())).toContain('multipart');
    const notObject = new FormData();
    notObject.set('operations', '5');
    const refused = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: notObject });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { errors: { message: string }[] }).errors[0]!.message).toContain('"operations"');
    const long = new FormData();
    long.set('operations', JSON.stringify({ query: `{ viewer { id } }${' '.repeat(1024 * 1024)}` }));
    const tooLong = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: long });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { errors: { message: string }[] }).errors[0]!.message).toContain('"operations" is longer than');
    expect(await spooled()).toEqual([]);
  });
});

describe('the spool', () => {
  it('stops a body without a length at the limit, and deletes what it wrote', async () => {
    const dir = path.join(dataDir, 'spool-test');
    let outcome: unknown;
    const http = createServer((req, res) => {
      spoolMultipart(req, { dir, limit: 1024 * 1024 }).then(
        (s) => (outcome = s),
        (error) => (outcome = error),
      ).finally(() => res.end());
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const boundary = 'b0undary';
      async function* body() {
        yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
        for (let i = 0; i < 40; i++) yield randomBytes(64 * 1024);
      }
      await fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}/`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: body() as unknown as BodyInit,
        duplex: 'half',
      } as RequestInit).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(outcome).toBeInstanceOf(MultipartTooLarge);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it('sweeps what a process stopped mid-request left, older than the given age, and nothing newer', async () => {
    const dir = path.join(dataDir, 'sweep-test');
    await mkdir(path.join(dir, 'request-old'), { recursive: true });
    await mkdir(path.join(dir, 'request-new'), { recursive: true });
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(path.join(dir, 'request-old'), twoHoursAgo, twoHoursAgo);
    expect(await sweepSpool(dir, 3600_000)).toBe(1);
    expect(await readdir(dir)).toEqual(['request-new']);
  });
});
