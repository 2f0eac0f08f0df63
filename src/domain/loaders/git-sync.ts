/** Loaders of git sync: a space's sync (with its operation's job), an entity's blob in the last synced commit. */
import type { Db } from '../../db/client.js';
import { gitBlobsByEntity, gitSyncsBySpace, type GitBlob, type GitSyncView } from '../git-sync/rows.js';
import type { LoaderRegistry } from './registry.js';

export function gitSyncLoaders(db: Db, registry: LoaderRegistry) {
  return {
    gitSync: registry.track<string, GitSyncView | null>((spaceIds) => gitSyncsBySpace(db, spaceIds)),
    /** Key `<spaceId>:<entityId>`. */
    gitBlob: registry.track<string, GitBlob | null>((keys) => gitBlobsByEntity(db, keys)),
  };
}
