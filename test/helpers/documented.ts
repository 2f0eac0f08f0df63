/**
 * Checks answers against the public OpenAPI document of `@gitbook/api` (spec/openapi.json): the
 * documented answer of a path and status, or one of the document's component schemas.
 */
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

export const publicDocument = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
// Formats the document names but does not define: not what these checks are about.
for (const format of ['icon', 'emoji']) ajv.addFormat(format, true);
ajv.addSchema(publicDocument, 'openapi');

const escape = (path: string) => path.replaceAll('~', '~0').replaceAll('/', '~1');

function check(pointer: string, body: unknown) {
  const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
  validate(body);
  expect(validate.errors ?? [], JSON.stringify(body).slice(0, 400)).toEqual([]);
}

/** `body` is the documented answer of `method path` (path as documented) with `status`. */
export function expectDocumented(method: string, path: string, status: string, body: unknown) {
  const responses = publicDocument.paths[path]?.[method.toLowerCase()]?.responses;
  expect(responses?.[status], `${method} ${path} documents ${status}`).toBeDefined();
  check(`openapi#/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`, body);
}

/** `body` is valid against the document's component schema `name`. */
export function expectSchema(name: string, body: unknown) {
  expect(publicDocument.components.schemas[name], `schema ${name}`).toBeDefined();
  check(`openapi#/components/schemas/${escape(name)}`, body);
}
