/**
 * The quire CLI: `serve` (default), `worker`, `migrate`, `migrate create <name>`,
 * `migrate check`, `schema print|check`, and `admin create-org|create-user|create-token`.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { AppError } from './domain/errors.js';
import { UsageError } from './cli/usage-error.js';

const USAGE = `Usage: quire <command>
  serve                                   start the HTTP server (default)
  worker                                  run background jobs only
  migrate                                 apply pending database migrations
  migrate create <name>                   write a migration for changes to prisma/schema.prisma
  migrate check                           fail if prisma/schema.prisma and the migrations disagree
  schema print | check                    print schema.graphql / fail if it is stale
  admin create-org --title T --owner-email E [--owner-name N]
  admin create-user --email E [--name N] [--org ID --role ROLE]
  admin create-token --email E`;

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', sub, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve':
      // Libraries read it once, as they load (graphql's type checks skip their development-only
      // cross-realm diagnostics): set before the server's modules are imported.
      process.env.NODE_ENV ??= 'production';
      return (await import('./cli/serve.js')).serve(config);
    case 'worker':
      return (await import('./cli/worker.js')).worker(config);
    case 'migrate':
      return (await import('./cli/migrate.js')).migrate(config, sub, rest);
    case 'schema':
      return (await import('./cli/schema.js')).schemaCommand(sub);
    case 'admin': {
      const { values } = parseArgs({
        args: rest,
        options: {
          title: { type: 'string' },
          'owner-email': { type: 'string' },
          'owner-name': { type: 'string' },
          email: { type: 'string' },
          name: { type: 'string' },
          org: { type: 'string' },
          role: { type: 'string' },
        },
      });
      return (await import('./cli/admin.js')).admin(config, sub, values);
    }
    case 'help':
    case '--help':
      console.log(USAGE);
      return;
    default:
      throw new UsageError(`Unknown command: ${command}`);
  }
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
  } else if (error instanceof AppError) {
    console.error(JSON.stringify({ error: { code: error.status, message: error.message } }));
  } else {
    console.error(error instanceof Error ? error.message : error);
    if (process.env.QUIRE_DEBUG) console.error(error);
  }
  process.exit(1);
});
