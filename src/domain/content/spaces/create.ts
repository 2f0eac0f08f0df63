import { z } from 'zod';
import type { Prisma } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { requireCreatableParent } from '../content-tree/parent.js';
import { nextPosition } from '../content-tree/position.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';
import { spaceEvent } from '../events.js';
import { lazySchema, parseInput, titleSchema } from '../../../lib/validation.js';

export const spaceTitle = lazySchema(() => titleSchema(50));
export const emoji = lazySchema(() => z.string().max(50));

const input = lazySchema(() => z.object({
  organizationId: z.string(),
  title: spaceTitle.optional(),
  emoji: emoji.optional(),
  parent: z.string().optional(),
  editMode: z.enum(['live', 'locked']).optional(),
  /** Deprecated: private spaces are no longer supported; every space is private to its organization unless published. */
  private: z.boolean().optional(),
}));

export type CreateSpaceInput = z.input<typeof input>;

/** Creates a space with its first (empty) revision, at the end of its parent. */
export async function createSpace(db: Db, access: Access, raw: CreateSpaceInput): Promise<string> {
  const data = parseInput(input, raw);
  const check = (a: Access) => requireCreatableParent(a, data.organizationId, data.parent ?? null);
  const id = newId('Space');
  const parents = () => [{ organizationId: data.organizationId, collectionId: data.parent ?? null }];
  await guardedWrite(db, { access, organizations: [data.organizationId], mode: 'use', check, parents }, (tx) => insertSpace(tx, access, data, id));
  return id;
}

/**
 * The space's rows and `spaceCreated`, in the caller's transaction: the caller has checked that
 * it may create content under the parent and locked it (content-tree/transaction.ts lockParents).
 */
export async function insertSpace(tx: Prisma.TransactionClient, access: Access, data: z.output<typeof input>, id = newId('Space')): Promise<string> {
  const revisionId = newId('Revision');
  const position = await nextPosition(tx, data.organizationId, data.parent ?? null);
  await tx.space.create({
    data: {
      id,
      organizationId: data.organizationId,
      parentId: data.parent ?? null,
      title: data.title ?? 'Untitled',
      emoji: data.emoji ?? '',
      visibility: data.parent ? 'in_collection' : 'private',
      ...(data.editMode ? { editMode: data.editMode } : {}),
      position,
      revisionId,
    },
  });
  await tx.revision.create({ data: { id: revisionId, spaceId: id, lineId: id, seq: 1, createdById: access.userId } });
  await recordEvents(tx, spaceEvent('spaceCreated', { id, organizationId: data.organizationId }, access));
  return id;
}
