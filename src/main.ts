#!/usr/bin/env node
/**
 * The quire CLI: `serve`, `worker`, `migrate`, `schema`, `admin` and `files`, each with `--help`; `quire`
 * alone prints the usage (it never starts a server unasked), `quire --version` the version.
 * Flags are parsed strictly: an unknown one is a usage error, never ignored; `--help` prints the
 * command's usage and does nothing else.
 */
import { requestOrigin } from './domain/kernel/request-origin.js';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig } from './config.js';
import { AppError } from './lib/errors.js';
import { UsageError } from './cli/usage-error.js';
import { VERSION } from './observability/startup-summary.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Command = { usage: string; options?: Options; run(sub: string | undefined, rest: string[], values: Record<string, string | boolean | undefined>): Promise<void> };

const SETTINGS = 'Settings come from the environment (PORT, HOST, DATABASE_URL, …): see the README, Configuration.';

const COMMANDS: Record<string, Command> = {
  serve: {
    usage: `quire serve
  Start the HTTP server: GraphQL and GraphiQL at /graphql (WebSocket and SSE included), REST at
  /v1, /healthz and /readyz. Without DATABASE_URL it starts an embedded PostgreSQL under
  QUIRE_DATA_DIR. Applies pending migrations first. SIGTERM or SIGINT stops it gracefully.
  ${SETTINGS}`,
    run: async () => {
      // Libraries read it once, as they load (graphql's type checks skip their development-only
      // cross-realm diagnostics): set before the server's modules are imported.
      process.env.NODE_ENV ??= 'production';
      return (await import('./cli/serve.js')).serve(loadConfig());
    },
  },
  worker: {
    usage: `quire worker
  Run background jobs only (no HTTP), beside servers started with QUIRE_RUN_WORKER=false.
  ${SETTINGS}`,
    run: async () => (await import('./cli/worker.js')).worker(loadConfig()),
  },
  migrate: {
    usage: `quire migrate                 apply pending database migrations
quire migrate create <name>   write a migration for changes to prisma/schema.prisma
quire migrate check           fail if prisma/schema.prisma and the migrations disagree`,
    run: async (sub, rest) => (await import('./cli/migrate.js')).migrate(loadConfig(), sub, rest),
  },
  schema: {
    usage: `quire schema print   write schema.graphql from the code
quire schema check   fail if schema.graphql is stale`,
    run: async (sub) => (await import('./cli/schema.js')).schemaCommand(sub),
  },
  admin: {
    usage: `quire admin create-org --title T --owner-email E [--owner-name N]
quire admin create-user --email E [--name N] [--org ID --role ROLE]
quire admin create-token --email E [--name N] [--expires-in-days D]
quire admin list-tokens --email E
quire admin revoke-token --email E --id TOKEN_ID
  Each prints one JSON object on the last line of standard output.`,
    options: {
      title: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-name': { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      org: { type: 'string' },
      role: { type: 'string' },
      id: { type: 'string' },
      'expires-in-days': { type: 'string' },
    },
    run: async (sub, _rest, values) => (await import('./cli/admin.js')).admin(loadConfig(), sub, values as Record<string, string | undefined>),
  },
  files: {
    usage: `quire files migrate --to disk|postgres|s3
quire files gc
  migrate copies every stored file from QUIRE_FILE_STORE's store to another (resumable: what the
  target has is skipped; each file's SHA-256 checked); then switch QUIRE_FILE_STORE and run it
  again for what arrived meanwhile. gc deletes bytes nothing names, stored longer ago than
  QUIRE_FILE_GC_GRACE_HOURS. Each prints one JSON object on the last line of standard output.`,
    options: { to: { type: 'string' } },
    run: async (sub, _rest, values) => (await import('./cli/files.js')).files(loadConfig(), sub, values as { to?: string }),
  },
};

const USAGE = `Usage: quire <command> [--help]

${Object.values(COMMANDS)
  .map((c) => c.usage.split('\n').filter((line) => line.startsWith('quire')).join('\n'))
  .join('\n')}

quire <command> --help shows a command's usage; quire --version prints the version (${VERSION}).`;

async function main(argv: string[]): Promise<void> {
  if (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version') return console.log(VERSION);
  if (argv[0] === 'help' && argv[1] !== undefined) return main([argv[1], '--help']);
  if (argv[0] === undefined || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') return console.log(USAGE);
  const [name, ...args] = argv;
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`Unknown command: ${name}`);
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...command.options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    // node's message goes on about positionals after `--`: its first sentence names the mistake.
    const [mistake] = (error as Error).message.split('. ');
    throw new UsageError(`${mistake}\n\nUsage: ${command.usage}`, { cause: 'command' });
  }
  if (parsed.values.help) {
    console.log(`Usage: ${command.usage}`);
    return;
  }
  const [sub, ...rest] = parsed.positionals;
  // What an operator's command writes (admin, members…) is the CLI's in the audit log; a server
  // and a worker set their own origins (each request; jobs none).
  if (name !== 'serve' && name !== 'worker') requestOrigin.setForProcess({ source: 'script', clientAddress: null, userAgent: null });
  try {
    await command.run(sub, rest, parsed.values);
  } catch (error) {
    if (error instanceof UsageError && error.cause !== 'command') throw new UsageError(`${error.message}\n\nUsage: ${command.usage}`, { cause: 'command' });
    throw error;
  }
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof UsageError) {
    console.error(error.cause === 'command' ? error.message : `${error.message}\n\n${USAGE}`);
  } else if (error instanceof AppError) {
    console.error(JSON.stringify({ error: { code: error.status, message: error.message } }));
  } else {
    console.error(error instanceof Error ? error.message : error);
    if (process.env.QUIRE_DEBUG) console.error(error);
  }
  process.exit(1);
});
