/**
 * Where a write comes from: the client's address and user agent of the HTTP request (or WebSocket
 * operation) that made it, and its entry point. Every event a write records (kernel/outbox.ts
 * `recordEvents`) carries it, so the audit log (domain/audit) says who, from where.
 *
 * A transport puts it on the caller's Access (`access.from`, http/request-context.ts), and a write
 * opens its transaction with it (`transactionFrom`; guardedWrite for most writes); the outbox
 * reads it from the transaction. The CLI sets one for its whole process; jobs run without.
 *
 * Passed along rather than ambient: an AsyncLocalStorage would turn on Node's promise hooks for
 * the rest of the process on Node 20 and 22 (every promise of every request pays for them, ~5% of
 * a read's CPU measured), where Node 24's AsyncContextFrame costs nothing.
 */

/** The entry points of the public document's `AuditEvent.source` quire has: the API, its own pages (invitations, SSO), the CLI, jobs. */
export type OriginSource = 'api' | 'ui' | 'script' | 'workflow';

export type RequestOrigin = { source: OriginSource; clientAddress: string | null; userAgent: string | null };

import type { Db } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';

/** At most this much of a user agent is kept. */
const USER_AGENT_CHARS = 512;

/** The origin of each open transaction that was given one (a transaction client is an object per transaction). */
const transactions = new WeakMap<object, RequestOrigin>();
let processOrigin: RequestOrigin | null = null;

export const requestOrigin = {
  /** An origin as recorded: its user agent cut to a bounded length. */
  of(source: OriginSource, clientAddress: string | null, userAgent: string | null | undefined): RequestOrigin {
    return { source, clientAddress, userAgent: userAgent?.slice(0, USER_AGENT_CHARS) ?? null };
  },
  /** The origin of everything this process does outside a request (the CLI: `script`). */
  setForProcess(origin: RequestOrigin | null): void {
    processOrigin = origin;
  },
  /** The origin of what `tx` writes; null for jobs and the server's own work. */
  ofTransaction: (tx: object): RequestOrigin | null => transactions.get(tx) ?? processOrigin,
};

/** `db.$transaction(work, options)`, what it writes recorded as coming from `origin` (none: the process's). */
export function transactionFrom<T>(db: Db, origin: RequestOrigin | null | undefined, work: (tx: Prisma.TransactionClient) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T> {
  return db.$transaction((tx) => {
    if (origin) transactions.set(tx, origin);
    return work(tx);
  }, options);
}
