export { blobOid } from './blob-oid.js';
export { GIT_ERROR_CODES, GitError, type GitErrorCode } from './errors.js';
export { DEFAULT_GIT_LIMITS, type GitLimits } from './limits.js';
export { parseBranchRef, parseGitRemote, parseProjectDirectory, redactCredentials, type GitAuth, type GitRemote } from './remote.js';
export { GitRepository, type CommitInfo, type GitRepositoryOptions, type Person, type TreeEntry } from './repository.js';
export type { FileChange } from './write-tree.js';
