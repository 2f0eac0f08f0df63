/**
 * The first ajv error of a customization body as a 400 naming the dotted path of the offending
 * field: `Invalid value for "styling.theme": must be one of: clean, muted, bold, gradient`.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { AppError, badRequest } from '../../../../lib/errors.js';
import { definitions, resolve, type JsonSchema } from './schema.js';

// Errors that only summarize their branches' failures (reported instead when nothing better exists).
const SUMMARIES = new Set(['oneOf', 'anyOf', 'allOf', 'propertyNames', 'if', 'not']);
const COLOR_PATTERN: string = definitions.Color.pattern;

const segments = (pointer: string) => (pointer ? pointer.slice(1).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~')) : []);
const list = (values: unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

/**
 * With allErrors off, ajv still reports one error per failed `oneOf` branch. The most telling is
 * the one that got deepest into the value: a wrong field inside the variant that was meant, rather
 * than "must be null" or a missing key of another variant. Among equals, a variant of another type
 * (a "must be string", or an enumeration of strings given an object) ranks last.
 */
function pick(errors: ErrorObject[]): ErrorObject {
  const ambiguous = errors.find((e) => e.keyword === 'oneOf' && Array.isArray(e.params.passingSchemas));
  if (ambiguous) return ambiguous;
  const candidates = errors.filter((e) => !SUMMARIES.has(e.keyword) && !(e.keyword === 'type' && e.params.type === 'null'));
  if (!candidates.length) return errors[0];
  const otherType = (e: ErrorObject) =>
    e.keyword === 'type' || (e.keyword === 'enum' && !e.params.allowedValues.some((v: unknown) => typeof v === typeof e.data));
  const rank = (e: ErrorObject) => segments(e.instancePath).length * 2 - (otherType(e) ? 1 : 0);
  return candidates.reduce((best, e) => (rank(e) > rank(best) ? e : best));
}

/** The values a discriminated `oneOf` accepts for its tag. */
function tagValues(schema: JsonSchema | undefined, tag: string): unknown[] {
  return (schema?.oneOf ?? []).flatMap((branch: JsonSchema) => {
    const property = resolve(branch).properties?.[tag] ?? {};
    return property.const !== undefined ? [property.const] : (property.enum ?? []);
  });
}

function describe(error: ErrorObject): { path: string[]; problem: string } {
  const path = segments(error.instancePath);
  const p = error.params as Record<string, any>;
  if (error.propertyName !== undefined) {
    const inner = describe({ ...error, propertyName: undefined });
    return { path: [...path, error.propertyName], problem: `is not an allowed key: ${inner.problem}` };
  }
  switch (error.keyword) {
    case 'required':
      return { path: [...path, p.missingProperty], problem: 'is required' };
    case 'additionalProperties':
      return { path: [...path, p.additionalProperty], problem: 'is not an allowed property' };
    case 'discriminator': {
      const allowed = list(tagValues(error.parentSchema, p.tag));
      const missing = p.tagValue === undefined;
      return { path: [...path, p.tag], problem: missing ? `is required (one of: ${allowed})` : `must be one of: ${allowed}` };
    }
    case 'oneOf':
      return { path, problem: 'matches more than one of the allowed shapes' };
    case 'enum':
      return { path, problem: `must be one of: ${list(p.allowedValues)}` };
    case 'const':
      return { path, problem: `must be ${list([p.allowedValue])}` };
    case 'type':
      return { path, problem: `must be ${String(p.type).split(',').join(' or ')}` };
    case 'format':
      return { path, problem: `must be a valid ${p.format}` };
    case 'pattern':
      if (p.pattern === COLOR_PATTERN) return { path, problem: 'must be a hex colour such as #346DDB' };
  }
  return { path, problem: error.message ?? 'is invalid' };
}

export function schemaError(errors: ErrorObject[] | null | undefined): AppError {
  if (!errors?.length) return badRequest('Invalid request body');
  const { path, problem } = describe(pick(errors));
  const field = path.join('.');
  return field ? badRequest(`Invalid value for "${field}": ${problem}`, field) : badRequest(`Invalid request body: ${problem}`);
}
