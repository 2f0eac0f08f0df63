/**
 * The outbox dispatcher: delivers committed events (kernel/outbox.ts) to every consumer, at
 * least once. Each process with subscribers to tell — the server, and a worker with Redis —
 * runs one. It listens on the outbox channel (outbox-listener.ts) and, as a fallback for lost
 * notifications and dead processes, polls every `pollMs`.
 *
 * A dispatch claims undispatched rows oldest first in a transaction (`FOR UPDATE SKIP LOCKED`:
 * instances never wait for each other, and never take the same row at once), hands them to every
 * consumer, marks them dispatched and commits. A consumer that fails, or a process that dies
 * before the commit, leaves the rows undispatched: they come again, with the same IDs.
 *
 * Who dispatches what: a notification names the dispatcher of the writing app (started over the
 * same database client) or process (`outboxOrigin`), which takes those rows at once — so without Redis, a write still reaches the
 * subscribers of the instance that made it, as it always did; a notification naming none (the
 * CLI, a worker without Redis) is taken by whichever dispatcher claims first. The poll takes any
 * row left waiting longer than `graceMs`. Dispatched rows are deleted after the retention period, audit rows after theirs.
 */
import { randomUUID } from 'node:crypto';
import { Prisma } from '../generated/prisma/client.js';
import { poolOf, type Db } from '../db/client.js';
import { OUTBOX_CHANNEL, outboxOrigin, parseNotification } from '../domain/kernel/outbox.js';
import { silentLogger, type Logger } from '../observability/logger.js';
import { createOutageLog } from './outage-log.js';
import type { OutboxConsumer, OutboxEventRow } from './outbox-consumer.js';
import { listenToOutbox, type OutboxListener } from './outbox-listener.js';
import { deleteDispatchedEvents } from './outbox-retention.js';
import { rawPool } from './raw-sql.js';
import { deleteExpiredAuditEvents } from '../domain/audit/record.js';

export type OutboxDispatcherOptions = {
  /** The database (its connection string: the dispatcher opens two connections of its own). */
  db: Db;
  consumers: readonly OutboxConsumer[];
  logger?: Logger;
  /** How often it looks for rows no notification brought (1 s). */
  pollMs?: number;
  /** How long a row waits for the dispatcher its notification named before any may take it (5 s). */
  graceMs?: number;
  /** Rows per claim (100). */
  batch?: number;
  /** How long dispatched rows are kept (QUIRE_OUTBOX_RETENTION_DAYS); swept hourly. */
  retentionMs: number;
  /** How long audit rows are kept (QUIRE_AUDIT_RETENTION_DAYS); swept with the outbox. */
  auditRetentionMs?: number;
};

export type OutboxDispatcher = {
  /** The name notifications use for this dispatcher (see kernel/outbox.ts `outboxOrigin`). */
  readonly tag: string;
  /** Claims and delivers what is waiting now (the named rows, or any past the grace period). */
  dispatch(what?: { ids?: readonly string[]; waitingMs?: number }): Promise<number>;
  /** Deletes dispatched rows, and audit rows, past their retention periods; answers how many. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
};

const SWEEP_EVERY_MS = 3600_000;
/** A claim's statements: the consumers' writes included (a webhook consumer enqueues its deliveries). */
const CLAIM_LIMITS = { timeoutMs: 30_000 };

type Claim = { ids?: readonly string[]; waitingMs?: number };

/** Starts a dispatcher; null when the database has no connection string to open one with (a test double). */
export function startOutboxDispatcher(opts: OutboxDispatcherOptions): OutboxDispatcher | null {
  const connectionString = poolOf(opts.db)?.options.connectionString;
  if (!connectionString) return null;
  const logger = opts.logger ?? silentLogger();
  const pollMs = opts.pollMs ?? 1000;
  const graceMs = opts.graceMs ?? 5000;
  const batch = opts.batch ?? 100;
  const tag = randomUUID();
  const outage = createOutageLog(logger, { name: 'The outbox dispatcher', impact: 'events are delivered once the database answers again' });
  // One connection claims (consumers write through it in the claim's transaction), one listens.
  // Raw SQL, not a Prisma client of its own: that would hold a second copy of Prisma's query graph.
  const db = rawPool(connectionString, { max: 1, onConnectionLost: (error) => outage.failed('connection', error) });
  const withdraw = outboxOrigin.register(tag, opts.db);
  let stopped = false;

  /** One claim: up to `batch` rows, delivered and marked in one transaction. */
  async function claimOnce({ ids, waitingMs }: Claim): Promise<number> {
    return db.transaction(async (tx) => {
      const which = ids ? Prisma.sql`AND "id" = ANY(${[...ids]}::text[])` : Prisma.sql`AND "createdAt" <= now() - make_interval(secs => ${(waitingMs ?? 0) / 1000})`;
      const rows = await tx.$queryRaw<OutboxEventRow[]>`
        SELECT "id", "seq", "xid"::text AS "xid", "kind", "organizationId", "subjectId", "spaceId", "siteId", "actorId", "data", "createdAt", "clientAddress", "userAgent", "source"
        FROM "OutboxEvent" WHERE "dispatchedAt" IS NULL ${which}
        ORDER BY "seq" LIMIT ${batch} FOR UPDATE SKIP LOCKED`;
      if (!rows.length) return 0;
      for (const consumer of opts.consumers) await consumer.consume(rows, tx);
      await tx.$executeRaw`UPDATE "OutboxEvent" SET "dispatchedAt" = now() WHERE "id" = ANY(${rows.map((r) => r.id)}::text[])`;
      return rows.length;
    }, CLAIM_LIMITS);
  }

  // Dispatches run one at a time; what is asked meanwhile waits for the next round.
  let running: Promise<number> | undefined;
  const named = new Set<string>();
  let oldest: number | undefined; // the shortest wait asked of an unnamed claim
  let failing = false;

  /** Claims until nothing asked for is left; a failure leaves the rest to the next poll. */
  async function drain(): Promise<number> {
    let total = 0;
    while (!stopped && (named.size || oldest !== undefined)) {
      const ids = [...named];
      const waitingMs = oldest;
      named.clear();
      oldest = undefined;
      try {
        for (let i = 0; i < ids.length; i += batch) total += await claimOnce({ ids: ids.slice(i, i + batch) });
        for (let n = batch; waitingMs !== undefined && n === batch && !stopped; ) total += n = await claimOnce({ waitingMs });
        outage.recovered();
        failing = false;
      } catch (error) {
        if (!stopped) outage.failed('dispatch', error as Error);
        for (const id of ids) named.add(id);
        failing = true;
        break;
      }
    }
    return total;
  }

  /** Asks for a claim; answers how many rows the round that serves it delivered. */
  function dispatch(what: Claim = {}): Promise<number> {
    if (what.ids?.length) for (const id of what.ids) named.add(id);
    else oldest = Math.min(oldest ?? Infinity, what.waitingMs ?? 0);
    return round();
  }

  /** The running round (which takes what was just asked before it ends: drain loops until none is left), or a new one. */
  function round(): Promise<number> {
    running ??= drain().finally(() => {
      running = undefined;
      // Asked for between the round's last look and its end; after a failure, the poll retries.
      if (!stopped && !failing && (named.size || oldest !== undefined)) void round();
    });
    return running;
  }

  const listener: OutboxListener = listenToOutbox(
    connectionString,
    OUTBOX_CHANNEL,
    {
      notified(payload) {
        const { tag: addressee, ids } = parseNotification(payload);
        if (addressee && addressee !== tag) return; // another dispatcher's; the poll takes it if it does not
        void dispatch(ids.length ? { ids } : {}); // too many to name: the oldest waiting
      },
      // What was notified while it was away is taken by the poll, after the grace period.
      reconnected: () => void dispatch({ waitingMs: graceMs }),
    },
    outage,
  );

  const poll = setInterval(() => void dispatch({ waitingMs: graceMs }), pollMs);
  poll.unref();
  async function sweep(): Promise<number> {
    try {
      const audit = opts.auditRetentionMs === undefined ? 0 : await deleteExpiredAuditEvents(db, opts.auditRetentionMs);
      return audit + (await deleteDispatchedEvents(db, opts.retentionMs));
    } catch (error) {
      if (!stopped) outage.failed('retention sweep', error as Error);
      return 0;
    }
  }
  // At start (an instance restarted often must sweep too), then hourly.
  const sweeper = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  sweeper.unref();
  void sweep();
  void dispatch({ waitingMs: graceMs });

  return {
    tag,
    dispatch: (what) => dispatch(what),
    sweep,
    async stop() {
      if (stopped) return;
      stopped = true;
      withdraw();
      clearInterval(poll);
      clearInterval(sweeper);
      await listener.close();
      await running?.catch(() => 0);
      await db.end();
    },
  };
}
