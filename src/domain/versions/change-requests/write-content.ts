import type { Prisma } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { commitRevision } from '../revisions/commit.js';
import { parseInput } from '../../../lib/validation.js';
import { applyChanges, type ChangeOutcome } from './apply.js';
import { requireUniqueRefs } from './batch-refs.js';
import { changeRequestOf, recordChangeRequestEvent, writtenEntities } from './events.js';
import { lockChangeRequest } from './line.js';
import { changesSchema, type PageChange } from './page-input.js';
import { Workspace } from './workspace.js';
import type { BlobStore } from '../files/blob-store.js';
import { checkBatchFiles, readBatchFiles, storeFiles, type StoredFile } from '../files/store-files.js';
import type { SafeFetch } from '../../../lib/import-readers/tree.js';

/**
 * The files of the batch's `insert_files` changes, decoded, checked and stored — after the
 * caller's right to write is checked, so nobody else can fill the store.
 */
async function storeBatchFiles(changes: PageChange[], store: BlobStore, fetch: SafeFetch, mayWrite: () => Promise<unknown>): Promise<Map<number, StoredFile[]>> {
  const stored = new Map<number, StoredFile[]>();
  const wanted = changes.flatMap((change, index) => (change.operation === 'insert_files' ? [{ index, files: change.files, field: `changes.${index}` }] : []));
  if (!wanted.length) return stored;
  for (const { files, field } of wanted) checkBatchFiles(files, field);
  await mayWrite(); // before anything is fetched or stored
  for (const { index, files, field } of wanted) stored.set(index, await storeFiles(store, await readBatchFiles(files, field, fetch)));
  return stored;
}

/**
 * Applies a batch of page changes to a change request as one new revision of its line (needs
 * `edit` on the space, which a locked space refuses). A batch that changes nothing adds no revision.
 */
export async function writeContent(
  db: Db,
  access: Access,
  spaceId: string,
  idOrNumber: string,
  raw: { changes: PageChange[] } | unknown,
  store: BlobStore,
  fetch: SafeFetch,
): Promise<{ changeRequestId: string; outcomes: ChangeOutcome[] }> {
  const { changes } = parseInput(changesSchema, raw);
  requireUniqueRefs(changes);
  const files = await storeBatchFiles(changes, store, fetch, () => access.requireChangeRequest(spaceId, idOrNumber, 'edit'));
  return editContent(db, access, spaceId, idOrNumber, (tx, ws) => applyChanges(tx, ws, changes, files));
}

/**
 * One edit of a change request's content: `work` changes the workspace, and what it changed is
 * committed as one new revision of the request's line, in the same transaction (needs `edit` on
 * the space; the request locked, a merged one refused), and recorded as `changeRequestContentUpdated`
 * (an import by its job too: the job acts for its creator). Nothing changed: no revision. `after`
 * runs last in the transaction, with the request's revision once edited (a job marks itself done).
 * `timeoutMs`: the transaction's time, when longer than a request's (an import's).
 */
export async function editContent<T>(
  db: Db,
  access: Access,
  spaceId: string,
  idOrNumber: string,
  work: (tx: Prisma.TransactionClient, ws: Workspace) => Promise<T>,
  after?: (tx: Prisma.TransactionClient, revisionId: string, outcomes: T) => Promise<void>,
  options: { timeoutMs?: number } = {},
): Promise<{ changeRequestId: string; outcomes: T }> {
  const check = (a: Access) => a.requireChangeRequest(spaceId, idOrNumber, 'edit');
  return guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check, ...options }, async (tx, { changeRequest: found, space }) => {
    const { changeRequest, head } = await lockChangeRequest(tx, found.id);
    const ws = new Workspace(tx, head);
    const outcomes = await work(tx, ws);
    const writes = ws.writes();
    let revisionId = head.id;
    if (writes.length) {
      const revision = await commitRevision(tx, {
        spaceId,
        lineId: changeRequest.id,
        head,
        type: 'edits',
        parents: [head.id],
        createdById: access.userId,
        writes,
      });
      await tx.changeRequest.update({ where: { id: changeRequest.id }, data: { revisionId: revision.id } });
      await recordChangeRequestEvent(tx, 'changeRequestContentUpdated', changeRequestOf(space, changeRequest.id, access.userId), { revisionId: revision.id, ...writtenEntities(writes) });
      revisionId = revision.id;
    }
    await after?.(tx, revisionId, outcomes);
    return { changeRequestId: changeRequest.id, outcomes };
  });
}
