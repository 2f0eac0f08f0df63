/** What every resolver receives: the database, the caller, request-scoped loaders and access checks. */
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { createLoaders, type Loaders } from '../domain/loaders/index.js';
import { Access, type TokenOrigin } from '../domain/access/access.js';
import type { EventBus } from '../events/bus.js';
import type { RequestOrigin } from '../domain/kernel/request-origin.js';
import { createMailer, type Mailer } from '../domain/people/mail/index.js';
import { silentLogger } from '../observability/logger.js';

/** The caller: the token's holder (see TokenHolder; without the SSO and reach facts, a caller bound to no SSO whose token reaches all of its organizations). */
export type Viewer = TokenOrigin & { userId: string };

export type Context = {
  db: Db;
  config: Config;
  viewer: Viewer;
  loaders: Loaders;
  access: Access;
  events: EventBus;
  mailer: Mailer;
};

/** What every request shares: the database, the settings, the event bus and the outgoing mail (logged only, when not given). */
export type Services = { db: Db; config: Config; events: EventBus; mailer?: Mailer };

const LOGGED_ONLY = createMailer({ logger: silentLogger() });

/** `from`: where the request comes from (its writes record it); null outside a request. */
export function createContext({ db, config, events, mailer = LOGGED_ONLY }: Services, viewer: Viewer, from: RequestOrigin | null = null): Context {
  const loaders = createLoaders(db, viewer.userId, viewer);
  return { db, config, viewer, loaders, access: new Access(loaders, viewer.userId, viewer, from), events, mailer };
}

/** After a write the request's caches predate it: forget them so the refetched result is computed afresh. */
export function forgetLoaded(ctx: Context): void {
  ctx.loaders.forgetAll();
}
