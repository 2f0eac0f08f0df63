/**
 * The REST route table against the API description: every documented path of the implemented
 * sections (4.1, 4.2, 4.5, 4.8 without search, 4.12, 4.16) has exactly one row.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { Context } from '../src/schema/context.js';
import { createGraphQLServer } from '../src/http/yoga.js';
import { operationCost } from '../src/http/query-cost.js';
import { compileRoute } from '../src/rest/router.js';
import { MAX_PAGE_SIZE } from '../src/schema/connection.js';
import { schema } from '../src/schema/index.js';
import { routes } from '../src/rest/routes/index.js';

/** Operations compiled, never executed: no caller is needed. */
const noCallers = { callerOf: () => Promise.reject(new Error('not executed')), contextOf: () => ({}) as Context };

const documented = [
  // 4.1 spaces
  'GET /spaces/{spaceId}',
  'DELETE /spaces/{spaceId}',
  'PATCH /spaces/{spaceId}',
  'POST /spaces/{spaceId}/duplicate',
  'POST /spaces/{spaceId}/restore',
  'POST /spaces/{spaceId}/move',
  'POST /spaces/{spaceId}/transfer',
  'GET /spaces/{spaceId}/links',
  'GET /orgs/{organizationId}/spaces',
  // 4.7 change-request content: links and backlinks
  'GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links',
  'GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/backlinks',
  'GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks',
  'POST /orgs/{organizationId}/spaces',
  // 4.2 collections
  'GET /collections/{collectionId}',
  'DELETE /collections/{collectionId}',
  'PATCH /collections/{collectionId}',
  'GET /collections/{collectionId}/spaces',
  'POST /collections/{collectionId}/move',
  'POST /collections/{collectionId}/transfer',
  'GET /orgs/{organizationId}/collections',
  'POST /orgs/{organizationId}/collections',
  // 4.5 members
  'GET /orgs/{organizationId}/members',
  'GET /orgs/{organizationId}/members/{userId}',
  'DELETE /orgs/{organizationId}/members/{userId}',
  'PATCH /orgs/{organizationId}/members/{userId}',
  'POST /orgs/{organizationId}/ping',
  'POST /orgs/{organizationId}/members/{userId}/sso',
  'GET /orgs/{organizationId}/members/{userId}/spaces',
  'GET /orgs/{organizationId}/members/{userId}/teams',
  // 4.8 organizations (search arrives with content)
  'GET /orgs',
  'GET /orgs/{organizationId}',
  'PATCH /orgs/{organizationId}',
  'GET /email-domains/{emailDomain}/orgs',
  'GET /orgs/{organizationId}/search',
  // 4.12 space and collection users
  ...['/spaces/{spaceId}/permissions', '/collections/{collectionId}/permissions'].flatMap((prefix) => [
    `POST ${prefix}`,
    `GET ${prefix}/users`,
    `DELETE ${prefix}/users/{userId}`,
    `PATCH ${prefix}/users/{userId}`,
    `GET ${prefix}/aggregate`,
  ]),
  // 4.16 teams
  'GET /orgs/{organizationId}/teams',
  'PUT /orgs/{organizationId}/teams',
  'GET /orgs/{organizationId}/teams/{teamId}',
  'DELETE /orgs/{organizationId}/teams/{teamId}',
  'PATCH /orgs/{organizationId}/teams/{teamId}',
  'GET /orgs/{organizationId}/teams/{teamId}/members',
  'PUT /orgs/{organizationId}/teams/{teamId}/members',
  'PUT /orgs/{organizationId}/teams/{teamId}/members/{userId}',
  'DELETE /orgs/{organizationId}/teams/{teamId}/members/{userId}',
];

/**
 * Documented paths of these sections that need more revision content (page bodies to search),
 * which arrives with the change-request content slice. Kept here so they cannot be forgotten.
 */
const awaitingContent: string[] = [];

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

describe('REST route table', () => {
  it('has exactly one row for every documented path of the implemented sections', () => {
    const rows = routes.map(key);
    for (const path of documented) expect(rows.filter((r) => r === path), path).toHaveLength(1);
  });

  it('lists what awaits the content slice, and nothing else is missing', () => {
    const rows = routes.map(key);
    for (const path of awaitingContent) expect(rows, path).not.toContain(path);
  });

  it('has no duplicate rows', () => {
    const rows = routes.map(key);
    expect(new Set(rows).size).toBe(rows.length);
  });

  it('names one GraphQL operation per row', () => {
    for (const r of routes) expect(r.operation.match(/\b(query|mutation)\s+\w+/g), key(r)).toHaveLength(1);
  });

  it('holds GraphQL operations that are valid against the schema, under the same limits as /graphql', () => {
    const yoga = createGraphQLServer({ config: loadConfig({}), contexts: noCallers });
    for (const r of routes) expect(() => compileRoute(r, yoga), key(r)).not.toThrow();
    // And the check itself catches a broken operation.
    const broken = { ...routes[0], operation: 'query RestBroken { space(id: "x") { noSuchField } }' };
    expect(() => compileRoute(broken, yoga)).toThrow(/noSuchField/);
  });

  it('stays within the GraphQL cost limit at the largest page size', () => {
    const yoga = createGraphQLServer({ config: loadConfig({}), contexts: noCallers });
    const limit = loadConfig({}).graphqlMaxCost;
    const largest = new URLSearchParams({ limit: String(MAX_PAGE_SIZE) });
    for (const r of routes) {
      const { document } = compileRoute(r, yoga);
      let variables: Record<string, unknown>;
      try {
        variables = r.variables({ params: {}, query: largest, body: {} });
      } catch {
        variables = {}; // a route that needs a body: its page sizes are its defaults
      }
      expect(operationCost(schema, document, undefined, variables), key(r)).toBeLessThanOrEqual(limit);
    }
  });

  it('knows every path of the public document (src/rest/public-paths.json is current)', async () => {
    // @ts-expect-error: a plain JavaScript module
    const { publicPaths, outOfScopeReasons } = await import('../scripts/public-paths.mjs');
    const committed = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../src/rest/public-paths.json'), 'utf8'));
    expect(committed.paths, 'run `node scripts/public-paths.mjs`').toEqual(publicPaths());
    expect(committed.outOfScope, 'run `node scripts/public-paths.mjs`').toEqual(outOfScopeReasons());
  });

  it('publishes its own OpenAPI document: the public one narrowed to these routes (src/rest/openapi.json is current)', async () => {
    // @ts-expect-error: a plain JavaScript module
    const { narrowedDocument } = await import('../scripts/openapi-document.mjs');
    const committed = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../src/rest/openapi.json'), 'utf8'));
    expect(committed, 'run `npm run build && node scripts/openapi-document.mjs`').toEqual(narrowedDocument(routes.map(key)));
    for (const r of routes) expect(committed.paths[r.path]?.[r.method.toLowerCase()], key(r)).toBeDefined();
  });

    // The list above is transcribed from the API description; when it is at hand, check both agree.
  const spec = path.resolve(import.meta.dirname, '../../shared/spec/management-api.md');
  it.runIf(existsSync(spec))('matches the full paths listed in the API description', () => {
    const text = readFileSync(spec, 'utf8');
    const sections = text.split(/^### /m).filter((s) => /^4\.(1|2|5|8|16) /.test(s));
    const listed = sections.flatMap((s) =>
      [...s.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `(\/[^`]+)`/gm)].map((m) => `${m[1]} ${m[2]}`),
    );
    expect(listed.length).toBeGreaterThan(20);
    for (const p of listed) expect([...documented, ...awaitingContent], p).toContain(p);
  });
});
