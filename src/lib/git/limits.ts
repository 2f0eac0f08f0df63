/**
 * The caps of one git operation (a fetch with its reads, or a commit with its push), so that a
 * hostile or merely huge repository fails with a named cap instead of exhausting memory or time.
 */
export type GitLimits = {
  /** Tree entries (files and folders) under the project directory. */
  maxEntries: number;
  /** Bytes of one blob read. */
  maxBlobBytes: number;
  /** Bytes received from the server in one operation, and (counted apart) bytes of blobs read. */
  maxTotalBytes: number;
  /** The longest wait for a response, and between two chunks of its body, in ms. */
  requestTimeoutMs: number;
  /** The whole operation, from open() on, in ms. */
  totalTimeMs: number;
};

export const DEFAULT_GIT_LIMITS: GitLimits = {
  maxEntries: 50_000,
  maxBlobBytes: 20 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
  requestTimeoutMs: 60_000,
  totalTimeMs: 10 * 60_000,
};
