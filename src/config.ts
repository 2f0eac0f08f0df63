/** Environment, parsed once. Every variable is documented in the README. */
import path from 'node:path';
import { z } from 'zod';
import { isTrustSetting } from './http/client-address.js';
import { isDnsServerList } from './lib/dns/txt.js';
import type { WebhookSettings } from './domain/webhooks/settings.js';
import type { FileStoreKind } from './domain/versions/files/blob-backend.js';
import type { S3Settings } from './domain/versions/files/s3-settings.js';

/** The defaults of QUIRE_JOB_MAX_ATTEMPTS and QUIRE_JOB_TIME_BUDGET_SECONDS (jobs/attempts.ts). */
export const JOB_LIMIT_DEFAULTS = { maxAttempts: 3, timeBudgetSeconds: 900 } as const;

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** Built by each loadConfig and dropped: its ~60 zod schemas stay out of the heap (docs/performance.md, Memory). */
const schema = () => z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  QUIRE_DATA_DIR: z.string().default('.quire'),
  QUIRE_EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  QUIRE_PUBLIC_URL: z.string().url().optional(),
  QUIRE_APP_URL: z.string().url().optional(),
  QUIRE_RUN_WORKER: bool.default(true),
  QUIRE_DB_POOL_MAX: z.coerce.number().int().min(1).default(10),
  QUIRE_LOG_SQL: bool.default(false),
  QUIRE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  QUIRE_LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  QUIRE_SECRET: z.string().min(32).optional(),
  QUIRE_TOKEN_CACHE_SECONDS: z.coerce.number().min(0).default(10),
  QUIRE_PUBLISHED_CACHE_MB: z.coerce.number().min(0).default(32),
  QUIRE_DB_PREPARED_STATEMENTS: bool.default(true),
  QUIRE_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).default(10),
  QUIRE_CORS_ORIGINS: z.string().default('*'),
  QUIRE_RATE_LIMIT: z.coerce.number().int().min(0).default(1000),
  QUIRE_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  QUIRE_RATE_LIMIT_SYNC_MS: z.coerce.number().int().min(0).default(500),
  QUIRE_TRUST_PROXY: z.string().default('').refine(isTrustSetting, 'a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges'),
  QUIRE_WS_MAX_MESSAGE_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  QUIRE_WS_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  QUIRE_WS_MAX_SUBSCRIPTIONS: z.coerce.number().int().min(1).default(100),
  QUIRE_GRAPHQL_TIMEOUT_SECONDS: z.coerce.number().min(0).default(30),
  QUIRE_DB_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().min(0).default(30),
  QUIRE_GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(50_000),
  QUIRE_CONVERT_THREADS: z.coerce.number().int().min(1).default(2),
  QUIRE_CONVERT_TIMEOUT_SECONDS: z.coerce.number().min(1).default(20),
  QUIRE_CONVERT_MEMORY_MB: z.coerce.number().int().min(64).default(512),
  REDIS_URL: z.string().url().optional(),
  QUIRE_FETCH_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  QUIRE_DNS_SERVERS: z.string().default('').refine(isDnsServerList, 'a comma-separated list of DNS server addresses, each with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53)'),
  QUIRE_JOB_STALE_SECONDS: z.coerce.number().min(1).default(30),
  QUIRE_JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(JOB_LIMIT_DEFAULTS.maxAttempts),
  QUIRE_JOB_TIME_BUDGET_SECONDS: z.coerce.number().min(1).default(JOB_LIMIT_DEFAULTS.timeBudgetSeconds),
  QUIRE_IMPORT_WAIT_SECONDS: z.coerce.number().min(0).default(30),
  QUIRE_GIT_COMMITTER_NAME: z.string().min(1).max(200).default('quire'),
  QUIRE_GIT_COMMITTER_EMAIL: z.string().email().default('quire@localhost'),
  QUIRE_GIT_MAX_ENTRIES: z.coerce.number().int().min(1).default(50_000),
  QUIRE_GIT_MAX_BLOB_MB: z.coerce.number().min(1).default(20),
  QUIRE_GIT_MAX_TOTAL_MB: z.coerce.number().min(1).default(256),
  QUIRE_GIT_TIMEOUT_SECONDS: z.coerce.number().min(1).default(600),
  QUIRE_JOB_POLL_SECONDS: z.coerce.number().min(0.1).default(2),
  SMTP_URL: z.string().regex(/^smtps?:\/\//i, 'must start with smtp:// or smtps://').optional(),
  SMTP_FROM: z.string().min(3).optional(),
  QUIRE_INVITE_DAYS: z.coerce.number().min(1).max(365).default(14),
  QUIRE_ALLOW_ORGANIZATION_CREATION: bool.default(true),
  QUIRE_OUTBOX_RETENTION_DAYS: z.coerce.number().min(0).default(7),
  QUIRE_AUDIT_RETENTION_DAYS: z.coerce.number().min(0).default(365),
  QUIRE_SAML_PRIVATE_KEY: z.string().includes('PRIVATE KEY').optional(),
  QUIRE_SAML_CERTIFICATE: z.string().includes('CERTIFICATE').optional(),
  QUIRE_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).default(8),
  QUIRE_WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().positive().default(10),
  QUIRE_WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().default(5),
  QUIRE_WEBHOOK_RETRY_HOURS: z.coerce.number().positive().default(24),
  QUIRE_WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().positive().default(72),
  QUIRE_WEBHOOK_SECRET_GRACE_HOURS: z.coerce.number().min(0).default(24),
  QUIRE_WEBHOOK_LOG_RETENTION_DAYS: z.coerce.number().positive().default(30),
  QUIRE_FILE_STORE: z.enum(['disk', 'postgres', 's3']).default('disk'),
  QUIRE_S3_ENDPOINT: z.string().url().optional(),
  QUIRE_S3_BUCKET: z.string().min(3).max(63).optional(),
  QUIRE_S3_REGION: z.string().min(1).default('us-east-1'),
  QUIRE_S3_FORCE_PATH_STYLE: bool.default(false),
  QUIRE_FILE_GC_GRACE_HOURS: z.coerce.number().positive().default(24),
  QUIRE_FILE_GC_INTERVAL_HOURS: z.coerce.number().min(0).default(24),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  embeddedPgPort: number;
  publicUrl: string;
  appUrl: string;
  runWorker: boolean;
  dbPoolMax: number;
  logSql: boolean;
  /** pino level of the JSON logs on standard output. */
  logLevel: string;
  /** `pretty` (readable) or `json` (one object a line); unset: pretty on a terminal, JSON otherwise. */
  logFormat?: 'json' | 'pretty';
  /** Signing secret shared by every instance; when absent, one is generated and kept in the database. */
  secret?: string;
  /** How long an instance remembers a known API token (0: looks every token up). */
  tokenCacheMs: number;
  /** Bytes of published pages each instance keeps in memory (published/cache/); 0 keeps none. */
  publishedCacheBytes: number;
  /** Named (server-side prepared) statements; off behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21). */
  dbPreparedStatements: boolean;
  /** How long in-flight requests may take to finish when the server is asked to stop. */
  shutdownGraceMs: number;
  /** Origins browsers may call the API from (`*`: any; none when empty). */
  corsOrigins: string[];
  /** Requests per token (or client address) per window; 0 turns the limit off. */
  rateLimit: number;
  rateLimitWindowSeconds: number;
  /** How often an instance sends its rate-limit counts to the shared store (0: every request, exactly). */
  rateLimitSyncMs: number;
  /** The proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (http/client-address.ts); empty: none. */
  trustProxy: string;
  /** The largest WebSocket message accepted; a larger one closes the connection (1009). */
  wsMaxMessageBytes: number;
  /** WebSocket connections open at once from one client address. */
  wsMaxConnectionsPerAddress: number;
  /** Operations (subscriptions, and queries while they run) at once on one WebSocket connection. */
  wsMaxSubscriptions: number;
  /** Longest execution of one GraphQL operation (0: no limit). */
  graphqlTimeoutMs: number;
  /** Longest SQL statement (PostgreSQL statement_timeout; 0: the server's default). */
  dbStatementTimeoutMs: number;
  /** The largest cost (objects an answer may hold, see http/query-cost.ts) of one GraphQL operation. */
  graphqlMaxCost: number;
  /** The conversion pool (src/lib/threads/pool.ts): threads, time budget of one conversion, heap of one thread. */
  convertThreads: number;
  convertTimeoutMs: number;
  convertMemoryMb: number;
  /** Redis for events that cross instances (subscriptions); without it, events stay in this process. */
  redisUrl?: string;
  /** Whether imports may fetch from loopback, private and link-local addresses (off: refused, against SSRF). */
  fetchAllowPrivateNetworks: boolean;
  /** DNS servers that verify custom hostnames (`host[:port]`); empty: the system's resolvers. */
  dnsServers: string[];
  /** A running job whose worker has not said it is alive for this long is taken back and retried. */
  jobStaleMs: number;
  /** Runs of a job (each one stopped by a dead worker, its time budget or an internal error) before it fails for good. */
  jobMaxAttempts: number;
  /** Longest run of a job: past it the run is stopped, and counts as an attempt. */
  jobTimeBudgetMs: number;
  /** How long a REST import waits for its job before answering 202 with the job's location. */
  importWaitMs: number;
  /** Git sync: the identity that commits exports (the author is the person whose change it was), and the caps of one operation. */
  gitCommitter: { name: string; email: string };
  gitLimits: { maxEntries: number; maxBlobBytes: number; maxTotalBytes: number; totalTimeMs: number };
  /** How often a job subscription re-reads its job, besides being woken by its events (which may not reach this process). */
  jobPollMs: number;
  /** Where outgoing e-mail (invitations) is sent; without it, messages are logged and invite links handed to the admin. */
  smtpUrl?: string;
  /** The From of outgoing e-mail (`quire <no-reply@localhost>` when unset). */
  smtpFrom?: string;
  /** How long an e-mail invitation, and by default an invite link, stays valid. */
  inviteMs: number;
  /**
   * Whether signed-in users may create organizations (`POST /orgs`). On by default: only accounts
   * whose token reaches beyond one organization (made by the operator) can, never invitees or SSO
   * members (their tokens are confined), so it takes the operator's trust either way.
   */
  allowOrganizationCreation: boolean;
  /** How long dispatched outbox events are kept before the hourly sweep deletes them (the audit log keeps its own rows). */
  outboxRetentionMs: number;
  /** How long audit events are kept (QUIRE_AUDIT_RETENTION_DAYS, 365) before the hourly sweep deletes them. */
  auditRetentionMs: number;
  /** PEM key and certificate signing SAML AuthnRequests (both, or neither: then generated once and kept in the database). */
  samlPrivateKey?: string;
  samlCertificate?: string;
  /** Webhook delivery (domain/webhooks/settings.ts). */
  webhooks: WebhookSettings;
  /** Where file, image and font bytes live (domain/versions/files/blob-store.ts): the data directory, the database, or an S3 bucket. */
  fileStore: FileStoreKind;
  /** The S3-compatible store of `fileStore: 's3'`; credentials come from the usual AWS variables. */
  s3: S3Settings;
  /** How long stored bytes nobody references are kept before the garbage collection may delete them. */
  fileGcGraceMs: number;
  /** How often the job runner collects the file garbage (jobs/file-gc.ts); 0: never (run `quire files gc` instead). */
  fileGcIntervalMs: number;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema().safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${issues}`);
  }
  const e = parsed.data;
  if (!e.QUIRE_SAML_PRIVATE_KEY !== !e.QUIRE_SAML_CERTIFICATE) throw new Error('Invalid configuration: QUIRE_SAML_PRIVATE_KEY and QUIRE_SAML_CERTIFICATE are set together, or neither');
  if (e.QUIRE_FILE_STORE === 's3' && !e.QUIRE_S3_BUCKET) throw new Error('Invalid configuration: QUIRE_S3_BUCKET is required when QUIRE_FILE_STORE is s3');
  const publicUrl = (e.QUIRE_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.QUIRE_DATA_DIR),
    embeddedPgPort: e.QUIRE_EMBEDDED_PG_PORT,
    publicUrl,
    appUrl: (e.QUIRE_APP_URL ?? publicUrl).replace(/\/$/, ''),
    runWorker: e.QUIRE_RUN_WORKER,
    dbPoolMax: e.QUIRE_DB_POOL_MAX,
    logSql: e.QUIRE_LOG_SQL,
    logLevel: e.QUIRE_LOG_LEVEL,
    logFormat: e.QUIRE_LOG_FORMAT,
    secret: e.QUIRE_SECRET,
    tokenCacheMs: e.QUIRE_TOKEN_CACHE_SECONDS * 1000,
    publishedCacheBytes: Math.round(e.QUIRE_PUBLISHED_CACHE_MB * 1024 * 1024),
    dbPreparedStatements: e.QUIRE_DB_PREPARED_STATEMENTS,
    shutdownGraceMs: e.QUIRE_SHUTDOWN_GRACE_SECONDS * 1000,
    graphqlMaxCost: e.QUIRE_GRAPHQL_MAX_COST,
    convertThreads: e.QUIRE_CONVERT_THREADS,
    convertTimeoutMs: e.QUIRE_CONVERT_TIMEOUT_SECONDS * 1000,
    convertMemoryMb: e.QUIRE_CONVERT_MEMORY_MB,
    graphqlTimeoutMs: e.QUIRE_GRAPHQL_TIMEOUT_SECONDS * 1000,
    dbStatementTimeoutMs: e.QUIRE_DB_STATEMENT_TIMEOUT_SECONDS * 1000,
    corsOrigins: e.QUIRE_CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
    rateLimit: e.QUIRE_RATE_LIMIT,
    rateLimitWindowSeconds: e.QUIRE_RATE_LIMIT_WINDOW_SECONDS,
    rateLimitSyncMs: e.QUIRE_RATE_LIMIT_SYNC_MS,
    trustProxy: e.QUIRE_TRUST_PROXY,
    wsMaxMessageBytes: e.QUIRE_WS_MAX_MESSAGE_BYTES,
    wsMaxConnectionsPerAddress: e.QUIRE_WS_MAX_CONNECTIONS_PER_ADDRESS,
    wsMaxSubscriptions: e.QUIRE_WS_MAX_SUBSCRIPTIONS,
    redisUrl: e.REDIS_URL,
    fetchAllowPrivateNetworks: e.QUIRE_FETCH_ALLOW_PRIVATE_NETWORKS,
    dnsServers: e.QUIRE_DNS_SERVERS.split(',').map((s) => s.trim()).filter(Boolean),
    jobStaleMs: e.QUIRE_JOB_STALE_SECONDS * 1000,
    jobMaxAttempts: e.QUIRE_JOB_MAX_ATTEMPTS,
    jobTimeBudgetMs: e.QUIRE_JOB_TIME_BUDGET_SECONDS * 1000,
    importWaitMs: e.QUIRE_IMPORT_WAIT_SECONDS * 1000,
    gitCommitter: { name: e.QUIRE_GIT_COMMITTER_NAME, email: e.QUIRE_GIT_COMMITTER_EMAIL },
    gitLimits: {
      maxEntries: e.QUIRE_GIT_MAX_ENTRIES,
      maxBlobBytes: e.QUIRE_GIT_MAX_BLOB_MB * 1024 * 1024,
      maxTotalBytes: e.QUIRE_GIT_MAX_TOTAL_MB * 1024 * 1024,
      totalTimeMs: e.QUIRE_GIT_TIMEOUT_SECONDS * 1000,
    },
    jobPollMs: e.QUIRE_JOB_POLL_SECONDS * 1000,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    inviteMs: e.QUIRE_INVITE_DAYS * 24 * 3600 * 1000,
    allowOrganizationCreation: e.QUIRE_ALLOW_ORGANIZATION_CREATION,
    outboxRetentionMs: e.QUIRE_OUTBOX_RETENTION_DAYS * 24 * 3600 * 1000,
    auditRetentionMs: e.QUIRE_AUDIT_RETENTION_DAYS * 24 * 3600 * 1000,
    samlPrivateKey: e.QUIRE_SAML_PRIVATE_KEY,
    samlCertificate: e.QUIRE_SAML_CERTIFICATE,
    webhooks: {
      concurrency: e.QUIRE_WEBHOOK_CONCURRENCY,
      timeoutMs: e.QUIRE_WEBHOOK_TIMEOUT_SECONDS * 1000,
      retryBaseMs: e.QUIRE_WEBHOOK_RETRY_BASE_SECONDS * 1000,
      retryWindowMs: e.QUIRE_WEBHOOK_RETRY_HOURS * 3600 * 1000,
      disableAfterMs: e.QUIRE_WEBHOOK_DISABLE_AFTER_HOURS * 3600 * 1000,
      secretGraceMs: e.QUIRE_WEBHOOK_SECRET_GRACE_HOURS * 3600 * 1000,
      logRetentionMs: e.QUIRE_WEBHOOK_LOG_RETENTION_DAYS * 24 * 3600 * 1000,
    },
    fileStore: e.QUIRE_FILE_STORE,
    s3: { endpoint: e.QUIRE_S3_ENDPOINT, bucket: e.QUIRE_S3_BUCKET, region: e.QUIRE_S3_REGION, forcePathStyle: e.QUIRE_S3_FORCE_PATH_STYLE },
    fileGcGraceMs: e.QUIRE_FILE_GC_GRACE_HOURS * 3600 * 1000,
    fileGcIntervalMs: e.QUIRE_FILE_GC_INTERVAL_HOURS * 3600 * 1000,
  };
}

/**
 * How long a REST import (and `duplicateSpace`) really waits for its job: its setting
 * (QUIRE_IMPORT_WAIT_SECONDS), kept below the request time limit (QUIRE_GRAPHQL_TIMEOUT_SECONDS,
 * when not 0) by a margin — a quarter of the limit, at most 5 s — left for starting the job and
 * answering. So a slow import answers 202 with its job's Location instead of timing out (504),
 * whatever either is set to.
 */
export function effectiveImportWaitMs(config: Pick<Config, 'importWaitMs' | 'graphqlTimeoutMs'>): number {
  if (config.graphqlTimeoutMs <= 0) return config.importWaitMs;
  const margin = Math.min(5000, config.graphqlTimeoutMs / 4);
  return Math.max(0, Math.min(config.importWaitMs, config.graphqlTimeoutMs - margin));
}
