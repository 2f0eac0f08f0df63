/** The byte caps of one git operation: bytes received from the server, and bytes of blobs read. */
import { formatBytes } from '../fetch/byte-budget.js';
import { tooLarge } from './errors.js';
import type { GitLimits } from './limits.js';

export class GitBudget {
  private received = 0;
  private read = 0;
  constructor(private readonly limits: GitLimits) {}

  receive(bytes: number): void {
    this.received += bytes;
    if (this.received > this.limits.maxTotalBytes) {
      throw tooLarge(`The git server sent more than ${formatBytes(this.limits.maxTotalBytes)} (maxTotalBytes).`);
    }
  }

  /** Checks a blob of `bytes` against maxBlobBytes and counts it in maxTotalBytes. */
  readBlob(oid: string, bytes: number): void {
    if (bytes > this.limits.maxBlobBytes) {
      throw tooLarge(`The file ${oid.slice(0, 12)} is larger than ${formatBytes(this.limits.maxBlobBytes)} (maxBlobBytes).`);
    }
    this.read += bytes;
    if (this.read > this.limits.maxTotalBytes) {
      throw tooLarge(`The files read from the repository exceed ${formatBytes(this.limits.maxTotalBytes)} in total (maxTotalBytes).`);
    }
  }
}
