/** What the published-site handlers share: the database, the settings and the logger (serve.ts hands it to each reply). */
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Logger } from '../observability/logger.js';

export type PublishedDeps = { db: Db; config: Config; logger: Logger };
