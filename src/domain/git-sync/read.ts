/** Reading a space's git sync (4.18 `git/info`, `Space.gitSync`). */
import type { Access } from '../access/access.js';
import { notFound } from '../../lib/errors.js';
import type { GitSyncView } from './rows.js';

export type { GitBlob, GitSyncView } from './rows.js';

/** The space's sync, for who can view the space; 404 when it has none. */
export async function readGitSync(access: Access, spaceId: string): Promise<GitSyncView> {
  await access.requireSpace(spaceId, 'view');
  const sync = await access.loaders.gitSync.load(spaceId);
  if (!sync) throw notFound('Git sync');
  return sync;
}
