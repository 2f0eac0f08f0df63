/**
 * What the access log and the metrics record about a request, filled in as it is served: the
 * route template (never the raw path: IDs would make every line and label unique), the user and
 * the GraphQL operation. Kept beside the request object, for the layers that serve it to add to.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type RequestInfo = {
  id: string;
  started: bigint;
  /** e.g. `GET /v1/spaces/{spaceId}` or `POST /graphql`. */
  route?: string;
  userId?: string;
  /** GraphQL operation: its name, or its type when anonymous (`query`). */
  operation?: string;
};

/** Kept on the request itself: a property costs less per request than a WeakMap's entry. */
const INFO = Symbol('quire.requestInfo');
type Tracked = IncomingMessage & { [INFO]?: RequestInfo };

/** A client's request ID is kept when it is a plain token of reasonable length; otherwise a new one. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function startRequest(req: IncomingMessage): RequestInfo {
  const given = req.headers['x-request-id'];
  const info: RequestInfo = { id: typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID(), started: process.hrtime.bigint() };
  (req as Tracked)[INFO] = info;
  return info;
}

/** The request's info, to fill in (a no-op object for requests not started here, e.g. in tests). */
export function requestInfo(req: IncomingMessage | undefined): Partial<RequestInfo> {
  return (req as Tracked | undefined)?.[INFO] ?? {};
}

/** The info of a request started here. */
export const startedInfo = (req: IncomingMessage): RequestInfo | undefined => (req as Tracked)[INFO];
