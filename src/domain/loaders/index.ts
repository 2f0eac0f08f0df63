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

/** What every group of loaders is made from. */
type Inputs = { db: Db; viewerId: string; registry: LoaderRegistry; reach: Reach };

/** The groups of loaders, each made from a request's inputs. */
const GROUPS: ((inputs: Inputs) => object)[] = [
  ({ db, viewerId, registry, reach }) => peopleLoaders(db, viewerId, registry, reach),
  ({ db, viewerId, registry }) => contentLoaders(db, viewerId, registry),
  ({ db, registry }) => revisionLoaders(db, registry),
  ({ db, registry }) => changeRequestLoaders(db, registry),
  ({ db, viewerId, registry }) => siteLoaders(db, viewerId, registry),
  ({ db, registry }) => openAPILoaders(db, registry),
  ({ db, registry }) => nodeLoaders(db, registry),
  ({ db, registry }) => gitSyncLoaders(db, registry),
  ({ db, registry }) => commentLoaders(db, registry),
];

const inputs = Symbol('inputs');
const groups = Symbol('groups');

/**
 * A request's loaders, each group made on the first use of one of its loaders: a request uses
 * one or two of the nine groups, and making all of them (some sixty loaders, copied into one
 * object) cost 10–20 µs per request, a twentieth of a read by ID's CPU. The prototype has a
 * getter per loader, which reads it from its group, made on the first read of any of its loaders.
 */
class RequestLoaders {
  readonly [inputs]: Inputs;
  readonly [groups]: (Record<string, unknown> | undefined)[] = new Array(GROUPS.length);
  readonly readAhead: LoaderRegistry['readAhead'];

  constructor(db: Db, viewerId: string, reach: Reach) {
    const registry = new LoaderRegistry();
    this[inputs] = { db, viewerId, registry, reach };
    this.readAhead = registry.readAhead;
  }

  /** Clears every cache of the request (after a write). */
  forgetAll(): void {
    this[inputs].registry.forgetAll();
  }
}

// The groups' loader names, learnt by making each group once (making one reads nothing).
const probe: Inputs = { db: undefined as unknown as Db, viewerId: '', registry: new LoaderRegistry(), reach: {} };
GROUPS.forEach((group, index) => {
  for (const name of Object.keys(group(probe))) {
    Object.defineProperty(RequestLoaders.prototype, name, {
      get(this: RequestLoaders) {
        return (this[groups][index] ??= group(this[inputs]) as Record<string, unknown>)[name];
      },
    });
  }
});

/** `reach`: how far the caller's credential reaches (access/reach.ts); what it reads of people stays within. */
export function createLoaders(db: Db, viewerId: string, reach: Reach = {}): Loaders {
  return new RequestLoaders(db, viewerId, reach) as unknown as Loaders;
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
