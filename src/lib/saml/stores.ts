/**
 * The state a SAML service provider keeps between requests. Both are async so they can be backed
 * by PostgreSQL; both must be atomic under concurrency (two ACS posts of the same response race).
 */

/** IDs of the AuthnRequests we issued, so that a response's `InResponseTo` can be checked once. */
export interface RequestIdStore {
  /** Remembers `id` until `expiresAt`. */
  save(id: string, expiresAt: Date): Promise<void>;
  /**
   * Removes `id` and answers true when it was present and not expired; false otherwise.
   * (SQL: `DELETE … WHERE id = $1 AND expires_at > now() RETURNING 1`.)
   */
  consume(id: string): Promise<boolean>;
}

/** IDs of assertions already accepted: a bearer assertion may be used only once. */
export interface ReplayStore {
  /**
   * Answers true when `id` was already recorded; otherwise records it until `expiresAt` (after
   * which the assertion is refused as expired anyway) and answers false.
   * (SQL: `INSERT … ON CONFLICT DO NOTHING`, seen = no row inserted; purge rows past expiry.)
   */
  seen(id: string, expiresAt: Date): Promise<boolean>;
}
