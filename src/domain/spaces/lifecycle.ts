/** A space's life: live, then deleted (in the trash, restorable), then past retention (purged). */

/** Deleted spaces stay visible (and restorable) for this long, then are purged. */
export const TRASH_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export function isPastRetention(space: { deletedAt: Date | null }, now = Date.now()): boolean {
  return !!space.deletedAt && now - space.deletedAt.getTime() > TRASH_RETENTION_MS;
}

export function isLive(space: { deletedAt: Date | null }): boolean {
  return !space.deletedAt;
}
