// `prisma generate`, offline. The Prisma 7 CLI spawns its native schema engine (downloading it on
// first use) even for `generate`, which only needs the engine to exist: any executable satisfies
// it, so we point PRISMA_SCHEMA_ENGINE_BINARY at node itself unless the caller chose one.
// Migrations never use that binary: they run on the WebAssembly engine (src/db/schema-engine.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
// Generators such as prisma-pothos-types are resolved from PATH, as under `npm run`.
env.PATH = `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${env.PATH ?? ''}`;
const run = spawnSync(process.execPath, [cli, 'generate', '--no-hints'], { cwd: root, env, stdio: 'inherit' });
if (run.status === 0) {
  readWasmAsFile(path.join(root, 'src', 'generated', 'prisma', 'internal', 'class.ts'));
  for (const runtime of ['client.js', 'client.mjs']) keepGraphEdgesInMaps(path.join(root, 'node_modules', '@prisma', 'client', 'runtime', runtime));
}
process.exit(run.status ?? 1);

/**
 * The generated client imports its query compiler's WebAssembly as a module of base64 text
 * (`export { wasm }`, 4.4 MiB): V8 would keep that module's source and its string literal (two
 * copies) for the life of the process. The client here reads the same file as text instead, so
 * the text is garbage once compiled (docs/performance.md, Memory). Fails if Prisma's output changes.
 */
function readWasmAsFile(/** @type {string} */ file) {
  const source = readFileSync(file, 'utf8');
  const imported = /const \{ wasm \} = await import\(("@prisma\/client\/runtime\/[\w.]+\.wasm-base64\.mjs")\)\n(\s*)return await decodeBase64AsWasm\(wasm\)/;
  const match = imported.exec(source);
  if (!match) {
    console.error(`prisma-generate: ${file} no longer imports the query compiler as base64 text; update readWasmAsFile`);
    process.exit(1);
  }
  const [, specifier, indent] = match;
  const read = [
    '// Read as a file, not imported: an imported module of base64 text stays in memory twice (scripts/prisma-generate.mjs).',
    "const { readFile } = await import('node:fs/promises')",
    "const { createRequire } = await import('node:module')",
    `const text = await readFile(createRequire(import.meta.url).resolve(${specifier}), 'utf8')`,
    "const wasm = /\"([A-Za-z0-9+/=]+)\"/.exec(text)?.[1]",
    `if (!wasm) throw new Error('The query compiler is not in ' + ${specifier})`,
    'return await decodeBase64AsWasm(wasm)',
  ].join(`\n${indent}`);
  writeFileSync(file, source.replace(imported, read));
}

/**
 * Prisma's runtime decodes its parameterization graph (which arguments of which query are values)
 * into one object per node whose edges are keyed by string index (0–1,222 here): V8 gives each a
 * holey array as long as its largest index, 17 MiB for 3,380 nodes and 22,600 edges, held by every
 * client for the life of the process. The runtime here keeps each node's edges in a Map (3 MiB;
 * the same lookups). Patched in place, once (npm restores the file when it reinstalls the
 * package, and this runs again after it); fails if Prisma's runtime changes shape.
 */
function keepGraphEdgesInMaps(/** @type {string} */ file) {
  if (!existsSync(file)) return;
  const source = readFileSync(file, 'utf8');
  const patches = [
    // the decoder of input and output nodes: a Map per node, filled by set
    [/(let i=this\.#i\(\),o=)\{\}(;for\(let s=0;s<i;s\+\+\)\{)/g, '$1new Map$2', 2],
    [/o\[a\]=([SP])\}r\.push\(\{edges:o\}\)/g, 'o.set(a,$1)}r.push({edges:o})', 2],
    // inputEdge and outputEdge: the lookups
    [/let o=n\.edges\[i\];/g, 'let o=n.edges.get(i);', 2],
  ];
  if (/let o=n\.edges\.get\(i\);/.test(source)) return; // already patched
  let text = source;
  for (const [pattern, replacement, count] of patches) {
    const found = text.match(pattern)?.length ?? 0;
    if (found !== count) {
      console.error(`prisma-generate: ${file} has ${found} of ${pattern} (expected ${count}); update keepGraphEdgesInMaps`);
      process.exit(1);
    }
    text = text.replace(pattern, replacement);
  }
  writeFileSync(file, text);
}
