/** How webhooks are delivered (QUIRE_WEBHOOK_* settings, config.ts); durations in ms, fractions allowed. */
export type WebhookSettings = {
  /** Deliveries in flight at once per worker process (their own runner: a slow receiver never holds a slot imports need). */
  concurrency: number;
  /** The longest wait for a receiver's answer (headers, and between two chunks of its body). */
  timeoutMs: number;
  /** The first retry's delay; doubled at each attempt, ±20 % jitter, at most an hour. */
  retryBaseMs: number;
  /** A delivery older than this that fails again is given up (`failed`), and the queue moves on. */
  retryWindowMs: number;
  /** An endpoint failing for longer than this when a delivery is given up is turned off, and its admins told. */
  disableAfterMs: number;
  /** How long a rotated-out secret keeps signing beside the new one. */
  secretGraceMs: number;
  /** How long deliveries and their attempts are kept. */
  logRetentionMs: number;
};

/** Endpoints one organization may register. */
export const MAX_ENDPOINTS_PER_ORGANIZATION = 50;
