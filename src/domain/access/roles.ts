/** The role lattice: admin > create > review > edit > comment > read; null is "no role" (guest). */
import { z } from 'zod';
import type { Role } from '../../generated/prisma/enums.js';
import { lazySchema } from '../../lib/validation.js';

export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const satisfies readonly Role[];
export type { Role };

export const roleSchema = lazySchema(() => z.enum(ROLES));

const RANK: Record<Role, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 };

export function rank(role: Role | null | undefined): number {
  return role ? RANK[role] : 0;
}

export function atLeast(role: Role | null | undefined, min: Role): boolean {
  return rank(role) >= RANK[min];
}

export function highest(roles: Iterable<Role | null | undefined>): Role | null {
  let best: Role | null = null;
  for (const r of roles) if (rank(r) > rank(best)) best = r ?? null;
  return best;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
