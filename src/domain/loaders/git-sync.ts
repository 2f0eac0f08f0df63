/** Loaders of git sync: a space's sync (with its operation's job), an entity's blob in the last synced commit. */
import type { Db } from '../../db/client.js';
import { gitBlobsByEntity, gitSyncsBySpace, type GitBlob, type GitSyncView } from '../git-sync/rows.js';
import { loadMappings, type BlobRecord } from '../git-sync/mapping.js';
import type { LoaderRegistry } from './registry.js';

export function gitSyncLoaders(db: Db, registry: LoaderRegistry) {
  return {
    gitSync: registry.track<string, GitSyncView | null>((spaceIds) => gitSyncsBySpace(db, spaceIds)),
    /** Key `<spaceId>:<entityId>`. */
    gitBlob: registry.track<string, GitBlob | null>((keys) => gitBlobsByEntity(db, keys)),
    /** A space's whole blob map (empty: never synced), for the layout its markdown links follow. */
    gitMapping: registry.track<string, Map<string, BlobRecord>>((spaceIds) => loadMappings(db, spaceIds)),
  };
}
