/**
 * The common GraphQL request — a JSON POST of one query or mutation, asking for JSON — executed
 * through yoga's own envelop pipeline (the same parser and validation caches, limits, variable
 * coercion, compiled execution and error masking as yoga's handler) without converting Node's request and response to WHATWG objects and back, which costs
 * more than answering a small query. Anything else — GET, SSE or multipart, batches, persisted
 * documents, parse or validation errors, subscriptions, a missing token — is handed to yoga,
 * which answers it as the GraphQL-over-HTTP spec says.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import { processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import type { Context } from '../schema/context.js';
import type { RequestContexts } from './request-context.js';
import { requestInfo } from '../observability/request-info.js';

type Params = { query: string; variables?: Record<string, unknown>; operationName?: string };

/** What yoga would answer with: the first of the media types it serves that the caller accepts. */
function acceptedMediaType(accept: string | undefined): string | undefined {
  if (accept === undefined || accept === '' || accept === '*/*') return 'application/json';
  const first = accept.split(',', 1)[0].split(';', 1)[0].trim().toLowerCase();
  if (first === 'application/graphql-response+json' || first === 'application/json') return first;
  return undefined;
}

const isJsonContentType = (type: string | undefined) => type !== undefined && /^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(type);

/** The request's parameters when they are the plain shape this path serves. */
function plainParams(body: Buffer): Params | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { query, variables, operationName, ...rest } = parsed as Record<string, unknown>;
  if (typeof query !== 'string' || Object.keys(rest).length) return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  return { query, variables: (variables ?? undefined) as Params['variables'], operationName: operationName ?? undefined };
}

export type GraphQLFastPath = (req: IncomingMessage, res: ServerResponse, body: Buffer) => Promise<boolean>;

/** Whether a request may take the fast path before its body is read. */
export function mayTakeFastPath(req: IncomingMessage): boolean {
  const { headers } = req;
  return req.method === 'POST' && isJsonContentType(headers['content-type']) && acceptedMediaType(headers.accept) !== undefined;
}

const nobody = () => null;

/**
 * Answers the request and resolves true, or resolves false having written nothing, for yoga to
 * answer instead. The caller and context are request-context.ts's, as yoga's; a request without a
 * caller is yoga's to refuse, so the bare lookup is used here (no refusal built, no extra await).
 */
export function createGraphQLFastPath(yoga: YogaServerInstance<any, Context>, { authenticate, contextOf }: Pick<RequestContexts, 'authenticate' | 'contextOf'>): GraphQLFastPath {
  return async function fastPath(req, res, body) {
    const params = plainParams(body);
    if (!params) return false;
    const { parse, validate, execute, schema } = yoga.getEnveloped({ req });
    let document: DocumentNode;
    try {
      document = parse(params.query);
      if (validate(schema, document).length) return false;
    } catch {
      return false; // a syntax error or a refused document: yoga words the answer
    }
    const operation = getOperationAST(document, params.operationName);
    if (!operation || operation.operation === 'subscription') return false;
    // No user, or no answer (the database is down): yoga authenticates again and words the error.
    const holder = await authenticate(req.headers.authorization).catch(nobody);
    if (!holder) return false;
    const info = requestInfo(req);
    info.userId = holder.userId;
    info.operation = operation.name?.value ?? operation.operation;

    const result = (await execute({ schema, document, variableValues: params.variables, operationName: params.operationName, contextValue: contextOf(holder, req) })) as ExecutionResult;
    const mediaType = acceptedMediaType(req.headers.accept)!;
    if (result.errors?.length) {
      // Errors decide the status (a 401 or 403 in their extensions): yoga's own result processor words it.
      const response = processRegularResult(result, yoga.fetchAPI, mediaType);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
      return true;
    }
    const json = JSON.stringify(result);
    res.writeHead(200, { 'content-type': `${mediaType}; charset=utf-8`, 'content-length': String(Buffer.byteLength(json)) });
    res.end(json);
    return true;
  };
}
