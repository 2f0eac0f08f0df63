/**
 * The published sites' cache, one per app. Revisions are immutable, so a page's bytes depend only
 * on the site's state (site-state.ts: its row, structure, spaces' current revisions) and the
 * visitor: the state is remembered per site, and pages are remembered under the state's stamp.
 *
 * Invalidation is exact, on every instance: triggers (migration
 * `published_change_notifications`) notify the channel `quire_published` with the ID of a site
 * whose state a committed write changed, and each app LISTENs on it (events/outbox-listener.ts)
 * and forgets that site's state; its pages, keyed by the old stamp, are then never asked for
 * again and age out. The cache serves only while LISTEN holds: before it is established, and
 * whenever its connection is lost, nothing is remembered (every request reads the database), as a
 * notification might be missed; when it holds again everything is forgotten first.
 *
 * Bounded: states by count, pages by bytes (least recently used go first).
 */
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { poolOf, type Db } from '../../db/client.js';
import { listenToOutbox, type OutboxListener } from '../../events/outbox-listener.js';
import { createOutageLog } from '../../events/outage-log.js';
import { silentLogger, type Logger } from '../../observability/logger.js';
import { compress, type Encoding } from '../../http/content-encoding.js';
import { loadSiteState, type SiteState } from './site-state.js';

export const PUBLISHED_CHANNEL = 'quire_published';
/** Notifications that are marks of caughtUp() start with this (site IDs never do). */
const MARK = '~';

/**
 * A page as sent: its bytes once encoded, and the headers it is sent with; `encoded`, its
 * compressed forms, each made on the first request that accepts it and kept with the page.
 */
export type CachedPage = {
  status: number;
  body: Buffer;
  type: string;
  etag?: string;
  cache: string;
  encoded: Partial<Record<Encoding, Buffer>>;
  /** The headers of each answer sent from memory (published/kept-answer.ts), built on first use. */
  heads?: Partial<Record<Encoding | 'identity' | 'notModified', readonly string[]>>;
};

export type PublishedCache = {
  /** The site's current state (null: no such site), from memory while the cache serves. */
  state(siteId: string): Promise<SiteState | null>;
  /** The site's state when it is in memory now (and the cache serves): what a kept page's answer needs, without waiting. */
  stateNow(siteId: string): SiteState | undefined;
  page(key: string): CachedPage | undefined;
  rememberPage(key: string, page: CachedPage): void;
  /** The page's body compressed as `encoding`: kept with the page (and counted in its weight) once made. */
  encodedBody(key: string, page: CachedPage, encoding: Encoding): Promise<Buffer>;
  /**
   * Resolves once this instance has heard every notification committed before the call: a
   * mutation waits for it before answering (http/read-your-writes.ts), so that whoever made a
   * write sees it on the next request to this instance, however late the notification travels.
   */
  caughtUp(): Promise<void>;
  /** Forgets the site's state (a notification about it came). */
  invalidate(siteId: string): void;
  /** Whether notifications are heard, so that what is remembered may be served. */
  readonly serving: boolean;
  /** Entries held now (for tests and metrics). */
  readonly size: { states: number; pages: number; pageBytes: number };
  close(): Promise<void>;
};

export type PublishedCacheOptions = {
  /** Bytes of pages kept (QUIRE_PUBLISHED_CACHE_MB); 0 keeps none. */
  maxPageBytes: number;
  /** Site states kept. */
  maxSites?: number;
  /** How long caughtUp() waits for its own notification before forgetting everything instead (2 s). */
  catchUpMs?: number;
  logger?: Logger;
};

/**
 * The key of a page's answer: the state it was rendered from (its stamp), where the site answers,
 * the URL's segments and the visitor (claims, share key). Previews are never cached.
 */
export const pageKey = (state: SiteState, sitePath: string, segments: readonly string[], visitor: { claims: Record<string, unknown>; shareKey?: string }) =>
  JSON.stringify([state.stamp, sitePath, segments, visitor.claims, visitor.shareKey ?? null]);

export function createPublishedCache(db: Db, opts: PublishedCacheOptions): PublishedCache {
  const logger = opts.logger ?? silentLogger();
  const states = new LRUCache<string, SiteState>({ max: opts.maxSites ?? 10_000 });
  const weightOf = (p: CachedPage, key: string) => p.body.length + (p.encoded.gzip?.length ?? 0) + (p.encoded.br?.length ?? 0) + key.length + 200;
  const pages = opts.maxPageBytes > 0 ? new LRUCache<string, CachedPage>({ maxSize: opts.maxPageBytes, sizeCalculation: weightOf }) : undefined;
  // Compressions in flight, shared by the requests that wait for the same form of the same page.
  const encoding = new WeakMap<CachedPage, Partial<Record<Encoding, Promise<Buffer>>>>();
  // Loads in flight, shared by the requests that wait for the same site.
  const loading = new Map<string, Promise<SiteState | null>>();
  let serving = false;
  // Bumped by every invalidation: a load that began before one is used once, never remembered.
  let epoch = 0;

  const forgetAll = () => {
    epoch++;
    states.clear();
    pages?.clear();
    loading.clear();
  };

  const connectionString = poolOf(db)?.options.connectionString;
  const outage = createOutageLog(logger, { name: 'The published-site notifications', impact: 'published pages are read from the database on every request' });
  const listener: OutboxListener | undefined = connectionString
    ? listenToOutbox(
        connectionString,
        PUBLISHED_CHANNEL,
        {
          notified: (payload) => (payload.startsWith(MARK) ? marks.get(payload)?.() : invalidate(payload)),
          reconnected: () => {},
          listening: () => ((serving = true), forgetAll()),
          lost: () => ((serving = false), forgetAll()),
        },
        outage,
      )
    : undefined;

  // PostgreSQL delivers a listener's notifications in commit order: once a mark notified now is
  // heard, so is every notification committed before it.
  const marks = new Map<string, () => void>();
  async function caughtUp(): Promise<void> {
    // Nothing remembered or being loaded: no late notification can leave a stale answer here, and
    // the mutation costs no statement (a server that serves no published site never waits).
    if (!serving || (states.size === 0 && loading.size === 0)) return;
    const mark = `${MARK}${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      marks.set(mark, () => resolve(true));
      timer = setTimeout(() => resolve(false), opts.catchUpMs ?? 2000);
    });
    try {
      await db.$executeRaw`SELECT pg_notify(${PUBLISHED_CHANNEL}, ${mark})`;
      if (!(await heard)) forgetAll();
    } finally {
      clearTimeout(timer);
      marks.delete(mark);
    }
  }

  function invalidate(siteId: string): void {
    epoch++;
    states.delete(siteId);
    loading.delete(siteId);
  }

  async function state(siteId: string): Promise<SiteState | null> {
    if (!serving) return loadSiteState(db, siteId);
    const known = states.get(siteId) ?? loading.get(siteId);
    if (known) return known;
    const began = epoch;
    const load = loadSiteState(db, siteId).finally(() => loading.get(siteId) === load && loading.delete(siteId));
    loading.set(siteId, load);
    const loaded = await load;
    if (loaded && serving && epoch === began) states.set(siteId, loaded);
    return loaded;
  }

  return {
    state,
    stateNow: (siteId) => (serving ? states.get(siteId) : undefined),
    caughtUp,
    page: (key) => (serving ? pages?.get(key) : undefined),
    rememberPage(key, page) {
      if (serving) pages?.set(key, page);
    },
    encodedBody(key, page, as) {
      const made = page.encoded[as];
      if (made) return Promise.resolve(made);
      const pending = encoding.get(page) ?? {};
      encoding.set(page, pending);
      return (pending[as] ??= compress(page.body, as).then((body) => {
        page.encoded[as] = body;
        // Weighed again with its new form, if it is still kept.
        if (pages?.peek(key) === page) pages.set(key, page);
        return body;
      }).finally(() => delete pending[as]));
    },
    invalidate,
    get serving() {
      return serving;
    },
    get size() {
      return { states: states.size, pages: pages?.size ?? 0, pageBytes: pages?.calculatedSize ?? 0 };
    },
    async close() {
      serving = false;
      forgetAll();
      await listener?.close();
    },
  };
}
