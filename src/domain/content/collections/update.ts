import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { collectionEvent } from '../events.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { roleSchema } from '../../access/roles.js';
import { collectionDescription, collectionTitle } from './create.js';

const input = lazySchema(() => z.object({
  title: collectionTitle.optional(),
  /** null or an empty string clears the description */
  description: collectionDescription.nullish(),
  defaultLevel: roleSchema.optional(),
}));

export type UpdateCollectionInput = z.input<typeof input>;

export async function updateCollection(db: Db, access: Access, id: string, raw: UpdateCollectionInput): Promise<string> {
  const data = parseInput(input, raw);
  const check = (a: Access) => a.requireCollection(id, 'update');
  const description = data.description === undefined ? undefined : data.description || null;
  // The default level decides who may do what in the collection.
  const mode = data.defaultLevel === undefined ? 'use' : 'change';
  await guardedWrite(db, { access, organizations: ({ collection }) => [collection.organizationId], mode, check }, async (tx, { collection }) => {
    await tx.collection.update({ where: { id }, data: { title: data.title, description, defaultLevel: data.defaultLevel } });
    await recordEvents(tx, collectionEvent('collectionUpdated', collection, access));
  });
  return id;
}
