/**
 * Why a git operation failed, as a stable code a job records (GitError is an ImportError, so the
 * job runner reports it like an import's failure). Messages are for people: they name the path,
 * the cap or the server's answer, and never hold a credential or an internal error text.
 */
import { ImportError, type ImportErrorCode } from '../import-readers/import-error.js';

export const GIT_ERROR_CODES = [
  /** The server refused the credentials (401/403), or asked for some that were not given. */
  'GIT_AUTH_FAILED',
  /** No repository at the URL (404). */
  'GIT_NOT_FOUND',
  /** A commit or blob asked for is not in what was fetched. */
  'GIT_REF_NOT_FOUND',
  /** A symlink, a submodule, a path with `..`, `/` or `.git`, two paths equal ignoring case. */
  'GIT_UNSAFE_TREE',
  /** A cap of GitLimits was reached; the message names it. */
  'GIT_TOO_LARGE',
  /** The server refused the push for another reason than a moved branch (a protected branch, a hook). */
  'GIT_PUSH_REJECTED',
  /** Anything else the server answered (not a git server, a 5xx, a malformed answer). */
  'GIT_PROTOCOL',
] as const;

export type GitErrorCode = (typeof GIT_ERROR_CODES)[number] | ImportErrorCode;

export class GitError extends ImportError {
  /** The same as `code`, typed with the git codes (ImportError's `code` type lists only the import ones). */
  readonly gitCode: GitErrorCode;
  constructor(code: GitErrorCode, message: string) {
    // ImportError types its code with the import codes; the git codes travel the same way at run time.
    super(code as ImportErrorCode, message);
    this.name = 'GitError';
    this.gitCode = code;
  }
}

export const tooLarge = (message: string) => new GitError('GIT_TOO_LARGE', message);
export const unsafeTree = (path: string, why: string) => new GitError('GIT_UNSAFE_TREE', `The repository's ${JSON.stringify(path)} ${why}.`);
