/** What every resolver receives: the database, the caller, request-scoped loaders and access checks. */
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { createLoaders, type Loaders } from '../domain/loaders/index.js';
import { Access } from '../domain/access/access.js';

export type Viewer = { userId: string };

export type Context = {
  db: Db;
  config: Config;
  viewer: Viewer;
  loaders: Loaders;
  access: Access;
};

export function createContext(db: Db, config: Config, viewer: Viewer): Context {
  const loaders = createLoaders(db, viewer.userId);
  return { db, config, viewer, loaders, access: new Access(loaders, viewer.userId) };
}

/** After a write the request's caches predate it: forget them so the refetched result is computed afresh. */
export function forgetLoaded(ctx: Context): void {
  ctx.loaders.forgetAll();
}
