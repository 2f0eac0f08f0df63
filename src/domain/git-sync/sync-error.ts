/**
 * Failures of a sync that are not the transport's (lib/git/errors.ts): the repository breaks the
 * layout (named by file and line), the space kept moving, a push kept being refused. Reported by
 * the job like every GitError: a stable code and a message fit for people.
 */
import { GitError, type GitErrorCode } from '../../lib/git/errors.js';

export type SyncErrorCode =
  /** `.gitbook.yaml`, SUMMARY.md or a file's front matter is invalid: the message names the file and line. */
  | 'GIT_INVALID_REPOSITORY'
  /** The space (or the branch) kept changing while the operation merged or pushed. */
  | 'GIT_BUSY'
  /** The branch to import does not exist. */
  | 'GIT_REF_NOT_FOUND'
  /** A conflict had nowhere to be parked. */
  | 'GIT_CONFLICT';

export const syncError = (code: SyncErrorCode, message: string) => new GitError(code as GitErrorCode, message);
