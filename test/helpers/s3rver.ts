/** One s3rver per test file (helpers/s3rver-process.ts), started before its tests and stopped after. */
import { afterAll, beforeAll } from 'vitest';
import { startS3rver, type S3Server } from './s3rver-process.js';

export type { S3Server };

export function useS3rver(bucket = 'quire-files'): S3Server {
  const server = { endpoint: '', bucket, env: {} } as S3Server;
  let stop = async () => {};
  beforeAll(async () => {
    const started = await startS3rver(bucket);
    Object.assign(server, { endpoint: started.endpoint, env: started.env });
    stop = started.stop;
  });
  afterAll(() => stop());
  return server;
}
