/**
 * Benchmark of the file stores (QUIRE_FILE_STORE): uploads (streamed writes) and downloads
 * (streamed reads) of 1 KB, 1 MB and 50 MB files in each store, with their throughput and the
 * growth of the process's resident memory over its level before the run (peak, sampled every
 * 5 ms). Every file is new (distinct bytes), so each upload really stores.
 *
 *   DATABASE_URL=postgresql://… npx tsx scripts/bench-file-stores.ts [--stores disk,postgres,s3] [--runs 3]
 *
 * Then, per store, a 50 MB file uploaded over HTTP as a GraphQL upload is (a multipart body sent
 * from this process as it is made, read by the server's own spool, http/multipart-spool.ts, and
 * streamed from it into the store, as uploadChangeRequestFiles does): its time and memory.
 *
 * Without DATABASE_URL it uses the embedded PostgreSQL under ./.quire/bench. The s3 store is the
 * bucket of QUIRE_S3_ENDPOINT/QUIRE_S3_BUCKET when set, otherwise a local s3rver (a test double:
 * its figures say little about a real object store).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createPrismaClient } from '../src/db/client.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import type { FileStoreKind } from '../src/domain/versions/files/blob-backend.js';
import { blobStore } from '../src/domain/versions/files/blob-store.js';
import { startS3rver } from '../test/helpers/s3rver-process.js';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spoolMultipart } from '../src/http/multipart-spool.js';
import type { GuardedBlobStore } from '../src/domain/versions/files/blob-store.js';

const { values } = parseArgs({ options: { stores: { type: 'string', default: 'disk,postgres,s3' }, runs: { type: 'string', default: '3' } } });
const stores = values.stores.split(',') as FileStoreKind[];
const runs = Number(values.runs);
const SIZES = [
  { label: '1 KB', bytes: 1024, runs: runs * 20 },
  { label: '1 MB', bytes: 1024 * 1024, runs: runs * 3 },
  { label: '50 MB', bytes: 50 * 1024 * 1024, runs },
];
const PIECE = 64 * 1024;

/** `size` new bytes in pieces of 64 KiB, as a request body arrives, made as they are read (never all in memory). */
async function* newFile(size: number): AsyncGenerator<Uint8Array> {
  const block = randomBytes(PIECE);
  for (let at = 0, n = 0; at < size; at += PIECE, n++) {
    const piece = Buffer.from(block.subarray(0, Math.min(PIECE, size - at)));
    piece.writeUInt32BE(n, 0); // every piece differs, so the file's hash is its own
    yield piece;
  }
}

/** Runs `work`, answering its time and the peak growth of resident memory during it. */
async function measure(work: () => Promise<void>): Promise<{ ms: number; rssMb: number }> {
  global.gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { ms, rssMb: (peak - base) / 1024 / 1024 };
}

/**
 * Sends `size` new bytes as the one file of a multipart body to a server of this process that
 * spools it and streams it into `store`; answers the stored key.
 */
async function uploadOverHttp(store: GuardedBlobStore, dir: string, size: number): Promise<string> {
  let key = '';
  const server = createServer((req, res) => {
    spoolMultipart(req, { dir, limit: size + 1024 * 1024 })
      .then(async (spooled) => {
        try {
          const file = spooled.form.get('0') as File;
          key = (await store.write(file.stream() as unknown as AsyncIterable<Uint8Array>, { maxBytes: size })).key;
        } finally {
          await spooled.dispose();
        }
        res.end('ok');
      })
      .catch((error: Error) => res.writeHead(500).end(error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const boundary = 'bench-boundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const answer = await new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: (server.address() as AddressInfo).port, method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length } },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c)).on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(text))));
        },
      );
      req.on('error', reject);
      void (async () => {
        req.write(head);
        for await (const piece of newFile(size)) if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
        req.end(tail);
      })();
    });
    if (answer !== 'ok') throw new Error(answer);
    return key;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

async function main() {
  let url = process.env.DATABASE_URL;
  let stopDb = async () => {};
  if (!url) {
    const embedded = await startEmbeddedPostgres({ dataDir: path.resolve('.quire/bench') });
    url = embedded.url;
    stopDb = embedded.stop;
  }
  await applyMigrations(url);
  const db = createPrismaClient(url, { poolMax: 4 });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'quire-bench-files-'));
  const s3rver = stores.includes('s3') && !process.env.QUIRE_S3_BUCKET ? await startS3rver('quire-bench') : undefined;
  const s3 = {
    endpoint: s3rver?.endpoint ?? process.env.QUIRE_S3_ENDPOINT,
    bucket: s3rver?.bucket ?? process.env.QUIRE_S3_BUCKET,
    region: process.env.QUIRE_S3_REGION ?? 'us-east-1',
    forcePathStyle: s3rver ? true : /^(1|true|yes)$/.test(process.env.QUIRE_S3_FORCE_PATH_STYLE ?? ''),
  };
  console.log(`quire file store benchmark: medians of runs (1 KB ×${SIZES[0].runs}, 1 MB ×${SIZES[1].runs}, 50 MB ×${SIZES[2].runs}); RSS = peak growth of resident memory`);
  console.log('store     size    upload ms  upload MB/s  upload RSS MB  download ms  download MB/s  download RSS MB');
  try {
    for (const kind of stores) {
      const store = blobStore({ dataDir, fileStore: kind, s3 }, db);
      for (const size of SIZES) {
        const up: { ms: number; rssMb: number }[] = [];
        const down: { ms: number; rssMb: number }[] = [];
        for (let run = 0; run < size.runs; run++) {
          let key = '';
          up.push(await measure(async () => void ({ key } = await store.write(newFile(size.bytes)))));
          down.push(
            await measure(async () => {
              let read = 0;
              for await (const part of (await store.open(key))!) read += (part as Buffer).length;
              if (read !== size.bytes) throw new Error(`read ${read} bytes of ${size.bytes}`);
            }),
          );
          await store.backend.delete(key); // the benchmark leaves no 50 MB files behind
        }
        const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
        const mbs = (ms: number) => size.bytes / 1024 / 1024 / (ms / 1000);
        const [upMs, downMs] = [median(up.map((r) => r.ms)), median(down.map((r) => r.ms))];
        const peakRss = (rs: { rssMb: number }[]) => Math.max(...rs.map((r) => r.rssMb));
        console.log(
          `${kind.padEnd(9)} ${size.label.padEnd(6)} ${upMs.toFixed(1).padStart(10)} ${mbs(upMs).toFixed(2).padStart(12)} ${peakRss(up).toFixed(1).padStart(14)} ${downMs.toFixed(1).padStart(12)} ${mbs(downMs).toFixed(2).padStart(14)} ${peakRss(down).toFixed(1).padStart(16)}`,
        );
      }
    }
    const HTTP_BYTES = 50 * 1024 * 1024;
    console.log('\nstore     50 MB over HTTP (multipart, spooled)   ms   MB/s   RSS MB');
    for (const kind of stores) {
      const store = blobStore({ dataDir, fileStore: kind, s3 }, db);
      let key = '';
      const run = await measure(async () => void (key = await uploadOverHttp(store, path.join(dataDir, 'spool'), HTTP_BYTES)));
      await store.backend.delete(key);
      console.log(`${kind.padEnd(9)} ${''.padEnd(36)} ${run.ms.toFixed(0).padStart(6)} ${(HTTP_BYTES / 1024 / 1024 / (run.ms / 1000)).toFixed(1).padStart(6)} ${run.rssMb.toFixed(1).padStart(8)}`);
    }
  } finally {
    await s3rver?.stop();
    await db.$disconnect();
    await rm(dataDir, { recursive: true, force: true });
    await stopDb();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
