/**
 * Why an import (or a fetch of it) failed, as a stable reason code a job records and a client can
 * act on. The message is for people and never holds internal error text (stack, SQL, paths).
 */
export const IMPORT_ERROR_CODES = [
  /** A request (or the whole import) ran out of time. */
  'FETCH_TIMEOUT',
  /** Could not connect, a TLS or protocol error, too many redirects, a non-HTTP(S) URL. */
  'FETCH_ERROR',
  /** The URL's host resolves to a loopback, private, link-local or otherwise non-public address. */
  'BLOCKED_ADDRESS',
  /** The server answered with an error status (4xx, 5xx). */
  'HTTP_ERROR',
  /** A response (or a zip entry, or the whole import) is larger than the limits allow, or a page is past the markdown limits. */
  'TOO_LARGE',
  /** The response's content type is not one the source reads. */
  'UNSUPPORTED_CONTENT_TYPE',
  /** The content could not be read (a corrupt zip or .docx, an unsafe zip entry). */
  'PARSE_ERROR',
  /** robots.txt disallows the start page. */
  'ROBOTS_DISALLOWED',
  /** The job was cancelled. */
  'CANCELLED',
] as const;

export type ImportErrorCode = (typeof IMPORT_ERROR_CODES)[number];

export class ImportError extends Error {
  constructor(
    readonly code: ImportErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ImportError';
  }
}
