/**
 * The outbox dispatcher's ear: a dedicated PostgreSQL connection that LISTENs on the outbox
 * channel (plain PostgreSQL: the embedded one too) and passes each notification on. When the
 * connection breaks it is opened again, after 1 s and then up to 30 s between attempts; the
 * dispatcher's poll covers what is said meanwhile (`reconnected` tells it to look at once).
 * `listening` is told each time LISTEN holds (from then on no notification is missed), `lost`
 * each time it stops holding (notifications may be missed until `listening` again): a cache
 * invalidated by notifications (published/cache/) serves only in between.
 */
import pg from 'pg';
import type { OutageLog } from './outage-log.js';

export type OutboxListener = { close(): Promise<void> };

export function listenToOutbox(
  connectionString: string,
  channel: string,
  on: { notified(payload: string): void; reconnected(): void; listening?(): void; lost?(): void },
  outage: OutageLog,
): OutboxListener {
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = 1000;
  let timer: NodeJS.Timeout | undefined;

  const retry = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void open();
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, 30_000);
  };

  async function open(): Promise<void> {
    const next = new pg.Client({ connectionString });
    client = next;
    const lost = (error: Error) => {
      if (client !== next) return;
      client = undefined;
      next.removeAllListeners('end');
      void next.end().catch(() => {});
      if (closed) return;
      on.lost?.();
      outage.failed('listen', error);
      retry();
    };
    next.on('error', lost);
    next.on('end', () => lost(new Error('connection closed')));
    next.on('notification', (message) => message.channel === channel && on.notified(message.payload ?? ''));
    try {
      await next.connect();
      await next.query(`LISTEN "${channel}"`);
    } catch (error) {
      return lost(error as Error);
    }
    if (closed) return void next.end().catch(() => {});
    on.listening?.();
    if (retryMs > 1000) {
      outage.recovered();
      on.reconnected();
    }
    retryMs = 1000;
  }

  void open();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const open = client;
      client = undefined;
      if (!open) return;
      open.removeAllListeners('end');
      open.on('error', () => {});
      await open.end().catch(() => {});
    },
  };
}
