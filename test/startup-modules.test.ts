/**
 * What a server holds from its first second is paid for the whole of its life: `quire serve`
 * (compiled: `npm run build` first) starts without loading the packages that only rare operations
 * need — published-page rendering, font uploads, SSO, PDF export, mail, S3. Each is loaded by the
 * async function that fronts it (docs/performance.md, Memory). A job runner (`quire worker`, or
 * the one `quire serve` runs beside it by default) loads the import, git sync and OpenAPI
 * handlers when it starts: a handler loaded by its first job started after its run was claimed,
 * its time budget already counting (a run stopped meanwhile went on regardless).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from './helpers/database-url.js';

const RECORDER = path.resolve('test/fixtures/loaded-packages.mjs');

/**
 * Loaded at first use only (each weighs megabytes of heap, see docs/performance.md). KaTeX: by the
 * first formula a published page renders (the markdown parser takes math's syntax without it,
 * lib/markdown/remark-math.ts). graphile-worker: by a job runner, or by the queue schema's migration
 * when the installed version is not its last (db/queue-schema.ts).
 */
const LOADED_AT_FIRST_USE = [
  'highlight.js',
  'katex',
  'fontkit',
  '@node-saml/node-saml',
  'xml-crypto',
  'selfsigned',
  'mammoth',
  'parse5',
  'jszip',
  'yauzl',
  'csv-parse',
  '@asciidoctor/core',
  'orga',
  'isomorphic-git',
  '@readme/openapi-parser',
  'pdfkit',
  'nodemailer',
  '@aws-sdk/client-s3',
  'graphile-worker',
  'graphile-config',
  'cosmiconfig',
  'ioredis',
  'pino-pretty',
];

const directory = mkdtempSync(path.join(tmpdir(), 'quire-startup-modules-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;

/** Runs node with the recorder; a server is stopped (SIGTERM) once it answers at the URL it logs as listening. */
async function loadedPackages(args: string[], env: Record<string, string>): Promise<string[]> {
  const file = path.join(directory, `packages-${files++}.json`);
  const child = spawn(process.execPath, ['--import', RECORDER, ...args], { env: { ...process.env, ...env, QUIRE_LOADED_PACKAGES: file }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stopping = false;
  child.stdout.on('data', (chunk) => {
    output += chunk;
    const listening = /listening: GraphQL and GraphiQL at (http:\/\/\S+)\/graphql/.exec(output);
    if (listening && !stopping) {
      stopping = true;
      void fetch(`${listening[1]}/healthz`).finally(() => child.kill('SIGTERM'));
    }
  });
  child.stderr.on('data', (chunk) => (output += chunk));
  const exit = await new Promise<[number | null, string | null]>((resolve) => child.on('exit', (code, signal) => resolve([code, signal])));
  expect(exit, output).toEqual([0, null]);
  return JSON.parse(readFileSync(file, 'utf8')) as string[];
}

describe('packages loaded at start', () => {
  it('quire serve listens without the packages of rare operations', async () => {
    const loaded = await loadedPackages(
      ['dist/main.js', 'serve'],
      { DATABASE_URL: testDatabaseUrl(), PORT: '0', HOST: '127.0.0.1', QUIRE_RUN_WORKER: 'false', QUIRE_RATE_LIMIT: '0', NODE_ENV: 'production' },
    );
    // The recorder sees what loads: the server's own libraries are there.
    expect(loaded).toEqual(expect.arrayContaining(['graphql', 'graphql-yoga', '@prisma/client', 'pg']));
    expect(loaded.filter((name) => LOADED_AT_FIRST_USE.includes(name))).toEqual([]);
  }, 90_000);
});

