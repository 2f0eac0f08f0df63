/**
 * File bytes in an S3-compatible bucket (QUIRE_FILE_STORE=s3: AWS S3, MinIO, Ceph, R2…), as
 * objects `blobs/<sha256>`. A write streams into `staging-<random>` by a multipart upload
 * (lib-storage: parts of 5 MiB, two in flight, so memory stays bounded whatever the size) while
 * hashing, then copies the object to its key and deletes the staged one. Credentials come from
 * the usual AWS variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE…). The AWS SDK
 * (some 6 MB of heap) is loaded by the first backend made, so a process storing elsewhere never
 * loads it.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { BLOB_KEY, stageThrough, type BlobBackend, type StagedBlob } from './blob-backend.js';
import type { S3Settings } from './s3-settings.js';

const BLOBS = 'blobs/';
/**
 * Staged objects sit beside the blobs, not in a folder of their own: stores that keep objects as
 * files (s3rver, filesystem gateways) remove a folder once its last object is deleted, racing a
 * concurrent upload into it. `staging/` is still swept (objects staged by earlier versions).
 */
const STAGING = 'staging-';
const STAGING_PREFIXES = [STAGING, 'staging/'];
const PART_BYTES = 5 * 1024 * 1024;

type Sdk = typeof import('@aws-sdk/client-s3') & Pick<typeof import('@aws-sdk/lib-storage'), 'Upload'>;
let sdk: Promise<Sdk> | undefined;
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(([s3, storage]) => ({ ...s3, Upload: storage.Upload })));

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

export class S3BlobBackend implements BlobBackend {
  readonly kind = 's3' as const;
  private readonly aws: Promise<{ sdk: Sdk; client: S3Client }>;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    if (!settings.bucket) throw new Error('QUIRE_S3_BUCKET is required when QUIRE_FILE_STORE is s3');
    this.bucket = settings.bucket;
    this.aws = loadSdk().then((sdk) => ({
      sdk,
      client: new sdk.S3Client({ region: settings.region, forcePathStyle: settings.forcePathStyle, ...(settings.endpoint ? { endpoint: settings.endpoint } : {}) }),
    }));
    this.aws.catch(() => undefined); // reported by the first operation that awaits it
  }

  private async remove(object: string): Promise<unknown> {
    const { sdk, client } = await this.aws;
    return client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: object }));
  }

  async stage(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, maxBytes?: number): Promise<StagedBlob> {
    const staged = `${STAGING}${randomUUID()}`;
    const { sdk, client } = await this.aws;
    const upload = (chunks: AsyncIterable<Uint8Array>) =>
      new sdk.Upload({ client, params: { Bucket: this.bucket, Key: staged, Body: Readable.from(chunks) }, partSize: PART_BYTES, queueSize: 2, leavePartsOnError: false }).done();
    return stageThrough(source, maxBytes, async (chunks) => void (await upload(chunks)), {
      commit: async (key) => {
        await client.send(new sdk.CopyObjectCommand({ Bucket: this.bucket, Key: `${BLOBS}${key}`, CopySource: `${this.bucket}/${staged}` }));
        await this.remove(staged);
      },
      discard: async () => void (await this.remove(staged)),
    });
  }

  async open(key: string): Promise<Readable | null> {
    if (!BLOB_KEY.test(key)) return null;
    const { sdk, client } = await this.aws;
    try {
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: `${BLOBS}${key}` }));
      return object.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async has(key: string): Promise<boolean> {
    if (!BLOB_KEY.test(key)) return false;
    const { sdk, client } = await this.aws;
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: `${BLOBS}${key}` }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async list(after: string, limit: number): Promise<string[]> {
    const { sdk, client } = await this.aws;
    const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: BLOBS, StartAfter: `${BLOBS}${after}`, MaxKeys: limit }));
    return (page.Contents ?? []).map((o) => o.Key!.slice(BLOBS.length)).filter((k) => BLOB_KEY.test(k));
  }

  async delete(key: string): Promise<void> {
    if (BLOB_KEY.test(key)) await this.remove(`${BLOBS}${key}`);
  }

  async sweepStaged(olderThanMs: number): Promise<number> {
    const { sdk, client } = await this.aws;
    const before = Date.now() - olderThanMs;
    let swept = 0;
    for (const prefix of STAGING_PREFIXES) {
      let token: string | undefined;
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          if (object.Key && object.LastModified && object.LastModified.getTime() < before) {
            await this.remove(object.Key);
            swept++;
          }
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    }
    return swept;
  }
}
