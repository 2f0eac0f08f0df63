/**
 * Checks every request passes before it reaches REST or GraphQL: the method is one this server
 * answers, the Host header is a host, and no string of the input holds a NUL character
 * (PostgreSQL text cannot store one: left alone, it fails deep in a query as a 500).
 */
import { Kind, visit, type DocumentNode } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

export const ANSWERED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/** Whether a Host header value names a host (and a port within range). */
export function isWellFormedHost(host: string): boolean {
  if (host.length > 255) return false;
  const match = HOST.exec(host);
  return !!match && (match[1] === undefined || Number(match[1]) <= 65535);
}

/** The path (e.g. `input.title`, `users[2]`) of the first string holding NUL in `value`, if any. */
export function pathOfNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'value' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = pathOfNul(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = pathOfNul(key, path ? `${path}.${key}` : key) ?? pathOfNul(item, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

export const nulMessage = (field: string) => `Invalid value for "${field}": text cannot contain the NUL character (\\u0000)`;

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

/** GraphQL's part: NUL in a document's string literals or in variables is a BAD_REQUEST naming it. */
export function useNoNulStrings(): Plugin {
  const refuse = (field: string) => createGraphQLError(nulMessage(field), { extensions: { code: 'BAD_REQUEST', field, http: { status: 400 } } });
  const check = ({ args, setResultAndStopExecution }: { args: { variableValues?: unknown }; setResultAndStopExecution(result: { errors: unknown[] }): void }) => {
    const field = pathOfNul(args.variableValues ?? {});
    if (field) setResultAndStopExecution({ errors: [refuse(field)] });
  };
  return {
    onValidate({ params, setResult }) {
      if (nulInDocument(params.documentAST)) setResult([refuse('query')]);
    },
    onExecute: check as never,
    onSubscribe: check as never,
  };
}
