/** The size caps of fetching: one response's, and the total of one fetcher's responses. */
import { ImportError } from '../import-readers/import-error.js';

/**
 * TOO_LARGE because the whole import read too much: every later fetch would fail the same way, so
 * a crawler stops at this one instead of skipping the page.
 */
export class TotalBytesExceededError extends ImportError {
  constructor(limit: number) {
    super('TOO_LARGE', `The import read more than its limit of ${formatBytes(limit)} in total.`);
  }
}

export const responseTooLarge = (url: URL, limit: number) =>
  new ImportError('TOO_LARGE', `The response from ${url.host} is larger than the limit of ${formatBytes(limit)}.`);

/** Bytes read so far across fetches; `take` counts more and throws once over the limit. */
export class ByteBudget {
  private used = 0;
  constructor(readonly limit: number) {}

  /** Refuses up front a response whose declared size would not fit (nothing is counted). */
  ensureRoomFor(bytes: number): void {
    if (this.used + bytes > this.limit) throw new TotalBytesExceededError(this.limit);
  }

  take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) throw new TotalBytesExceededError(this.limit);
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
