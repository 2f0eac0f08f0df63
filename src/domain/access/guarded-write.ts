/**
 * Writes guarded by a role check. The check is made twice: first on the request's loaders (a
 * 404/403 without opening a transaction, and the rows that name the organizations to lock), then
 * again inside the write's transaction, through its own reads, under the organization's access
 * lock. A right taken away while the request was in
 * flight is therefore refused, never served on a stale check.
 *
 * The access lock is a transaction-scoped advisory lock per organization. Writes that change who
 * may do what (`'change'`: roles, member removal, grants, team memberships and deletion, a
 * content's default level, moves, transfers and collection deletion, which change the
 * collections above content) hold it exclusively; every other guarded write (`'use'`) holds it
 * shared, so those run side by side and wait only for a change of access to commit. Once a
 * write holds the lock no move can change the tree under it, so the parents it locks next
 * (`parents`, from the rows its check read inside) are the current ones. Locks are always taken
 * in the same order — access locks by organization ID, then parents (lockParents) — so writers
 * cannot deadlock on them. A transaction PostgreSQL still aborts (a deadlock elsewhere, a
 * serialization failure, no connection in time) is retried; one that keeps failing is a 409
 * asking to try again, never a 500.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';
import { hasSqlState } from '../../db/unavailable.js';
import { lockParents, type TreeParent } from '../content/content-tree/transaction.js';
import { conflict } from '../../lib/errors.js';
import { createLoaders } from '../loaders/index.js';
import { transactionFrom } from '../kernel/request-origin.js';
import { Access } from './access.js';
import type { OrganizationAction } from './capabilities.js';

type Tx = Prisma.TransactionClient;

export type Guard<Checked> = {
  access: Access;
  /** Organizations whose access the write depends on (a transfer: both), or how the check's first result names them. */
  organizations: readonly string[] | ((checked: Checked) => readonly string[]);
  mode: 'use' | 'change';
  /** The role check; its result (the rows it read) is handed to the write. */
  check: (access: Access) => Promise<Checked>;
  /** Parents in the content tree the write changes, locked after the check. */
  parents?: (checked: Checked) => readonly TreeParent[];
  /** How long the transaction may take, in ms (30 s unless given: a bulk import's takes longer). */
  timeoutMs?: number;
};

/** Holds the access locks of `organizationIds` until the transaction ends. */
export async function lockAccess(tx: Tx, organizationIds: readonly string[], mode: Guard<unknown>['mode']): Promise<void> {
  for (const id of [...new Set(organizationIds)].sort()) {
    const key = `access:${id}`;
    if (mode === 'change') await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
    else await tx.$executeRaw`SELECT pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`;
  }
}

/** The same caller, reading through `tx`: fresh loaders, no cache of the request. */
function accessWithin(tx: Tx, access: Access): Access {
  // Loaders only read; a transaction client reads like the client it came from.
  return new Access(createLoaders(tx as unknown as Db, access.userId, access.origin), access.userId, access.origin, access.from);
}

const ATTEMPTS = 4;

/** Aborted by PostgreSQL for reasons another attempt may not meet: deadlock, serialization, start timeout. */
function isTransient(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'P2034' || code === 'P2028' || hasSqlState(error, '40001') || hasSqlState(error, '40P01');
}

/** Runs `work` in one transaction, after the guard's lock and check (and parents' locks) inside it. */
export async function guardedWrite<Checked, T>(db: Db, guard: Guard<Checked>, work: (tx: Tx, checked: Checked) => Promise<T>): Promise<T> {
  const first = await guard.check(guard.access);
  const organizations = typeof guard.organizations === 'function' ? guard.organizations(first) : guard.organizations;
  for (let attempt = 1; ; attempt++) {
    try {
      // Writers queue on the locks: the wait counts towards the timeout.
      return await transactionFrom(
        db,
        guard.access.from,
        async (tx) => {
          await lockAccess(tx, organizations, guard.mode);
          const checked = await guard.check(accessWithin(tx, guard.access));
          if (guard.parents) await lockParents(tx, guard.parents(checked));
          return work(tx, checked);
        },
        { maxWait: 10_000, timeout: guard.timeoutMs ?? 30_000 },
      );
    } catch (error) {
      if (!isTransient(error)) throw error;
      if (attempt === ATTEMPTS) throw conflict('This content is being changed by another request; try again');
      await sleep(20 * attempt + Math.random() * 50);
    }
  }
}

/**
 * A write whose right is an organization role (capabilities.ts `ORGANIZATION_RULES[action]`):
 * checked before and inside the transaction, under the organization's shared access lock.
 */
export function organizationWrite<T>(db: Db, access: Access, organizationId: string, action: OrganizationAction, work: (tx: Tx) => Promise<T>): Promise<T> {
  return guardedWrite(db, { access, organizations: [organizationId], mode: 'use', check: (a) => a.requireOrganization(organizationId, action) }, work);
}
