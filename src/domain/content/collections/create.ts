import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { requireCreatableParent } from '../content-tree/parent.js';
import { nextPosition } from '../content-tree/position.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { collectionEvent } from '../events.js';
import { newId } from '../../kernel/ids.js';
import type { Access } from '../../access/access.js';
import { lazySchema, parseInput, titleSchema } from '../../../lib/validation.js';

export const collectionTitle = lazySchema(() => titleSchema(50));
export const collectionDescription = lazySchema(() => z.string().trim().max(100));

const input = lazySchema(() => z.object({
  organizationId: z.string(),
  title: collectionTitle.optional(),
  parent: z.string().optional(),
}));

export type CreateCollectionInput = z.input<typeof input>;

/** Creates a collection at the end of its parent (a collection, or the organization's root). */
export async function createCollection(db: Db, access: Access, raw: CreateCollectionInput): Promise<string> {
  const data = parseInput(input, raw);
  const check = (a: Access) => requireCreatableParent(a, data.organizationId, data.parent ?? null);
  const id = newId('Collection');
  const parents = () => [{ organizationId: data.organizationId, collectionId: data.parent ?? null }];
  await guardedWrite(db, { access, organizations: [data.organizationId], mode: 'use', check, parents }, async (tx) => {
    const position = await nextPosition(tx, data.organizationId, data.parent ?? null);
    await tx.collection.create({
      data: { id, organizationId: data.organizationId, parentId: data.parent ?? null, title: data.title ?? 'Untitled', position },
    });
    await recordEvents(tx, collectionEvent('collectionCreated', { id, organizationId: data.organizationId }, access));
  });
  return id;
}
