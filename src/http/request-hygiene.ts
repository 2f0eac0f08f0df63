/**
 * Checks every request passes before it reaches REST or GraphQL: the method is one this server
 * answers, the Host header is a host, a JSON body is UTF-8 (decoded leniently, broken bytes would
 * be stored as U+FFFD), its JSON nests no deeper than a bound (deeper, recursive code overflows
 * the stack: a 500), and no string of the input holds a NUL character (PostgreSQL text cannot
 * store one: left alone, it fails deep in a query as a 500).
 */
import { Kind, visit, type DocumentNode } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { findInJson } from '../lib/json-walk.js';

export const ANSWERED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/** Whether a Host header value names a host (and a port within range). */
export function isWellFormedHost(host: string): boolean {
  if (host.length > 255) return false;
  const match = HOST.exec(host);
  return !!match && (match[1] === undefined || Number(match[1]) <= 65535);
}

/**
 * The deepest arrays and objects may nest in a request's JSON (REST bodies, GraphQL variables)
 * and in a GraphQL document (brackets, braces and parentheses). Real input stays far below; past
 * a few thousand levels, recursive code after JSON.parse (and graphql-js's own parser) overflows
 * the stack.
 */
export const MAX_INPUT_DEPTH = 128;

export const nulMessage = (field: string) => `Invalid value for "${field}": text cannot contain the NUL character (\\u0000)`;
export const depthMessage = (field: string) => `Invalid value for "${field}": JSON nested deeper than ${MAX_INPUT_DEPTH} levels`;

export const UTF8_MESSAGE = 'Request body is not valid UTF-8';
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A body's text, or undefined when its bytes are not UTF-8. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export type InputProblem = { field: string; message: string };

/**
 * The first problem of a request's parsed JSON, found without recursion: a string (or key) holding
 * NUL, named by its path (`input.title`, `users[2]`), or nesting past {@link MAX_INPUT_DEPTH},
 * named by the top-level field holding it.
 */
export function inputProblem(value: unknown): InputProblem | undefined {
  return findInJson(value, (item, place): InputProblem | undefined => {
    if (typeof item === 'string') return item.includes('\u0000') ? { field: place.path || 'value', message: nulMessage(place.path || 'value') } : undefined;
    if (item === null || typeof item !== 'object' || place.depth < MAX_INPUT_DEPTH) return undefined;
    const field = place.path.split(/[.[]/, 1)[0] || 'value';
    return { field, message: depthMessage(field) };
  });
}

/**
 * Variables built by the REST router from a request it already checked with inputProblem (path
 * parameters, query, body): the GraphQL check skips them, rather than walk a 10 MB body twice on
 * the event loop (~80 ms each).
 */
const checkedVariables = new WeakSet<object>();

export function markChecked(variables: object): void {
  checkedVariables.add(variables);
}

/** Documents already looked at (yoga's parser cache answers the same document for the same text). */
const nulInDocuments = new WeakMap<DocumentNode, boolean>();

function nulInDocument(document: DocumentNode): boolean {
  let found = nulInDocuments.get(document);
  if (found !== undefined) return found;
  found = false;
  visit(document, {
    [Kind.STRING]: (node) => {
      if (node.value.includes('\u0000')) found = true;
    },
  });
  nulInDocuments.set(document, found);
  return found;
}

/**
 * GraphQL's part: NUL in a document's string literals, or NUL or too deep a nesting in variables,
 * is a BAD_REQUEST naming the field. Variables are checked before anything else walks them
 * (graphql-js's coercion, resolvers), so it must come before those plugins.
 */
export function useWellFormedInput(): Plugin {
  const refuse = ({ field, message }: InputProblem) => createGraphQLError(message, { extensions: { code: 'BAD_REQUEST', field, http: { status: 400 } } });
  const check = ({ args, setResultAndStopExecution }: { args: { variableValues?: unknown }; setResultAndStopExecution(result: { errors: unknown[] }): void }) => {
    if (args.variableValues && typeof args.variableValues === 'object' && checkedVariables.has(args.variableValues)) return;
    const problem = inputProblem(args.variableValues ?? {});
    if (problem) setResultAndStopExecution({ errors: [refuse(problem)] });
  };
  return {
    onValidate({ params, setResult }) {
      if (nulInDocument(params.documentAST)) setResult([refuse({ field: 'query', message: nulMessage('query') })]);
    },
    onExecute: check as never,
    onSubscribe: check as never,
  };
}
