import type { Db } from '../../../db/client.js';
import type { EntityConflict } from '../../../lib/merge/index.js';
import { revisionScope } from '../revisions/load.js';
import type { ChangeRequestRow } from './rows.js';
import { baseOf } from './merge.js';
import { threeWay } from './three-way.js';

/** What merging the request now would conflict on (empty: it would merge); reads only. */
export async function changeRequestConflicts(db: Db, changeRequest: ChangeRequestRow, spaceRevisionId: string): Promise<EntityConflict[]> {
  if (changeRequest.status === 'merged') return [];
  return db.$transaction(
    async (tx) => {
    const ours = await revisionScope(tx, changeRequest.revisionId);
    const sides = { ours, base: await baseOf(tx, ours), theirs: await revisionScope(tx, spaceRevisionId) };
    return (await threeWay(tx, sides, { conflictsOnly: true })).conflicts;
    },
    { isolationLevel: 'RepeatableRead' },
  );
}
