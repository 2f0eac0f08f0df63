/**
 * The lock of a change request's line of revisions: content writes, updates and merges of one
 * request run one at a time (the request row FOR UPDATE), each on the head it read under the lock.
 */
import { Prisma, type ChangeRequest } from '../../../generated/prisma/client.js';
import { conflict, notFound } from '../../../lib/errors.js';
import { revisionScope } from '../revisions/load.js';
import type { RevisionScope } from '../revisions/scope.js';

type Tx = Prisma.TransactionClient;

export type LockedChangeRequest = { changeRequest: ChangeRequest; head: RevisionScope };

/** Locks the request and reads its head revision; a merged request is final (409). */
export async function lockChangeRequest(tx: Tx, id: string): Promise<LockedChangeRequest> {
  const [changeRequest] = await tx.$queryRaw<ChangeRequest[]>`SELECT * FROM "ChangeRequest" WHERE "id" = ${id} FOR UPDATE`;
  if (!changeRequest) throw notFound('Change request');
  if (changeRequest.status === 'merged') throw conflict('The change request is merged: it cannot change any more');
  return { changeRequest, head: await revisionScope(tx, changeRequest.revisionId) };
}

/** Locks the space's own line and reads its head revision. */
export async function lockSpaceLine(tx: Tx, spaceId: string): Promise<RevisionScope> {
  const [space] = await tx.$queryRaw<{ revisionId: string }[]>`SELECT "revisionId" FROM "Space" WHERE "id" = ${spaceId} FOR UPDATE`;
  if (!space) throw notFound('Space');
  return revisionScope(tx, space.revisionId);
}
