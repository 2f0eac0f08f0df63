/** The wait before a failed delivery's next attempt: `base` doubled at each attempt, ±20 % jitter, at most an hour. */
export const MAX_RETRY_DELAY_MS = 3600_000;

/** `attempt`: how many attempts were made (1 after the first failure). */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const exact = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.min(MAX_RETRY_DELAY_MS, Math.round(exact * (0.8 + 0.4 * random())));
}
