// `prisma generate`, offline. The Prisma 7 CLI spawns its native schema engine (downloading it on
// first use) even for `generate`, which only needs the engine to exist: any executable satisfies
// it, so we point PRISMA_SCHEMA_ENGINE_BINARY at node itself unless the caller chose one.
// Migrations never use that binary: they run on the WebAssembly engine (src/db/schema-engine.ts).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
// Generators such as prisma-pothos-types are resolved from PATH, as under `npm run`.
env.PATH = `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${env.PATH ?? ''}`;
const run = spawnSync(process.execPath, [cli, 'generate', '--no-hints'], { cwd: root, env, stdio: 'inherit' });
process.exit(run.status ?? 1);
