/**
 * Request-scoped DataLoaders: every read of the graph goes through these, so a nested query
 * costs a fixed number of SQL statements whatever the list sizes, and nothing loads a whole
 * organization (lists are pages read in SQL; counts are counters or COUNTs).
 */
import type { Db } from '../../db/client.js';
import { changeRequestLoaders } from './change-requests.js';
import { commentLoaders } from './comments.js';
import { contentLoaders } from './content.js';
import { gitSyncLoaders } from './git-sync.js';
import { peopleLoaders } from './people.js';
import { openAPILoaders } from './openapi.js';
import { nodeLoaders } from './nodes.js';
import { LoaderRegistry } from './registry.js';
import { revisionLoaders } from './revisions.js';
import { siteLoaders } from './sites.js';
import type { Reach } from '../access/reach.js';

export { pageVariant } from './registry.js';

/** `reach`: how far the caller's credential reaches (access/reach.ts); what it reads of people stays within. */
export function createLoaders(db: Db, viewerId: string, reach: Reach = {}): Loaders {
  const registry = new LoaderRegistry();
  // Object.assign, not one object literal spreading the groups: Node 20's V8 spreads an object of
  // this many properties on a slow path (about half a millisecond per request, measured), Node 22+ does not.
  return Object.assign(
    {},
    peopleLoaders(db, viewerId, registry, reach),
    contentLoaders(db, viewerId, registry),
    revisionLoaders(db, registry),
    changeRequestLoaders(db, registry),
    siteLoaders(db, viewerId, registry),
    openAPILoaders(db, registry),
    nodeLoaders(db, registry),
    gitSyncLoaders(db, registry),
    commentLoaders(db, registry),
    {
      /** Pages read ahead by a parent's statement: `set` by the parent, taken by the list's resolver. */
      readAhead: registry.readAhead,
      /** Clears every cache of the request (after a write). */
      forgetAll: () => registry.forgetAll(),
    },
  );
}

export type Loaders = ReturnType<typeof peopleLoaders> &
  ReturnType<typeof contentLoaders> &
  ReturnType<typeof revisionLoaders> &
  ReturnType<typeof changeRequestLoaders> &
  ReturnType<typeof siteLoaders> &
  ReturnType<typeof openAPILoaders> &
  ReturnType<typeof nodeLoaders> &
  ReturnType<typeof gitSyncLoaders> &
  ReturnType<typeof commentLoaders> & {
    readAhead: LoaderRegistry['readAhead'];
    forgetAll(): void;
  };
