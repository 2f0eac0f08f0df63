import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { resolveDatabaseUrl } from '../db/database.js';
import { migrateQueue } from '../db/queue-schema.js';
import { applyMigrations, diffMigrationsToSchema, MIGRATIONS_DIR } from '../db/schema-engine.js';
import { UsageError } from './usage-error.js';

function timestamp(date = new Date()): string {
  return date.toISOString().replace(/\D/g, '').slice(0, 14);
}

export async function migrate(config: Config, sub: string | undefined, rest: string[]): Promise<void> {
  const server = await resolveDatabaseUrl(config);
  try {
    if (!sub) {
      const applied = await applyMigrations(server.url);
      await migrateQueue(server.url);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
    } else if (sub === 'create') {
      const name = (rest[0] ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
      if (!name) throw new UsageError('migrate create needs a name');
      const sql = await diffMigrationsToSchema(server.url);
      if (!sql) return console.log('schema.prisma and the migrations agree: nothing to create');
      const dir = path.join(MIGRATIONS_DIR, `${timestamp()}_${name}`);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'migration.sql'), `${sql}\n`);
      console.log(`Created ${path.relative(process.cwd(), dir)}/migration.sql`);
    } else if (sub === 'check') {
      const sql = await diffMigrationsToSchema(server.url);
      if (sql) {
        // Thrown: main() reports it and exits 1.
        throw new Error(`prisma/schema.prisma and prisma/migrations disagree; run \`npm run quire -- migrate create <name>\`. Missing SQL:\n${sql}`);
      } else console.log('schema.prisma and the migrations agree');
    } else {
      throw new UsageError(`Unknown migrate command: ${sub}`);
    }
  } finally {
    await server.stop();
  }
}
