/**
 * An S3-compatible server for the s3 file store's tests: s3rver (npm), the most faithful S3
 * implementation that installs here (Debian has no MinIO, Ceph RGW or Garage package, and no
 * container engine runs): real HTTP, SigV4 requests (their access key id checked, not their
 * signatures: a wrong secret goes unnoticed here), multipart uploads, CopyObject,
 * ListObjectsV2, objects on disk. One per test file, on a random port of 127.0.0.1, in a child
 * process with OpenSSL's legacy provider: s3rver encrypts ListObjectsV2 continuation tokens with
 * DES, which Node's OpenSSL 3 refuses otherwise (every truncated listing then fails with a 500).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

export type S3Server = { endpoint: string; bucket: string; env: Record<string, string> };

const LAUNCH = `
const S3rver = require('s3rver');
const [directory, bucket] = process.argv.slice(1);
new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] })
  .run().then(({ port }) => console.log(JSON.stringify({ port })));
process.on('SIGTERM', () => process.exit(0));
`;

/** Starts s3rver in a child process over a fresh directory; `stop` ends it and removes the directory. */
export async function startS3rver(bucket = 'quire-files'): Promise<S3Server & { stop(): Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'quire-s3rver-'));
  // s3rver's credentials; the SDK reads them from the environment as it would AWS's.
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const child: ChildProcess = spawn(process.execPath, ['--openssl-legacy-provider', '-e', LAUNCH, directory, bucket], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening`)));
  });
  const { port } = JSON.parse(first) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: { QUIRE_FILE_STORE: 's3', QUIRE_S3_ENDPOINT: endpoint, QUIRE_S3_BUCKET: bucket, QUIRE_S3_FORCE_PATH_STYLE: 'true' },
    stop: async () => {
      child.kill('SIGTERM');
      await rm(directory, { recursive: true, force: true });
    },
  };
}

