/**
 * The one line a process logs as it starts: its version and the configuration an operator checks
 * first. Addresses only: credentials in DATABASE_URL, REDIS_URL or the S3 endpoint never appear.
 */
import { createRequire } from 'node:module';
import type { Config } from '../config.js';

/** From package.json, two directories up from both src/observability and dist/observability. */
export const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** `host:port/path` of a URL, without user, password or query (which may hold a password too). */
function address(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '(unparsable)';
  }
}

function withoutCredentials(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.toString().replace(/\/$/, '');
}

export function startupSummary(config: Config, role: 'server' | 'worker') {
  const fields = {
    version: VERSION,
    role,
    database: config.databaseUrl ? `external ${address(config.databaseUrl)}` : `embedded in ${config.dataDir}`,
    fileStore: config.fileStore === 's3' ? `s3 ${config.s3.bucket} at ${config.s3.endpoint ? address(config.s3.endpoint) : 'AWS'}` : config.fileStore,
    redis: config.redisUrl ? `on ${address(config.redisUrl)}` : 'off',
    worker: role === 'worker' || config.runWorker ? 'on' : 'off',
    publicUrl: withoutCredentials(config.publicUrl),
  };
  const message = `quire ${VERSION} ${role}: database ${fields.database}, file store ${fields.fileStore}, Redis ${fields.redis}, worker ${fields.worker}, public URL ${fields.publicUrl}`;
  return { fields, message };
}
