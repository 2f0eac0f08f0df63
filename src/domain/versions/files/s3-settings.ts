/** The S3-compatible bucket of QUIRE_FILE_STORE=s3 (credentials: the usual AWS variables). */
export type S3Settings = {
  /** Any S3-compatible endpoint (MinIO, Ceph, R2…); AWS's own when absent. */
  endpoint?: string;
  bucket?: string;
  region: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key` (most self-hosted stores need it). */
  forcePathStyle: boolean;
};
