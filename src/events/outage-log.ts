/**
 * Warnings about a dependency that went away, at a bounded rate: one when it goes down (saying
 * what the outage means), then at most one summary per interval while failures keep coming
 * (how many since the last line), and one line when it is back. A client that retries its
 * connection every few milliseconds would otherwise write the same error to the log each time.
 */
import type { Logger } from '../observability/logger.js';

export type OutageLog = {
  /** A failure of the dependency (a lost connection, a failed command). */
  failed(what: string, error: Error): void;
  /** The dependency answers again. */
  recovered(): void;
  readonly down: boolean;
};

export function createOutageLog(logger: Logger, opts: { name: string; impact: string; summaryEveryMs?: number }): OutageLog {
  const summaryEveryMs = opts.summaryEveryMs ?? 60_000;
  let downSince = 0;
  let lastLine = 0;
  let failures = 0;
  let latest = '';
  return {
    get down() {
      return downSince > 0;
    },
    failed(what, error) {
      const now = Date.now();
      latest = `${what}: ${error.message}`;
      if (!downSince) {
        downSince = lastLine = now;
        failures = 0;
        logger.warn({ err: { message: error.message }, failed: what }, `${opts.name} is unavailable: ${opts.impact}`);
        return;
      }
      failures++;
      if (now - lastLine < summaryEveryMs) return;
      logger.warn({ failures, downForSeconds: Math.round((now - downSince) / 1000), latest }, `${opts.name} is still unavailable: ${opts.impact}`);
      lastLine = now;
      failures = 0;
    },
    recovered() {
      if (!downSince) return;
      logger.info({ downForSeconds: Math.round((Date.now() - downSince) / 1000) }, `${opts.name} is back`);
      downSince = 0;
    },
  };
}
