/**
 * Counts requests per key in this process and sends the counts to the shared store in batches,
 * so that a request normally costs no round trip. Per key and window the instance keeps the
 * store's count as of its last answer (`known`) and what it admitted since (`pending`, then
 * `sending` while a batch is in flight); a request is admitted while known + sending + pending
 * stays under the limit.
 *
 * The bound. An instance's admissions reach the store within one sync interval, and sooner in a
 * burst: a batch leaves once half of `share` (5 % of the limit) is pending, and an instance never
 * holds more than `share` admissions the store has not confirmed — beyond that, requests for the
 * key wait for the store's answer. One instance alone therefore never exceeds the limit; across N
 * instances the count exceeds it by at most what they admit before their counts reach each other
 * through the store: no more than what they admit within one sync interval, and in a burst on
 * busy instances about N × share (plus what they admit during one store round trip).
 *
 * A limit under 1/SHARE_OF_LIMIT (or a sync interval of 0) is counted exactly instead: one store
 * round trip per admitted request, as a batch of even one request would be a large part of it.
 */
import { LRUCache } from 'lru-cache';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

const SHARE_OF_LIMIT = 0.05;

/** A verdict: the window's count including this request when admitted, and whether the store vouched for it. */
export type Take = { allowed: boolean; used: number; resetAt: number; confirmed: boolean };

type Entry = {
  known: number; // the store's count for the window at its last answer
  resetAt: number; // epoch ms the window ends, from the store (estimated until it answers)
  pending: number; // admitted here, not sent yet
  sending: number; // sent, not answered yet (a single batch in flight per key)
  flushing?: Promise<boolean>;
  confirmed: boolean; // the store has answered for this window
  ready?: Promise<void>; // the first lookup, shared by concurrent first requests
};

export function createSyncedCounter(store: RateLimiterAbstract, o: { limit: number; windowMs: number; syncMs: number; maxKeys: number; connected?: Promise<unknown> }) {
  const share = o.syncMs > 0 ? Math.floor(o.limit * SHARE_OF_LIMIT) : 0;
  // Keys beyond maxKeys push out the least recently used; their pending counts are sent on the way out.
  const entries = new LRUCache<string, Entry>({ max: o.maxKeys, dispose: (e, key, reason) => void (reason === 'evict' && flush(key, e)) });
  // After a failed store call, no store calls on a request's path (nor timed flushes) until this
  // time: requests are served on local counts instead of waiting for a store that is down.
  let downUntil = 0;
  let connecting = o.connected?.finally(() => (connecting = undefined)); // requests wait for the store's first connection
  const storeDown = () => void (downUntil = Date.now() + Math.max(o.syncMs, 1000));
  const learn = (e: Entry, res: RateLimiterRes | null) => {
    e.known = res?.consumedPoints ?? 0;
    if (res && res.msBeforeNext >= 0) e.resetAt = Date.now() + res.msBeforeNext;
    e.confirmed = true;
  };

  /** Sends the key's pending count (or waits for the batch in flight); never rejects, false when the store failed. */
  function flush(key: string, e: Entry): Promise<boolean> {
    if (e.sending > 0) return e.flushing!;
    const n = e.pending;
    if (n === 0 || Date.now() < downUntil) return Promise.resolve(n === 0);
    e.pending = 0;
    e.sending = n;
    return (e.flushing = store.penalty(key, n).then(
      (res) => ((e.sending = 0), learn(e, res), true),
      () => ((e.sending = 0), (e.pending += n), storeDown(), false), // kept for the next flush while its window lasts
    ));
  }

  function tick(): void {
    const now = Date.now();
    const stale: string[] = [];
    entries.forEach((e, key) => {
      if (e.resetAt <= now) stale.push(key); // the window is over, and with it what was not sent
      else if (e.pending > 0) void flush(key, e);
    });
    for (const key of stale) entries.delete(key);
  }
  const timer = share > 0 ? setInterval(tick, o.syncMs).unref() : undefined;

  /** One store call per request: for limits too small to batch. */
  async function exact(key: string, e: Entry): Promise<Take> {
    const verdict = (allowed: boolean) => ({ allowed, used: e.known, resetAt: e.resetAt, confirmed: e.confirmed });
    if (e.confirmed && e.known >= o.limit) return verdict(false); // counts only grow within a window
    if (Date.now() < downUntil) return { ...verdict(true), confirmed: false };
    try {
      learn(e, await store.penalty(key, 1));
      return verdict(e.known <= o.limit);
    } catch {
      storeDown();
      return { ...verdict(true), confirmed: false };
    }
  }

  return {
    async take(key: string): Promise<Take> {
      if (connecting) await connecting;
      let e = entries.get(key);
      if (!e || e.resetAt <= Date.now()) {
        e = { known: 0, resetAt: Date.now() + o.windowMs, pending: 0, sending: 0, confirmed: false };
        entries.set(key, e);
        // First sight in this window: ask the store, so that a fresh instance does not hand out a whole new budget.
        if (share > 0 && Date.now() >= downUntil) {
          const entry = e;
          e.ready = store.get(key).then((res) => learn(entry, res), storeDown).finally(() => (entry.ready = undefined));
        }
      }
      if (share === 0) return exact(key, e);
      if (e.ready) await e.ready;
      while (e.pending + e.sending >= share) if (!(await flush(key, e))) break; // a burst waits for the store
      const used = e.known + e.sending + e.pending;
      if (used >= o.limit) return { allowed: false, used, resetAt: e.resetAt, confirmed: e.confirmed };
      e.pending += 1;
      if (e.pending * 2 >= share && e.sending === 0) void flush(key, e);
      return { allowed: true, used: used + 1, resetAt: e.resetAt, confirmed: e.confirmed };
    },
    /**
     * take() when it needs no waiting — a known key in its window, counted in batches, with room
     * before its batch must wait for the store — and an admission; otherwise undefined, with
     * nothing counted (take() decides then).
     */
    takeNow(key: string): Take | undefined {
      const e = share > 0 && !connecting ? entries.get(key) : undefined;
      if (!e || e.ready || e.resetAt <= Date.now() || e.pending + e.sending >= share) return undefined;
      const used = e.known + e.sending + e.pending;
      if (used >= o.limit) return undefined;
      e.pending += 1;
      if (e.pending * 2 >= share && e.sending === 0) void flush(key, e);
      return { allowed: true, used: used + 1, resetAt: e.resetAt, confirmed: e.confirmed };
    },
    /** Stops the timer and sends what is pending, waiting at most timeoutMs. */
    async close(timeoutMs: number): Promise<void> {
      clearInterval(timer);
      const current = [...entries.entries()].filter(([, e]) => e.resetAt > Date.now());
      const sent = Promise.all(current.map(async ([key, e]) => (await flush(key, e)) && flush(key, e))); // the batch in flight, then the rest
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([sent, new Promise((resolve) => (wait = setTimeout(resolve, timeoutMs).unref()))]);
      clearTimeout(wait);
    },
  };
}
