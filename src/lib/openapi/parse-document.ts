/**
 * The text of a specification read as JSON or YAML (one document, aliases bounded, nesting
 * bounded: nesting.ts), or PARSE_ERROR.
 */
import { parseDocument } from 'yaml';
import { assertSpecDepth, depthError, MAX_SPEC_DEPTH, yamlMayNestDeeperThan } from './nesting.js';
import { parseError, type SpecIssue } from './processing-error.js';

export type SpecFormat = 'json' | 'yaml';
export type ParsedText = { format: SpecFormat; document: unknown };

/** YAML aliases expanded at most this many times (a "billion laughs" document is refused). */
const MAX_ALIAS_COUNT = 100;
const LISTED_ERRORS = 10;

export function parseSpecText(text: string): ParsedText {
  const parsed = parseText(text);
  assertSpecDepth(parsed.document);
  return parsed;
}

function parseText(text: string): ParsedText {
  const body = text.replace(/^\uFEFF/, '');
  if (!body.trim()) throw parseError('The specification is empty', []);
  let jsonIssue: SpecIssue | undefined;
  if (/^\s*[{[]/.test(body)) {
    try {
      return { format: 'json', document: JSON.parse(body) };
    } catch (error) {
      // Flow-style YAML starts with `{` too: it gets its chance below, but JSON's message is the one to show.
      jsonIssue = { message: `Invalid JSON: ${firstLine(error)}` };
    }
  }
  // JSON.parse reads any depth; the YAML parser overflows the stack: its text is measured first.
  if (yamlMayNestDeeperThan(body, MAX_SPEC_DEPTH)) throw jsonIssue ? parseError('The specification is not valid JSON', [jsonIssue]) : depthError();
  const yaml = parseDocument(body, { schema: 'core', merge: true, uniqueKeys: true, prettyErrors: true });
  if (yaml.errors.length) {
    const issues = jsonIssue ? [jsonIssue] : yaml.errors.slice(0, LISTED_ERRORS).map((error) => ({ message: `Invalid YAML: ${firstLine(error)}` }));
    throw parseError(jsonIssue ? 'The specification is not valid JSON' : 'The specification is neither valid YAML nor valid JSON', issues);
  }
  try {
    return { format: 'yaml', document: yaml.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    throw parseError('The specification could not be read', [{ message: firstLine(error) }]);
  }
}

/** The first line of an error's message, without the code frame some parsers append. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].replace(/:\s*$/, '').trim() || 'unreadable';
}
