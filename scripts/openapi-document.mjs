// Writes src/rest/openapi.json: the public OpenAPI document of @gitbook/api narrowed to the
// methods and paths this server serves (the route table), with exactly the components they
// reference, the server URL relative to this instance, and quire's additions (paths the API
// description documents that the public document lacks). Served at GET /v1/openapi.json. An
// addition described in src/rest/quire-openapi.json (its paths and components) gets that
// description; any other a generic entry under the `quire` tag.
// Rerun after changing the route table or upgrading @gitbook/api (test/routes.test.ts checks).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The narrowed document for `served` (["GET /spaces/{spaceId}", …]). */
export function narrowedDocument(served) {
  const require = createRequire(import.meta.url);
  const source = require('@gitbook/api/spec/openapi.json');
  const described = require('../src/rest/quire-openapi.json');
  const paths = {};
  const additions = [];
  for (const key of [...served].sort()) {
    const [method, route] = key.split(' ');
    const operation = source.paths[route]?.[method.toLowerCase()];
    // quire's own description wins where quire answers the API description's shape on a path the
    // public document has since given another (translations: settings there, AI syncs here).
    if (!operation || described.paths[route]?.[method.toLowerCase()]) {
      additions.push(key);
      continue;
    }
    paths[route] ??= source.paths[route].parameters ? { parameters: source.paths[route].parameters } : {};
    paths[route][method.toLowerCase()] = operation;
  }
  // quire's additions (documented by the API description, absent from the public document) and
  // the operations it answers in the description's shape.
  for (const key of additions) {
    const [method, route] = key.split(' ');
    paths[route] ??= {};
    const own = described.paths[route]?.[method.toLowerCase()];
    if (own) {
      paths[route][method.toLowerCase()] = own;
      continue;
    }
    paths[route][method.toLowerCase()] = {
      operationId: `quire${method[0]}${method.slice(1).toLowerCase()}${route.replace(/[{}]/g, '').replace(/\/(\w)/g, (_m, c) => c.toUpperCase()).replace(/[^A-Za-z]/g, '')}`,
      summary: `${method} ${route} (a quire addition: see the API description)`,
      tags: ['quire'],
      parameters: [...route.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
      responses: { 200: { description: 'OK' }, 400: { description: 'Invalid input' }, 401: { description: 'No valid token' }, 404: { description: 'Not found' } },
    };
  }
  // Components reachable from the kept paths, transitively.
  const keep = {};
  const pending = [paths];
  const seen = new Set();
  while (pending.length) {
    const node = pending.pop();
    if (!node || typeof node !== 'object') continue;
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/components/') && !seen.has(node.$ref)) {
      seen.add(node.$ref);
      const [, , kind, name] = node.$ref.split('/');
      const component = described.components[kind]?.[name] ?? source.components[kind][name];
      (keep[kind] ??= {})[name] = component;
      pending.push(component);
    }
    for (const value of Object.values(node)) if (value && typeof value === 'object') pending.push(value);
  }
  keep.securitySchemes = source.components.securitySchemes;
  return {
    openapi: source.openapi,
    info: { ...source.info, title: 'quire REST API', description: `The /v1 paths this quire server serves: the public API document (version ${source.info.version}) narrowed to them, plus quire's additions (tag "quire").` },
    servers: [{ url: '/v1' }],
    security: source.security,
    paths,
    components: Object.fromEntries(Object.entries(keep).map(([kind, items]) => [kind, Object.fromEntries(Object.entries(items).sort(([a], [b]) => a.localeCompare(b)))])),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { routes } = await import(process.argv[2] ?? '../dist/rest/routes/index.js');
  const file = path.resolve(import.meta.dirname, '../src/rest/openapi.json');
  writeFileSync(file, `${JSON.stringify(narrowedDocument(routes.map((r) => `${r.method} ${r.path}`)))}\n`);
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
}
