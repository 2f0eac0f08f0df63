// Writes src/rest/public-paths.json: every method and path of the public OpenAPI document shipped
// in @gitbook/api (spec/openapi.json), so that the router can answer the documented paths quire
// does not serve with 501 instead of 404 (naming the reason for those it leaves out on purpose,
// out-of-scope.mjs) — without the SDK package at run time. Rerun after
// upgrading @gitbook/api; test/routes.test.ts fails while the file is stale.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { outOfScope } from './out-of-scope.mjs';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
export function publicPaths() {
  const document = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
  return Object.entries(document.paths)
    .flatMap(([p, item]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${p}`))
    .sort();
}

/** Why quire leaves out the operations it leaves out on purpose: `{ "GET /path": "AI: …" }`. */
export function outOfScopeReasons() {
  const document = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
  const reasons = {};
  for (const [p, item] of Object.entries(document.paths)) {
    for (const m of METHODS.filter((method) => item[method])) {
      const key = `${m.toUpperCase()} ${p}`;
      const rule = outOfScope({ key, path: p, tags: item[m].tags ?? [] });
      if (rule) reasons[key] = `${rule.area}: ${rule.why}`;
    }
  }
  return Object.fromEntries(Object.entries(reasons).sort(([a], [b]) => a.localeCompare(b)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = path.resolve(import.meta.dirname, '../src/rest/public-paths.json');
  const document = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
  writeFileSync(file, `${JSON.stringify({ source: `@gitbook/api spec/openapi.json, API version ${document.info.version}`, paths: publicPaths(), outOfScope: outOfScopeReasons() }, null, 1)}\n`);
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
}
