/**
 * Whether an error means the database cannot be reached right now (down, restarting, refusing
 * connections, a connection cut mid-query) — a 503 the client may retry, not a fault of this
 * server (500). The pool replaces broken connections on next use: once the database is back,
 * requests succeed again without a restart.
 */
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TlsConnectionError', 'DatabaseAccessDenied']);
const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);

/** SQLSTATE classes 08 (connection exception) and 57P0x (the server shutting down or starting). */
const isUnavailableState = (code: unknown) => typeof code === 'string' && (code.startsWith('08') || /^57P0[1-3]$/.test(code));

/** Whether `test` holds for an error or anything in its chain of causes (Prisma's driver-adapter cause included). */
function someInChain(error: unknown, test: (e: any, adapterCause: any) => boolean): boolean {
  const seen = new Set<unknown>();
  let current: any = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const adapterCause = current.meta?.driverAdapterError?.cause ?? (current.name === 'DriverAdapterError' ? current.cause : undefined);
    if (test(current, adapterCause)) return true;
    current = current.originalError ?? current.cause;
  }
  return false;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return someInChain(error, (e, cause) => {
    if (cause && (UNREACHABLE_KINDS.has(cause.kind) || isUnavailableState(cause.originalCode ?? cause.code))) return true;
    if (PRISMA_CODES.has(e.code) || NODE_CODES.has(e.code) || isUnavailableState(e.code)) return true;
    return typeof e.message === 'string' && /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(e.message);
  });
}

export const UNAVAILABLE_MESSAGE = 'The database is unavailable; try again shortly';

/** Whether PostgreSQL refused a statement with this SQLSTATE (`23503`: a foreign key), through Prisma (its driver adapter's cause, or a raw query's `meta.code`) or pg. */
export function hasSqlState(error: unknown, state: string): boolean {
  return someInChain(error, (e, cause) => cause?.originalCode === state || cause?.code === state || e.code === state || e.meta?.code === state);
}

/** Whether an error is PostgreSQL cancelling a statement that ran past statement_timeout (57014). */
export function isStatementTimeout(error: unknown): boolean {
  return hasSqlState(error, '57014');
}
