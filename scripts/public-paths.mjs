// Writes src/rest/public-paths.json: every method and path of the public OpenAPI document shipped
// in @gitbook/api (spec/openapi.json), so that the router can answer the documented paths quire
// does not serve yet with 501 instead of 404 — without the SDK package at run time. Rerun after
// upgrading @gitbook/api; test/routes.test.ts fails while the file is stale.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
export function publicPaths() {
  const document = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
  return Object.entries(document.paths)
    .flatMap(([p, item]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${p}`))
    .sort();
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = path.resolve(import.meta.dirname, '../src/rest/public-paths.json');
  const document = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
  writeFileSync(file, `${JSON.stringify({ source: `@gitbook/api spec/openapi.json, API version ${document.info.version}`, paths: publicPaths() }, null, 1)}\n`);
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
}
