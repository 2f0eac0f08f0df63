/** What the published-site handlers share: the database, the settings and the logger (serve.ts hands it to each reply). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Logger } from '../observability/logger.js';
import type { Access } from '../domain/access/access.js';
import type { PublishedCache } from './cache/published-cache.js';

/**
 * `accessOf`: a user's access, to honour their preview links (none: previews are not served);
 * `cache`: the app's published cache (none: every request reads the database);
 * `compress`: compresses the answer about to be written when the client accepts it (the app's
 * compression), for every answer but a kept page's, which is sent as kept (serve.ts).
 */
export type PublishedDeps = {
  db: Db;
  config: Config;
  logger: Logger;
  accessOf?: (userId: string) => Access;
  cache?: PublishedCache;
  compress?: (req: IncomingMessage, res: ServerResponse) => void;
};
