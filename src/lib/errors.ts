/**
 * The one error type of the domain: a stable code and the HTTP status it maps to.
 * GraphQL exposes `code` as `extensions.code`; REST answers `{error: {code: status, message}}`.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** Existed, and no longer can be used (an expired invite). */
  GONE: 410,
  INTERNAL: 500,
  /** The database cannot be reached right now; the request may be retried. */
  UNAVAILABLE: 503,
  /** An operation ran past its time limit. */
  TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string, field?: string) => new AppError('BAD_REQUEST', message, field);
export const forbidden = (message = 'You are not allowed to perform this action') => new AppError('FORBIDDEN', message);
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const gone = (message: string) => new AppError('GONE', message);
export const unauthenticated = (message = 'A valid API token is required (Authorization: Bearer <token>)') =>
  new AppError('UNAUTHENTICATED', message);
