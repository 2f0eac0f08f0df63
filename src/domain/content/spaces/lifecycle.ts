import { Prisma } from '../../../generated/prisma/client.js';

/** A space's life: live, then deleted (in the trash, restorable), then past retention (purged; see access/role-sql.ts). */

/** Deleted spaces stay visible (and restorable) for this long, then are purged. */
export const TRASH_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export function isLive(space: { deletedAt: Date | null }): boolean {
  return !space.deletedAt;
}

/** Live spaces, as a Prisma filter. */
export const LIVE = { deletedAt: null } as const satisfies Prisma.SpaceWhereInput;

/** Live spaces, as SQL about the space row `alias`. */
export const liveSql = (alias: string): Prisma.Sql => Prisma.raw(`${alias}."deletedAt" IS NULL`);
