/**
 * Where the write being made comes from: the client's address and user agent of the HTTP request
 * (or WebSocket operation) that made it, and its entry point. Transports set it around the work of
 * a request (app.ts, http/graphql-ws.ts), the CLI for its whole run; jobs run without one. Every
 * event a write records (kernel/outbox.ts `recordEvents`) carries it, so the audit log
 * (domain/audit) says who, from where, without a command having to pass it along.
 *
 * Ambient (AsyncLocalStorage) rather than an argument: the events are recorded many calls below
 * the transport, by commands that never see a request, and must stay so (a domain command takes
 * no HTTP object).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The entry points of the public document's `AuditEvent.source` quire has: the API, its own pages (invitations, SSO), the CLI, jobs. */
export type OriginSource = 'api' | 'ui' | 'script' | 'workflow';

export type RequestOrigin = { source: OriginSource; clientAddress: string | null; userAgent: string | null };

/** At most this much of a user agent is kept. */
const USER_AGENT_CHARS = 512;

const store = new AsyncLocalStorage<RequestOrigin>();
let processOrigin: RequestOrigin | null = null;

export const requestOrigin = {
  /** Runs `work` (and all it starts) as coming from `origin`. */
  run<T>(origin: RequestOrigin, work: () => T): T {
    return store.run({ ...origin, userAgent: origin.userAgent?.slice(0, USER_AGENT_CHARS) ?? null }, work);
  },
  /** The origin of everything this process does outside a request (the CLI: `script`). */
  setForProcess(origin: RequestOrigin | null): void {
    processOrigin = origin;
  },
  /** The current origin; null for jobs and the server's own work. */
  current: (): RequestOrigin | null => store.getStore() ?? processOrigin,
};
