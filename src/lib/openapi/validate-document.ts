/**
 * Validation of a parsed specification with @readme/openapi-parser (Swagger 2.0, OpenAPI 3.0 and
 * 3.1): local `$ref`s are dereferenced, external ones are left alone (`resolve.external: false`:
 * the parser neither fetches URLs nor reads files). Schema errors are a PARSE_ERROR; the rules
 * below that real-world specifications often break are reported as warnings instead.
 */
import { validate, type ParserOptions } from '@readme/openapi-parser';
import { framePointers } from './frame-paths.js';
import { parseError, type SpecIssue } from './processing-error.js';

const LENIENT_RULES = {
  'array-without-items': 'warning',
  'duplicate-non-request-body-parameters': 'warning',
  'duplicate-operation-id': 'warning',
  'non-optional-path-parameters': 'warning',
  'path-parameters-not-in-parameters': 'warning',
  'path-parameters-not-in-path': 'warning',
} as const;

export const PARSER_OPTIONS: ParserOptions = {
  // No external resolution at all: no HTTP(S) resolver, no file resolver.
  resolve: { external: false, file: false },
  /** Bounds dereferencing (a document of many nested local references). */
  timeoutMs: 20_000,
  validate: { rules: { openapi: LENIENT_RULES, swagger: { ...LENIENT_RULES, 'unknown-required-schema-property': 'warning' } } },
};

export type SpecKind = { name: 'OpenAPI' | 'Swagger'; version: string };

/** The declared version, or PARSE_ERROR when the document is neither OpenAPI 3.0/3.1 nor Swagger 2.0. */
export function specKind(document: unknown): SpecKind {
  const fields = document !== null && typeof document === 'object' && !Array.isArray(document) ? (document as Record<string, unknown>) : {};
  if (typeof fields.openapi === 'string' && /^3\.[01](\.\d+)?(-[\w.]+)?$/.test(fields.openapi)) return { name: 'OpenAPI', version: fields.openapi };
  if (fields.swagger === '2.0') return { name: 'Swagger', version: '2.0' };
  const declared = typeof fields.openapi === 'string' ? `It declares OpenAPI ${fields.openapi.slice(0, 20)}, which is not supported` : typeof fields.swagger === 'string' ? `It declares Swagger ${fields.swagger.slice(0, 20)}, which is not supported` : 'It has no "openapi" or "swagger" version field';
  throw parseError('The document is not an OpenAPI 3.0/3.1 or Swagger 2.0 specification', [{ message: declared }]);
}

/** Validates (on a copy); answers the warnings, or throws PARSE_ERROR listing the errors. */
export async function validateDocument(document: unknown, kind: SpecKind): Promise<SpecIssue[]> {
  // The parser dereferences in place: the copy is what its code frames print, so their lines map to pointers.
  const copy = structuredClone(document) as Parameters<typeof validate>[0];
  let result;
  try {
    result = await validate(copy, PARSER_OPTIONS);
  } catch (error) {
    // A stack overflow (local `$ref`s chained deeper than the text nests) is the document's fault, not the server's.
    const message = error instanceof RangeError && /call stack/i.test(error.message) ? 'Its references nest too deeply to be resolved' : safeMessage(error);
    throw parseError(`The ${kind.name} document could not be validated`, [{ message }]);
  }
  if (result.valid) return result.warnings.map((warning) => ({ message: safeMessage(warning.message) }));

  const messages = result.errors.map((error) => error.message);
  const pointers = framePointers(copy, messages);
  const errors: SpecIssue[] = messages.map((message, index) => {
    const path = pointers[index];
    // The root's pointer is "": such an error names its property in the message instead.
    return { message: safeMessage(message), ...(path ? { path } : {}) };
  });
  if (result.additionalErrors > 0) errors.push({ message: `${result.additionalErrors} more errors were not listed.` });
  throw parseError(`The ${kind.name} ${kind.version} document is not valid`, errors);
}

/** The first line of a message (no code frame, no stack), without the server's working directory. */
function safeMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n')[0].trim() || 'The document could not be validated.';
  return line.replaceAll(`file://${process.cwd()}/`, '').replaceAll(`${process.cwd()}/`, '').slice(0, 500);
}
