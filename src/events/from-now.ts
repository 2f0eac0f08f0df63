/**
 * "From now on" for a subscription to an organization's events: an event whose write committed
 * before the subscription began is left out, though the dispatcher may deliver it after (delivery
 * follows the commit by milliseconds, or by a poll's seconds when a notification was lost).
 *
 * Outbox IDs are random and `seq` is taken at insert, not at commit, so neither orders events by
 * commit. PostgreSQL's snapshots do: the subscription starts listening, then takes one
 * (`pg_current_snapshot()`); an event's writing transaction (`xid`, recorded with each outbox
 * row) that this snapshot sees as committed came before. Every event committed after the snapshot
 * is dispatched after it too, so after the listening began: none is missed.
 */
import type { Db } from '../db/client.js';

/** A snapshot as `pg_snapshot`'s text, `xmin:xmax:xip,…`: what it sees as committed. */
type Snapshot = { xmax: bigint; running: Set<bigint> };

function parseSnapshot(text: string): Snapshot {
  const [, xmax, running = ''] = text.split(':');
  return { xmax: BigInt(xmax), running: new Set(running ? running.split(',').map(BigInt) : []) };
}

/** Whether a committed transaction `xid` had committed when the snapshot was taken (as pg_visible_in_snapshot says). */
function committedBefore(snapshotText: string): (xid: string | null) => boolean {
  const snapshot = parseSnapshot(snapshotText);
  return (xid) => {
    if (xid === null) return false; // recorded before the outbox kept the transaction: delivered
    const id = BigInt(xid);
    return id < snapshot.xmax && !snapshot.running.has(id);
  };
}

export async function currentSnapshot(db: Db): Promise<string> {
  const [row] = await db.$queryRaw<{ snapshot: string }[]>`SELECT pg_current_snapshot()::text AS "snapshot"`;
  return row.snapshot;
}

/**
 * `source`'s events from now on: listens first (the first `next` starts a pubsub subscription),
 * then takes the snapshot, then skips what it saw committed. Ended (`return`) at any time, also
 * while waiting for an event.
 */
export async function fromNow<T extends { xid: string | null }>(source: AsyncIterable<T>, snapshot: () => Promise<string>): Promise<AsyncIterableIterator<T>> {
  const iterator = source[Symbol.asyncIterator]();
  let first: Promise<IteratorResult<T>> | undefined = iterator.next();
  let before: (xid: string | null) => boolean;
  try {
    before = committedBefore(await snapshot());
  } catch (error) {
    await iterator.return?.();
    throw error;
  }
  const fenced: AsyncIterableIterator<T> = {
    async next() {
      for (;;) {
        const result = await (first ?? iterator.next());
        first = undefined;
        if (result.done || !before(result.value.xid)) return result;
      }
    },
    return: async (value?: unknown) => (await iterator.return?.(value)) ?? { done: true, value: undefined },
    [Symbol.asyncIterator]: () => fenced,
  };
  return fenced;
}
