/**
 * Why processing a specification failed, as the code the API reports in `lastProcessErrorCode`,
 * with the problems found. Messages are for people: never a stack, internal error text or a path
 * of the server.
 */

export const SPEC_PROCESSING_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export type SpecProcessingErrorCode = (typeof SPEC_PROCESSING_ERROR_CODES)[number];

/** One problem of a specification; `path` is a JSON pointer into the document when known. */
export type SpecIssue = { message: string; path?: string };

/** How many problems a message names before "and N more". */
const LISTED_IN_MESSAGE = 3;

export class SpecProcessingError extends Error {
  constructor(
    readonly code: SpecProcessingErrorCode,
    message: string,
    readonly errors: SpecIssue[] = [],
  ) {
    super(message);
    this.name = 'SpecProcessingError';
  }
}

/** A PARSE_ERROR whose message lists the first problems. */
export function parseError(summary: string, errors: SpecIssue[]): SpecProcessingError {
  const listed = errors.slice(0, LISTED_IN_MESSAGE).map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
  const more = errors.length > LISTED_IN_MESSAGE ? ` (and ${errors.length - LISTED_IN_MESSAGE} more)` : '';
  return new SpecProcessingError('PARSE_ERROR', listed.length ? `${summary}: ${listed.join('; ')}${more}` : summary, errors);
}
