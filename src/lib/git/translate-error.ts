/**
 * isomorphic-git's errors (and the fetcher's) as GitErrors a person can act on. Only the status,
 * the URL without credentials and, for a refused push, the server's reason (credentials
 * redacted) reach the message; never an internal error text.
 */
import { STATUS_CODES } from 'node:http';
import { ImportError } from '../import-readers/import-error.js';
import { GitError, unsafeTree } from './errors.js';
import { redactCredentials } from './remote.js';

type LibraryError = { code?: unknown; data?: { statusCode?: number; what?: string; filepath?: string; result?: unknown } };

export const libraryCode = (error: unknown): string =>
  typeof error === 'object' && error !== null && typeof (error as LibraryError).code === 'string' ? String((error as LibraryError).code) : '';

export function toGitError(error: unknown, context: { url: string; hasAuth: boolean; action: string }): GitError {
  if (error instanceof GitError) return error;
  if (error instanceof ImportError) return new GitError(error.code, error.message);
  const data = (error as LibraryError | null)?.data;
  switch (libraryCode(error)) {
    case 'HttpError':
      return fromStatus(data?.statusCode ?? 0, context);
    case 'UserCanceledError':
      return authFailed(context);
    case 'SmartHttpError':
      return new GitError('GIT_PROTOCOL', `${context.url} did not answer as a git server speaking smart HTTP.`);
    case 'RemoteCapabilityError':
      return new GitError('GIT_PROTOCOL', `The git server at ${context.url} does not support shallow fetches.`);
    case 'NotFoundError':
      return new GitError('GIT_REF_NOT_FOUND', `${data?.what ? `${redactCredentials(String(data.what))} was` : 'An object was'} not found in the repository.`);
    case 'UnsafeFilepathError':
      return unsafeTree(String(data?.filepath ?? ''), 'is not a safe file name');
    case 'UrlParseError':
    case 'UnknownTransportError':
      return new GitError('FETCH_ERROR', `${context.url} is not an http or https URL.`);
    default:
      return new GitError('GIT_PROTOCOL', `Could not ${context.action}: the repository at ${context.url} gave an answer git sync cannot read.`);
  }
}

function fromStatus(status: number, context: { url: string; hasAuth: boolean }): GitError {
  if (status === 401 || status === 403) return authFailed(context);
  if (status === 404) return new GitError('GIT_NOT_FOUND', `No git repository was found at ${context.url}.`);
  const text = STATUS_CODES[status] ? ` (${STATUS_CODES[status]})` : '';
  return new GitError('GIT_PROTOCOL', `The git server at ${context.url} answered ${status}${text}.`);
}

const authFailed = (context: { url: string; hasAuth: boolean }) =>
  new GitError(
    'GIT_AUTH_FAILED',
    context.hasAuth
      ? `The git server at ${context.url} refused the user name and password (or token) given.`
      : `The git server at ${context.url} asks for a user name and password (or token); give them in the URL.`,
  );

/** A push's refusal by the server: the branch moved (answer 'rejected'), or another reason (a protected branch, a hook). */
export function isMovedBranch(reason: string): boolean {
  return /non-fast-forward|fetch first|stale info|failed to (update|lock) ref|cannot lock ref|incorrect old value/i.test(reason);
}
