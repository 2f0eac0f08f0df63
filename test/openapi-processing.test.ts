/**
 * Processing of OpenAPI specifications (src/lib/openapi), against specifications served
 * by a real HTTP server on loopback: fetching (time-out, unreachable, HTTP and content-type
 * failures), JSON and YAML parsing, validation, content hashes, external `$ref`s never followed,
 * progress, and the slug rules. No database needed.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/errors.js';
import { createSafeFetch } from '../src/lib/fetch/index.js';
import { ImportError } from '../src/lib/import-readers/import-error.js';
import { DEFAULT_IMPORT_LIMITS, type SafeFetch } from '../src/lib/import-readers/tree.js';
import { canonicalText, processSpec, SpecProcessingError, validateSlug, type ProcessedSpec } from '../src/lib/openapi/processing.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Handler>();
let hits: string[] = [];
let server: http.Server;
let base = '';

const serve = (body: string, type: string): Handler => (_req, res) => res.writeHead(200, { 'content-type': type }).end(body);

const PETSTORE_31 = `openapi: 3.1.0
info:
  title: Petstore
  version: 2.4.1
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: The pets
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: '#/components/schemas/Pet'
    post:
      operationId: createPet
      responses:
        '201':
          description: Created
  /pets/{petId}:
    $ref: '#/components/pathItems/PetById'
components:
  schemas:
    Pet:
      type: object
      required: [id]
      properties:
        id: { type: integer }
        name: { type: string }
  pathItems:
    PetById:
      parameters:
        - { name: petId, in: path, required: true, schema: { type: string } }
      get:
        operationId: getPet
        responses:
          '200': { description: One pet }
      delete:
        operationId: deletePet
        responses:
          '204': { description: Deleted }
`;

const SWAGGER_20 = JSON.stringify(
  {
    swagger: '2.0',
    info: { title: 'Legacy store', version: '1.0.0' },
    basePath: '/v1',
    paths: {
      '/orders': {
        get: { responses: { 200: { description: 'Orders', schema: { type: 'array', items: { $ref: '#/definitions/Order' } } } } },
        post: { parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/Order' } }], responses: { 201: { description: 'Created' } } },
      },
      '/orders/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, type: 'string' }],
        get: { responses: { 200: { description: 'One order', schema: { $ref: '#/definitions/Order' } } } },
      },
    },
    definitions: { Order: { type: 'object', properties: { id: { type: 'string' }, total: { type: 'number' } } } },
  },
  null,
  2,
);

// OpenAPI 3.0 requires `paths`; `info.title` must be a string.
const INVALID_30 = JSON.stringify({ openapi: '3.0.3', info: { title: 42, version: '1.0.0' } });

let secretDir: string;
let secretFile: string;
const SECRET = 'top-secret-4f1c9a';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  secretDir = mkdtempSync(join(tmpdir(), 'quire-openapi-'));
  secretFile = join(secretDir, 'secret.json');
  writeFileSync(secretFile, JSON.stringify({ type: 'string', description: SECRET }));

  routes.set('/petstore.yaml', serve(PETSTORE_31, 'application/yaml'));
  routes.set('/petstore-crlf.yaml', serve(PETSTORE_31.replaceAll('\n', '  \r\n') + '\r\n\r\n', 'text/yaml; charset=utf-8'));
  routes.set('/petstore-changed.yaml', serve(PETSTORE_31.replace('description: The pets', 'description: All the pets'), 'application/x-yaml'));
  routes.set('/swagger.json', serve(SWAGGER_20, 'application/json'));
  routes.set('/vendor.json', serve(SWAGGER_20, 'application/vnd.oai.openapi+json; charset=utf-8'));
  routes.set('/invalid.json', serve(INVALID_30, 'application/json'));
  routes.set('/garbage.txt', serve('<html><body>Not a spec {{{ : ]</body></html>\n  - : : x', 'text/plain'));
  routes.set('/page.html', serve('<html></html>', 'text/html'));
  routes.set('/secret.json', serve(JSON.stringify({ type: 'string', description: SECRET }), 'application/json'));
  routes.set('/slow.yaml', (_req, res) => {
    const timer = setTimeout(() => res.writeHead(200, { 'content-type': 'application/yaml' }).end(PETSTORE_31), 3_000);
    res.on('close', () => clearTimeout(timer));
  });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(secretDir, { recursive: true, force: true });
});

beforeEach(() => {
  hits = [];
});

const fetcher = (requestTimeoutMs = 5_000): SafeFetch =>
  createSafeFetch({ limits: { ...DEFAULT_IMPORT_LIMITS, requestTimeoutMs }, allowPrivateNetworks: true });

const fromUrl = (path: string, options: { timeout?: number; maxBytes?: number } = {}) =>
  processSpec({ url: `${base}${path}` }, { fetch: fetcher(options.timeout), maxBytes: options.maxBytes });

async function failure(promise: Promise<unknown>): Promise<SpecProcessingError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SpecProcessingError);
  return error as SpecProcessingError;
}

/** A failure people may read: no stack frames, no server paths. */
function expectReadable(error: SpecProcessingError) {
  const all = [error.message, ...error.errors.map((issue) => issue.message)].join('\n');
  expect(all).not.toMatch(/\n\s+at\s/);
  expect(all).not.toContain(process.cwd());
  expect(all).not.toContain('node_modules');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('valid specifications', () => {
  it('reads an OpenAPI 3.1 YAML document: title, version, operations (through local path-item $refs), progress', async () => {
    const steps: [number, number, string][] = [];
    const spec = await processSpec({ url: `${base}/petstore.yaml` }, { fetch: fetcher(), progress: (done, total, message) => steps.push([done, total, message]) });
    expect(spec).toMatchObject({ title: 'Petstore', version: '2.4.1', openapi: '3.1.0', operations: 4, errors: [], format: 'yaml', text: PETSTORE_31 });
    expect(spec.contentHash).toBe(sha256(PETSTORE_31.trimEnd()));
    expect(steps.map(([done, total]) => [done, total])).toEqual([[0, 3], [1, 3], [2, 3], [3, 3]]);
    expect(steps[0][2]).toContain('Fetching');
    expect(steps[1][2]).toContain('Parsing');
    expect(steps[2][2]).toContain('Validating the OpenAPI 3.1.0');
    expect(hits).toEqual(['/petstore.yaml']);
  });

  it('reads a Swagger 2.0 JSON document, also as application/vnd.oai.openapi+json', async () => {
    for (const path of ['/swagger.json', '/vendor.json']) {
      const spec = await fromUrl(path);
      expect(spec).toMatchObject({ title: 'Legacy store', version: '1.0.0', openapi: '2.0', operations: 3, errors: [], format: 'json' });
    }
  });

  it('keeps the hash across refetches and line-ending or trailing-blank changes, and changes it with the content', async () => {
    const first = await fromUrl('/petstore.yaml');
    const again = await fromUrl('/petstore.yaml');
    const crlf = await fromUrl('/petstore-crlf.yaml');
    const changed = await fromUrl('/petstore-changed.yaml');
    expect(again.contentHash).toBe(first.contentHash);
    expect(crlf.text).not.toBe(first.text);
    expect(crlf.contentHash).toBe(first.contentHash);
    expect(changed.contentHash).not.toBe(first.contentHash);
    expect(canonicalText('a:  \r\n  b: 1\t\r\n\r\n')).toBe('a:\n  b: 1');
  });

  it('processes a text source without fetching anything', async () => {
    const spec = await processSpec({ text: SWAGGER_20 }, { fetch: fetcher() });
    expect(spec).toMatchObject({ title: 'Legacy store', operations: 3, openapi: '2.0' });
    const yaml = await processSpec({ text: `\uFEFF${PETSTORE_31}` }, { fetch: fetcher() });
    expect(yaml.contentHash).toBe((await fromUrl('/petstore.yaml')).contentHash);
    expect(hits).toEqual(['/petstore.yaml']);
  });

  it('reports broken lenient rules (duplicate operationId) as warnings of a valid document', async () => {
    const text = PETSTORE_31.replace('operationId: createPet', 'operationId: listPets');
    const spec = await processSpec({ text }, { fetch: fetcher() });
    expect(spec.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('listPets') })]);
  });
});

describe('invalid documents are PARSE_ERROR', () => {
  it('lists the schema errors of an OpenAPI document, with JSON pointers where known', async () => {
    const error = await failure(fromUrl('/invalid.json'));
    expect(error.code).toBe('PARSE_ERROR');
    expect(error.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ message: expect.stringContaining("required property 'paths'") }),
        { message: expect.stringContaining('must be string'), path: '/info/title' },
      ]),
    );
    expect(error.message).toContain('OpenAPI 3.0.3 document is not valid');
    expect(error.message).toContain("required property 'paths'");
    expect(error.message).toContain('/info/title: TYPE must be string');
    expectReadable(error);
  });

  it('names the pointer of a nested error', async () => {
    const text = PETSTORE_31.replace("        - { name: petId, in: path, required: true, schema: { type: string } }", '        - 12');
    const error = await failure(processSpec({ text }, { fetch: fetcher() }));
    expect(error.errors.map((issue) => issue.path)).toContain('/components/pathItems/PetById/parameters/0');
  });

  it('refuses garbage, broken JSON, non-specifications and unsupported versions', async () => {
    const garbage = await failure(fromUrl('/garbage.txt'));
    expect(garbage.code).toBe('PARSE_ERROR');
    expect(garbage.errors.length).toBeGreaterThan(0);
    expectReadable(garbage);

    const cases: [string, RegExp][] = [
      ['{"openapi": "3.0.0", "info": ', /Invalid JSON/],
      ['', /empty/],
      ['just a sentence', /no "openapi" or "swagger"/],
      ['- a\n- b\n', /no "openapi" or "swagger"/],
      [JSON.stringify({ openapi: '4.0.0', info: { title: 'x', version: '1' }, paths: {} }), /OpenAPI 4\.0\.0, which is not supported/],
      [JSON.stringify({ swagger: '1.2', info: { title: 'x', version: '1' }, paths: {} }), /Swagger 1\.2/],
      ['a: 1\na: 2\n', /Invalid YAML/],
      ['openapi: 3.0.0\n---\nswagger: "2.0"\n', /Invalid YAML/],
    ];
    for (const [text, pattern] of cases) {
      const error = await failure(processSpec({ text }, { fetch: fetcher() }));
      expect(error.code, text).toBe('PARSE_ERROR');
      expect(error.message, text).toMatch(pattern);
      expectReadable(error);
    }
  });

  it('refuses a missing local $ref and a YAML alias bomb', async () => {
    const missing = await failure(processSpec({ text: PETSTORE_31.replace("'#/components/schemas/Pet'", "'#/components/schemas/Nope'") }, { fetch: fetcher() }));
    expect(missing.code).toBe('PARSE_ERROR');
    expect(missing.message).toContain('#/components/schemas/Nope');

    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    const bomb = await failure(processSpec({ text: `openapi: 3.0.0\n${levels.join('\n')}\n` }, { fetch: fetcher() }));
    expect(bomb.code).toBe('PARSE_ERROR');
  });

  it('refuses a text source above the size limit', async () => {
    const error = await failure(processSpec({ text: PETSTORE_31 }, { fetch: fetcher(), maxBytes: 100 }));
    expect(error.code).toBe('PARSE_ERROR');
    expect(error.message).toContain('larger than');
  });
});

describe('fetch failures', () => {
  it('is FETCH_TIMEOUT when the server answers after the time limit', async () => {
    const started = Date.now();
    const error = await failure(fromUrl('/slow.yaml', { timeout: 300 }));
    expect(error.code).toBe('FETCH_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2_500);
    expectReadable(error);
  });

  it('is FETCH_ERROR when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(processSpec({ url: `http://127.0.0.1:${port}/spec.yaml` }, { fetch: fetcher() }));
    expect(error.code).toBe('FETCH_ERROR');
    expect(error.message).toContain(`127.0.0.1:${port}`);
  });

  it('is FETCH_ERROR for an HTTP error, an unsupported content type, a response above the limit, a blocked address', async () => {
    expect((await failure(fromUrl('/missing.yaml'))).code).toBe('FETCH_ERROR');
    expect((await failure(fromUrl('/page.html'))).code).toBe('FETCH_ERROR');
    const tooLarge = await failure(fromUrl('/petstore.yaml', { maxBytes: 200 }));
    expect(tooLarge.code).toBe('FETCH_ERROR');
    hits = [];
    const strict = createSafeFetch({ limits: DEFAULT_IMPORT_LIMITS }); // loopback refused
    const blocked = await failure(processSpec({ url: `${base}/petstore.yaml` }, { fetch: strict }));
    expect(blocked.code).toBe('FETCH_ERROR');
    expect(hits).toEqual([]);
  });

  it('lets a cancellation through as the job’s own error', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await processSpec({ url: `${base}/petstore.yaml` }, { fetch: fetcher(), signal: controller.signal }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).code).toBe('CANCELLED');
    expect(hits).toEqual([]);
  });
});

describe('external $refs are never followed', () => {
  const withRefs = () =>
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Refs', version: '1' },
      paths: {
        '/http': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `${base}/secret.json` } } } } } } },
        '/passwd': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '/etc/passwd' } } } } } } },
        '/file': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `file://${secretFile}` } } } } } } },
        '/absolute': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: secretFile } } } } } } },
        '/relative': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: './secret.json#/description' } } } } } } },
        '/scoped': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $id: `${base}/schemas/`, properties: { a: { $ref: '../secret.json' } } } } } } } } },
        '/remote-item': { $ref: `${base}/secret.json#/paths/~1x` },
      },
    });

  function expectNotFollowed(spec: ProcessedSpec) {
    expect(hits.filter((hit) => hit.startsWith('/secret') || hit.startsWith('/schemas'))).toEqual([]);
    const refs = spec.errors.filter((issue) => issue.message.startsWith('External reference'));
    expect(refs.map((issue) => issue.path)).toEqual([
      '/paths/~1http/get/responses/200/content/application~1json/schema/$ref',
      '/paths/~1passwd/get/responses/200/content/application~1json/schema/$ref',
      '/paths/~1file/get/responses/200/content/application~1json/schema/$ref',
      '/paths/~1absolute/get/responses/200/content/application~1json/schema/$ref',
      '/paths/~1relative/get/responses/200/content/application~1json/schema/$ref',
      '/paths/~1scoped/get/responses/200/content/application~1json/schema/properties/a/$ref',
      '/paths/~1remote-item/$ref',
    ]);
    const everything = JSON.stringify(spec);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain('root:x:0:0');
  }

  it('from a text source: no request to the referenced server, no file read, references reported', async () => {
    const spec = await processSpec({ text: withRefs() }, { fetch: fetcher() });
    expect(spec.operations).toBe(6);
    expectNotFollowed(spec);
  });

  it('from a fetched source: only the specification itself is requested', async () => {
    routes.set('/refs.json', serve(withRefs(), 'application/json'));
    const spec = await fromUrl('/refs.json');
    expect(hits).toEqual(['/refs.json']);
    expectNotFollowed(spec);
  });
});

describe('slugs (section 2.15)', () => {
  const valid = ['a', 'petstore', 'pet-store-v2', '0', '2024-api', 'a'.repeat(100)];
  const invalid: unknown[] = ['', 'a'.repeat(101), 'Petstore', 'pet_store', 'pet--store', '-pet', 'pet-', 'pet store', 'pet/store', 'café', 12, null, undefined];

  it.each(valid)('accepts %j', (slug) => {
    expect(validateSlug(slug)).toBe(slug);
  });

  it.each(invalid)('refuses %j with a 400 naming the field', (slug) => {
    let error: unknown;
    try {
      validateSlug(slug, 'specSlug');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', status: 400, field: 'specSlug' });
    expect((error as AppError).message).toContain('"specSlug"');
  });
});
